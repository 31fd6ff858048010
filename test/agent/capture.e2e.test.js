// The agent in real processes, loaded the ways users load it, signalled with process.kill.
import ava from 'ava'
import { readFile, stat, writeFile, chmod } from 'node:fs/promises'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { makeInstallDir, startApp, get, listDir, FIXTURES } from '../helpers/agent-child.js'
import { pooledTest } from '../helpers/process-pool.js'
import { pollUntil } from '../helpers/load-deadline.js'

// Each test runs apps that write heap snapshots: a few at a time, however many tests there are.
const test = pooledTest(ava)

/**
 * Reads a snapshot (gzip or not) and checks that it is whole: valid JSON whose arrays have the
 * lengths its header announces.
 * @param {string} path
 * @returns {Promise<{nodeCount: number}>}
 */
async function readWholeSnapshot (path) {
  let bytes = await readFile(path)
  if (path.endsWith('.gz')) bytes = gunzipSync(bytes)
  const snapshot = JSON.parse(bytes.toString('latin1'))
  const { meta, node_count: nodeCount, edge_count: edgeCount } = snapshot.snapshot
  if (snapshot.nodes.length !== nodeCount * meta.node_fields.length || snapshot.edges.length !== edgeCount * meta.edge_fields.length) {
    throw new Error(`${path} is not whole`)
  }
  return { nodeCount }
}

/** @param {string} path */
async function mode (path) {
  return (await stat(path)).mode & 0o777
}

/**
 * A fresh install directory and an app in it, both removed when the test ends, whatever happens.
 * @param {import('ava').ExecutionContext} t
 * @param {Parameters<typeof startApp>[0] extends infer O ? Omit<O, 'cwd'> : never} options
 */
async function appIn (t, options) {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  // Teardowns run last-registered first: the app stops before its directory goes.
  const app = await startApp({ ...options, cwd: install.dir })
  t.teardown(app.stop)
  return { app, cwd: install.dir }
}

test('--import leakdiff/register: a signal writes a whole series at the interval; a second signal is ignored', async (t) => {
  const { app, cwd } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_DIR: 'snaps/new', LEAKDIFF_SERIES: '2', LEAKDIFF_INTERVAL: '400ms' }
  })
  const out = join(cwd, 'snaps', 'new')
  const pid = /** @type {number} */ (app.child.pid)
  t.regex(app.stderr(), new RegExp(`^leakdiff: ready: kill -USR2 ${pid} writes 2 snapshots 400 ms apart to ${out}$`, 'm'))

  process.kill(pid, 'SIGUSR2')
  await app.waitForStderr(/series .* started/)
  process.kill(pid, 'SIGUSR2')
  await app.waitForStderr(/SIGUSR2 ignored: series .* still running/)
  const end = await app.waitForStderr(/series .* (complete|failed)/)
  t.regex(end, /complete: 2 of 2 snapshots/)
  t.is(await get(app.ready[0]), 'ok 1\n')

  t.is(await mode(out), 0o700)
  const names = await listDir(out)
  t.is(names.length, 7)
  const series = JSON.parse(await readFile(join(out, /** @type {string} */ (names.find((n) => n.endsWith('.series.json')))), 'utf8'))
  t.is(series.status, 'complete')
  t.deepEqual(series.snapshots, series.planned)
  const metas = []
  for (const name of series.snapshots) {
    t.regex(name, new RegExp(`^leakdiff-${pid}-\\d{8}T\\d{6}\\.\\d{3}Z-[12]of2\\.heapsnapshot$`))
    t.is(await mode(join(out, name)), 0o600)
    const { nodeCount } = await readWholeSnapshot(join(out, name))
    t.true(nodeCount > 10_000)
    const sidecar = join(out, name.replace('.heapsnapshot', '.meta.json'))
    t.is(await mode(sidecar), 0o600)
    metas.push(JSON.parse(await readFile(sidecar, 'utf8')))
  }
  for (const [i, meta] of metas.entries()) {
    t.like(meta, { schemaVersion: 1, file: series.snapshots[i], pid, nodeVersion: process.version, series: { id: series.id, index: i + 1, count: 2, intervalMs: 400 } })
    t.true(meta.heapSizeLimit > 0 && meta.memoryUsage.rss > 0 && meta.memoryUsage.external > 0 && meta.durationMs > 0)
    t.is(meta.bytes, (await stat(join(out, meta.file))).size)
    t.is(meta.allocationProfile.file, meta.file.replace('.heapsnapshot', '.heapprofile'))
    t.is(await mode(join(out, meta.allocationProfile.file)), 0o600)
  }
  const gap = Date.parse(metas[1].takenAt) - Date.parse(metas[0].takenAt)
  // Interval from start to start; a first write slower than the interval delays the second.
  const expected = Math.max(400, metas[0].durationMs)
  t.true(gap >= 395 && gap < expected + 2000, `snapshots ${gap} ms apart, expected about ${expected}`)
})

test('-r leakdiff/register in a CommonJS app: gzip leaves only .gz files and nothing else on stderr; its thread runs none of the host\'s preloads', async (t) => {
  const { app, cwd } = await appIn(t, {
    script: 'cjs-app.cjs',
    nodeArgs: ['-r', 'leakdiff/register', '-r', join(FIXTURES, 'log-threads.cjs')],
    env: { LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '1', LEAKDIFF_GZIP: 'true', THREAD_LOG: 'threads.log', NODE_OPTIONS: `--import ${pathToFileURL(join(FIXTURES, 'log-threads.mjs')).href}` }
  })
  process.kill(/** @type {number} */ (app.child.pid), 'SIGUSR2')
  await app.waitForStderr(/series .* complete/)
  const names = await listDir(join(cwd, 'out'))
  t.is(names.filter((n) => n.includes('.heapsnapshot')).length, 1)
  const gz = /** @type {string} */ (names.find((n) => n.endsWith('-1of1.heapsnapshot.gz')))
  t.truthy(gz)
  t.is(await mode(join(cwd, 'out', gz)), 0o600)
  await readWholeSnapshot(join(cwd, 'out', gz))
  const meta = JSON.parse(await readFile(join(cwd, 'out', gz.replace('.heapsnapshot.gz', '.meta.json')), 'utf8'))
  t.like(meta, { file: gz, gzip: true })
  t.true(meta.uncompressedBytes > meta.bytes)
  // No ExperimentalWarning (require of the ESM agent) or anything else of ours but prefixed lines.
  t.deepEqual(app.stderr().split('\n').filter((line) => line && !line.startsWith('leakdiff: ')), [])
  t.is(await get(app.ready[0]), 'ok\n')
  // The preloads given on the command line and in NODE_OPTIONS ran in the main thread only.
  t.deepEqual((await readFile(join(cwd, 'threads.log'), 'utf8')).trim().split('\n').sort(), ['--import main', '-r main'])
})

test('NODE_OPTIONS=-r leakdiff/register in a cluster: each worker writes its own files', async (t) => {
  const { app, cwd } = await appIn(t, {
    script: 'cluster-app.js',
    env: { NODE_OPTIONS: '-r leakdiff/register', LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '1' },
    extraPids: (ready) => ready.slice(1).map(Number)
  })
  const workers = app.ready.slice(1).map(Number)
  t.is(workers.length, 2)
  for (const pid of workers) process.kill(pid, 'SIGUSR2')
  for (const pid of workers) await app.waitForStderr(new RegExp(`series ${pid}-\\S+ complete`))
  const names = await listDir(join(cwd, 'out'))
  for (const pid of workers) {
    const mine = names.filter((n) => n.startsWith(`leakdiff-${pid}-`))
    t.is(mine.length, 4, mine.join(' '))
    const snapshot = /** @type {string} */ (mine.find((n) => n.endsWith('.heapsnapshot')))
    await readWholeSnapshot(join(cwd, 'out', snapshot))
    const meta = JSON.parse(await readFile(join(cwd, 'out', snapshot.replace('.heapsnapshot', '.meta.json')), 'utf8'))
    t.like(meta, { pid, ppid: app.child.pid })
  }
  t.regex(await get(app.ready[0]), /^ok \d+\n$/)
})

test('an unwritable directory is logged, and the app keeps serving', async (t) => {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  await writeFile(join(install.dir, 'a-file'), 'not a directory')
  const { app } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_DIR: join(install.dir, 'a-file', 'sub'), LEAKDIFF_SERIES: '1' }
  })
  process.kill(/** @type {number} */ (app.child.pid), 'SIGUSR2')
  t.regex(await app.waitForStderr(/series .* failed:/), /ENOTDIR/)
  t.is(await get(app.ready[0]), 'ok 1\n')
  t.is(app.child.exitCode, null)
})

test('a disk without the free margin is refused, the app keeps serving, and the next signal tries again', async (t) => {
  const { app, cwd } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_DIR: 'out', LEAKDIFF_MIN_FREE: '1000000GB' }
  })
  const pid = /** @type {number} */ (app.child.pid)
  process.kill(pid, 'SIGUSR2')
  await app.waitForStderr(/refused snapshot 1 of 3: not enough disk space in .*LEAKDIFF_MIN_FREE/)
  await app.waitForStderr(/series .* failed: 0 of 3/)
  t.is(await get(app.ready[0]), 'ok 1\n')
  process.kill(pid, 'SIGUSR2')
  await app.waitForStderr(/refused snapshot 1 of 3/, 2)
  await app.waitForStderr(/series .* failed: 0 of 3/, 2)
  // Only the last series file is left: a series file without snapshots goes at the next prune.
  const names = await listDir(join(cwd, 'out'))
  t.is(names.length, 1)
  for (const name of names) {
    t.regex(name, /\.series\.json$/)
    const series = JSON.parse(await readFile(join(cwd, 'out', name), 'utf8'))
    t.like(series, { status: 'failed', snapshots: [] })
    t.regex(series.error, /not enough disk space/)
  }
})

test('too little memory headroom is refused with a clear line', async (t) => {
  // The fixture's RSS is ~50 MiB; a first write is assumed to need 32 MiB + 10 x heapUsed, plus
  // 64 MiB that must stay free, so a 150 MiB limit leaves too little.
  const { app, cwd } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_DIR: 'out', LEAKDIFF_MEMORY_LIMIT: '150MiB' }
  })
  process.kill(/** @type {number} */ (app.child.pid), 'SIGUSR2')
  const line = await app.waitForStderr(/refused snapshot/)
  t.regex(line, /^leakdiff: refused snapshot 1 of 3: not enough memory: the write may add ~\S+ MB at its peak .* but \S+ MB is available \(memoryLimitBytes \(LEAKDIFF_MEMORY_LIMIT\) less RSS\)$/)
  await app.waitForStderr(/series .* failed/)
  t.is(await get(app.ready[0]), 'ok 1\n')
  t.deepEqual((await listDir(join(cwd, 'out'))).filter((n) => n.includes('.heapsnapshot')), [])
})

test('bad environment values are reported once each and the defaults used', async (t) => {
  const { app } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_SERIES: 'lots', LEAKDIFF_SIGNAL: 'SIGUSR1', LEAKDIFF_INTERVAL: 'soon', LEAKDIFF_GZIP: 'maybe' }
  })
  const lines = app.stderr().trim().split('\n')
  t.is(lines.length, 5, lines.join('\n'))
  t.regex(lines[0], /^leakdiff: ignoring LEAKDIFF_SIGNAL="SIGUSR1": expected a signal the agent may catch \(SIGUSR1 starts the Node.js inspector\); using SIGUSR2$/)
  t.regex(lines[1], /^leakdiff: ignoring LEAKDIFF_SERIES="lots": .* using 3$/)
  t.regex(lines[2], /^leakdiff: ignoring LEAKDIFF_INTERVAL="soon": .* using 60s$/)
  t.regex(lines[3], /^leakdiff: ignoring LEAKDIFF_GZIP="maybe": .* using false$/)
  t.regex(lines[4], /^leakdiff: ready: kill -USR2 \d+ writes 3 snapshots 60 s apart to /)
  t.is(await get(app.ready[0]), 'ok 1\n')
})

test('a process killed mid-write leaves no file under a final name; the next series removes its partial file', async (t) => {
  const { app, cwd } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '1', LEAKDIFF_FIXTURE_OBJECTS: '400000' }
  })
  const out = join(cwd, 'out')
  process.kill(/** @type {number} */ (app.child.pid), 'SIGUSR2')
  await pollUntil(async () => (await listDir(out)).some((n) => n.endsWith('.heapsnapshot.partial')), 10_000, 10)
  await app.stop()
  let names = await listDir(out)
  const partial = names.find((n) => n.endsWith('.heapsnapshot.partial'))
  t.truthy(partial, `expected a partial file, found ${names.join(' ')}`)
  t.regex(/** @type {string} */ (partial), new RegExp(`^\\.leakdiff-${app.child.pid}-[0-9a-f]+\\.heapsnapshot\\.partial$`))
  t.deepEqual(names.filter((n) => /\.heapsnapshot(\.gz)?$/.test(n)), [])

  const next = await startApp({ script: 'esm-app.js', nodeArgs: ['--import', 'leakdiff/register'], cwd, env: { LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '1' } })
  t.teardown(() => next.stop())
  process.kill(/** @type {number} */ (next.child.pid), 'SIGUSR2')
  await next.waitForStderr(/series .* complete/)
  names = await listDir(out)
  t.false(names.some((n) => n.endsWith('.partial')), names.join(' '))
  t.is(names.filter((n) => n.endsWith('.heapsnapshot')).length, 1)
})

test('under nodemon the agent leaves SIGUSR2 alone, so a restart still stops the app', async (t) => {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  // A stand-in for nodemon: a process whose command line names nodemon and that runs the app.
  const nodemon = join(install.dir, 'nodemon')
  await writeFile(nodemon, `
    const { spawn } = require('node:child_process')
    const child = spawn(process.execPath, ['--import', 'leakdiff/register', ${JSON.stringify(join(FIXTURES, 'esm-app.js'))}], { stdio: 'inherit' })
    child.on('exit', (code, signal) => { console.log('child exit ' + signal); process.exit(0) })
  `)
  await chmod(nodemon, 0o755)
  const parent = spawn(process.execPath, [nodemon], { cwd: install.dir, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => { parent.kill('SIGKILL') })
  let stdout = ''
  let stderr = ''
  parent.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk })
  parent.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk })
  const until = (/** @type {() => boolean} */ check) => pollUntil(check, 10_000)
  await until(() => /ready \d+/.test(stdout))
  t.regex(stderr, /^leakdiff: not listening on SIGUSR2: this process runs under nodemon/m)
  t.regex(stderr, /^leakdiff: ready \(pid (\d+), no signal\)/m)
  const childPid = Number(/ready \(pid (\d+)/.exec(stderr)?.[1])
  process.kill(childPid, 'SIGUSR2')
  await until(() => /child exit/.test(stdout))
  t.regex(stdout, /child exit SIGUSR2/)
})
