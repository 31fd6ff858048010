// `leakdiff capture <pid>` against real child processes with and without the agent. Its argument
// checks, which need no process: usage.test.js.
import test from 'ava'
import { execFile, spawn } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { makeInstallDir, startApp, get, listDir } from '../helpers/agent-child.js'
import { pollUntil, scaledMs, scaledSeconds } from '../helpers/load-deadline.js'

const CLI = fileURLToPath(new URL('../../cli/leakdiff.js', import.meta.url))

/**
 * Runs the CLI; resolves with its output and exit code whatever the code.
 * @param {string[]} args
 * @param {{cwd?: string, uid?: number, gid?: number}} [options]
 * @returns {Promise<{stdout: string, stderr: string, code: number}>}
 */
function leakdiff (args, options = {}) {
  // A CLI run as another user cannot write c8's coverage files; child_process copies
  // NODE_V8_COVERAGE into every child's environment unless the environment names it, so blank it.
  const { FORCE_COLOR, NO_COLOR, LEAKDIFF_DIR, ...inherited } = process.env
  if (options.uid !== undefined && inherited.NODE_V8_COVERAGE !== undefined) inherited.NODE_V8_COVERAGE = ''
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { ...options, env: { ...inherited, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ stdout, stderr, code: error ? Number(/** @type {{code?: unknown}} */ (error).code) : 0 })
    })
  })
}

/**
 * An app (fixtures/agent/esm-app.js) in a fresh install directory, stopped and removed at the end.
 * @param {import('ava').ExecutionContext} t
 * @param {{agent?: boolean, env?: Record<string, string>}} [options]
 */
async function appIn (t, { agent = true, env = {} } = {}) {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  const app = await startApp({ script: 'esm-app.js', nodeArgs: agent ? ['--import', 'leakdiff/register'] : [], env, cwd: install.dir })
  t.teardown(app.stop)
  return { app, cwd: install.dir, pid: /** @type {number} */ (app.child.pid) }
}

test('capture finds the agent\'s directory from the process, waits for the series and prints the diff command', async (t) => {
  const { app, cwd, pid } = await appIn(t, { env: { LEAKDIFF_DIR: 'snaps', LEAKDIFF_SERIES: '2', LEAKDIFF_INTERVAL: '300ms' } })
  // Run from elsewhere: the directory comes from the target's environment and working directory.
  const { stdout, stderr, code } = await leakdiff(['capture', String(pid), '--timeout', scaledSeconds(10_000)], { cwd: '/' })
  t.is(code, 0, stderr)
  const dir = join(cwd, 'snaps')
  const names = (await listDir(dir)).filter((name) => name.endsWith('.heapsnapshot'))
  t.is(names.length, 2)
  const files = names.map((name) => join(dir, name))
  t.is(stdout, `${files.join('\n')}\n\nDiff them with:\n  leakdiff ${files.join(' ')}\n`)
  t.regex(stderr, new RegExp(`^leakdiff: sent SIGUSR2 to pid ${pid}; watching ${dir}$`, 'm'))
  t.is(await get(app.ready[0]), 'ok 1\n')
})

test('capture --diff --dir --timeout prints the report of a 3-snapshot series; the exit code follows the verdict', async (t) => {
  const { pid, cwd } = await appIn(t, { env: { LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '3', LEAKDIFF_INTERVAL: '300ms' } })
  const { stdout, stderr, code } = await leakdiff(['capture', String(pid), '--dir', join(cwd, 'out'), '--timeout', scaledSeconds(20_000), '--diff'])
  t.regex(stdout, /^leakdiff 3 snapshots\b/)
  t.regex(stderr, new RegExp(`^leakdiff: series ${pid}-\\S+ started: 3 snapshots 300 ms apart$`, 'm'))
  const verdict = /^(LEAK|CLEAN|INCONCLUSIVE) {2}/m.exec(stdout)?.[1]
  t.truthy(verdict, stdout)
  t.is(code, verdict === 'LEAK' ? 1 : 0, stderr)
  t.notRegex(stdout, /Diff them with/)
})

test('capture of a pid that does not exist: one line, exit 2', async (t) => {
  const gone = spawn(process.execPath, ['-e', ''])
  await new Promise((resolve) => gone.once('exit', resolve))
  const { stdout, stderr, code } = await leakdiff(['capture', String(gone.pid)])
  t.is(code, 2)
  t.is(stdout, '')
  t.is(stderr, `leakdiff: No process with pid ${gone.pid}\n`)
})

test('capture of a process without the agent sends nothing (SIGUSR2 would kill it) and says how to load the agent', async (t) => {
  const { app, pid, cwd } = await appIn(t, { agent: false })
  const [plain, forced] = await Promise.all([
    leakdiff(['capture', String(pid), '--timeout', '2s'], { cwd }),
    leakdiff(['capture', String(pid), '--timeout', '2s', '--force'], { cwd })
  ])
  t.is(plain.code, 2)
  t.regex(plain.stderr, new RegExp(`^leakdiff: Nothing was sent to pid ${pid}: no leakdiff agent of pid ${pid} writes to ${cwd} .*node --import leakdiff/register app\\.js.*; --force sends SIGUSR2 anyway`))
  t.is(plain.stderr.split('\n').length, 2)
  // --force skips the marker, not the check that the process catches the signal.
  t.is(forced.code, 2)
  t.regex(forced.stderr, new RegExp(`^leakdiff: Pid ${pid} does not catch SIGUSR2, so no agent listens there .*nothing was sent\\. .*node --import leakdiff/register app\\.js`))
  t.is(await get(app.ready[0]), 'ok 1\n')
})

test('capture watching a directory the agent does not write to sends nothing, naming the directory; with --force it times out', async (t) => {
  const { pid, cwd } = await appIn(t, { env: { LEAKDIFF_DIR: 'real', LEAKDIFF_SERIES: '1' } })
  const watched = join(cwd, 'elsewhere')
  await mkdir(watched)
  const refused = await leakdiff(['capture', String(pid), '--dir', watched])
  t.is(refused.code, 2)
  t.regex(refused.stderr, new RegExp(`^leakdiff: Nothing was sent to pid ${pid}: no leakdiff agent of pid ${pid} writes to ${watched} `))
  t.deepEqual(await listDir(join(cwd, 'real')), [])
  const started = Date.now()
  const { stderr, code } = await leakdiff(['capture', String(pid), '--dir', watched, '--timeout', '700ms', '--force'])
  t.is(code, 2)
  t.true(Date.now() - started < scaledMs(10_000))
  t.is(stderr.split('\n').filter((line) => line.startsWith('leakdiff: No series')).length, 1)
  t.regex(stderr, new RegExp(`^leakdiff: No series from pid ${pid} appeared in ${watched} within 700 ms after SIGUSR2: is the agent loaded \\(node --import leakdiff/register app\\.js`, 'm'))
  // The agent did get the signal and wrote where it was told.
  let names = await listDir(join(cwd, 'real'))
  await pollUntil(async () => (names = await listDir(join(cwd, 'real'))).some((n) => n.endsWith('.series.json')), 10_000, 100)
  t.true(names.some((n) => n.endsWith('.series.json')), names.join(' '))
})

test('capture of a series the agent refuses prints the agent\'s reason, exit 2', async (t) => {
  const { app, pid } = await appIn(t, { env: { LEAKDIFF_DIR: 'snaps', LEAKDIFF_SERIES: '2', LEAKDIFF_MIN_FREE: '1000000GB' } })
  const { stdout, stderr, code } = await leakdiff(['capture', String(pid), '--timeout', scaledSeconds(10_000)], { cwd: '/' })
  t.is(code, 2)
  t.is(stdout, '')
  t.regex(stderr, new RegExp(`^leakdiff: Series ${pid}-\\S+ of pid ${pid} failed after 0 of 2 snapshots: Refused snapshot 1 of 2: not enough disk space in .*LEAKDIFF_MIN_FREE`, 'm'))
  t.is(await get(app.ready[0]), 'ok 1\n')
})

test('capture notices a process that dies mid-series (an OOM kill, a deploy)', async (t) => {
  const { app, pid, cwd } = await appIn(t, { env: { LEAKDIFF_DIR: 'snaps', LEAKDIFF_SERIES: '3', LEAKDIFF_INTERVAL: '20s' } })
  const capture = leakdiff(['capture', String(pid), '--timeout', scaledSeconds(10_000)], { cwd: '/' })
  await app.waitForStderr(/wrote .*1of3\.heapsnapshot/)
  await app.stop()
  const { stdout, stderr, code } = await capture
  t.is(code, 2)
  t.is(stdout, '')
  t.regex(stderr, new RegExp(`^leakdiff: Pid ${pid} exited during series ${pid}-\\S+ \\([01] of 3 snapshots written\\)$`, 'm'))
  t.true((await listDir(join(cwd, 'snaps'))).some((name) => name.endsWith('1of3.heapsnapshot')))
})

const otherUser = process.getuid?.() === 0 ? test : test.skip
otherUser('capture of another user\'s process: EPERM in one line, nothing sent', async (t) => {
  const { app, pid } = await appIn(t)
  const { stderr, code } = await leakdiff(['capture', String(pid)], { cwd: '/', uid: 65534, gid: 65534 })
  t.is(code, 2)
  t.is(stderr, `leakdiff: Not permitted to signal pid ${pid} (EPERM): run as the user that owns the process, or as root\n`)
  t.notRegex(app.stderr(), /series/)
})
