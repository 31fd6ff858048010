// `leakdiff soak` runs a service, loads it and snapshots it: real processes all through. How its
// gates end a report (--allow on soak's default gates): soak.test.js, in the test's process.
import test from 'ava'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { createServer, get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readXml } from '../helpers/xml.js'
import { execFileWithin, pollUntil, scaledSeconds } from '../helpers/load-deadline.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLI = join(ROOT, 'cli', 'leakdiff.js')
const LEAK_LINE = readFileSync(join(ROOT, 'fixtures', 'soak', 'leaky-server.js'), 'utf8').split('\n').findIndex((line) => line.endsWith('// leak: listener')) + 1

/** @returns {Promise<number>} a port free on 127.0.0.1 a moment ago */
function freePort () {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

/**
 * Runs `leakdiff soak` from the package root with its own TMPDIR (to see that it cleans up) and PORT.
 * @param {import('ava').ExecutionContext} t
 * @param {(port: number) => string[]} args
 * @param {Record<string, string>} [extraEnv]
 */
async function soak (t, args, extraEnv = {}) {
  const port = await freePort()
  const temp = await mkdtemp(join(tmpdir(), 'leakdiff-soak-test-'))
  t.teardown(() => rm(temp, { recursive: true, force: true }))
  const { FORCE_COLOR, GITHUB_ACTIONS, GITHUB_STEP_SUMMARY, NODE_OPTIONS, ...env } = process.env
  // The service's start and each snapshot's series may take as long as --ready-timeout.
  const { stdout, stderr, code } = await execFileWithin(process.execPath, [CLI, 'soak', '--ready-timeout', scaledSeconds(30_000), ...args(port)],
    { cwd: ROOT, env: { ...env, NO_COLOR: '1', TMPDIR: temp, PORT: String(port), ...extraEnv } }, 90_000)
  return { stdout, stderr, code, port, leftovers: await readdir(temp) }
}

/**
 * Text with its `::stop-commands::` blocks unwrapped; fails the test when a block is not closed by its own token.
 * @param {import('ava').ExecutionContext} t
 * @param {string} text
 */
function withoutCommandBlocks (t, text) {
  return text.replace(/::stop-commands::([0-9a-f-]+)\n([^]*?)::([0-9a-f-]+)::\n/g, (_, open, inner, close) => {
    t.is(close, open)
    return inner
  })
}

/** @param {number} port @returns {Promise<boolean>} */
function answers (port) {
  return new Promise((resolve) => {
    get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => { res.resume(); resolve(true) }).on('error', () => resolve(false))
  })
}

test('a server that leaks a listener per request: exit 1, the card with its source line, the HTML report beside the kept snapshots and named in the step summary, the service stopped, nothing left behind', async (t) => {
  const kept = await mkdtemp(join(tmpdir(), 'leakdiff-soak-kept-'))
  t.teardown(() => rm(kept, { recursive: true, force: true }))
  const summary = join(kept, 'summary.md')
  const run = await soak(t, (port) => ['--requests', `http://127.0.0.1:${port}/`, '--count', '300', '--interval', '200ms', '--keep-snapshots', kept, '--', 'node', 'fixtures/soak/leaky-server.js'],
    { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary })
  const { code, port, leftovers } = run
  // In a GitHub Actions log the report and the failure line stand in blocks where workflow commands are off.
  const stdout = withoutCommandBlocks(t, run.stdout)
  const stderr = withoutCommandBlocks(t, run.stderr)
  t.is(code, 1, stderr)
  const html = join(kept, 'leakdiff-report.html')
  t.true(stderr.includes(`leakdiff: HTML report written to ${html}\n`))
  const page = await readFile(html, 'utf8')
  t.true(page.startsWith('<!doctype html>'))
  t.true(page.includes('"signature":"listener-accumulation"'))
  t.true((await readFile(summary, 'utf8')).includes(`The HTML report is at \`${html}\``))
  t.regex(stdout, /^leakdiff 3 snapshots/)
  t.regex(stdout, /\n1 {2}listener-accumulation {3}confidence \d\.\d\d\n {3}fixtures\/soak\/leaky-server\.js:(\d+):\d+/)
  t.true(stdout.includes(`fixtures/soak/leaky-server.js:${LEAK_LINE}:`))
  t.regex(stdout, /listeners +\d+ → \d+ → \d+ +\(\+300 per step\)/)
  const lines = stderr.trimEnd().split('\n')
  t.regex(lines.at(-1) ?? '', new RegExp(`^leakdiff: leak found: listener-accumulation at fixtures/soak/leaky-server\\.js:${LEAK_LINE}:\\d+: `))
  t.deepEqual(leftovers, [])
  t.false(await answers(port))
})

test('its fixed twin under a --load command: exit 0, and --format junit is a passing, well-formed suite', async (t) => {
  const { stdout, stderr, code, leftovers } = await soak(t, (port) => [
    '--ready', `http://127.0.0.1:${port}/`, '--load', `node fixtures/soak/load.js http://127.0.0.1:${port}/items 300`,
    '--interval', '200ms', '--format', 'junit', '--', 'node', 'fixtures/soak/fixed-server.js'
  ])
  t.is(code, 0, stderr)
  const elements = readXml(stdout)
  const suite = elements.find((e) => e.name === 'testsuite')
  t.is(suite?.attributes.name, 'leakdiff soak')
  t.is(suite?.attributes.failures, '0')
  t.deepEqual(elements.filter((e) => e.name === 'testcase').map((e) => e.attributes.name), ['max-growth'])
  t.deepEqual(leftovers, [])
})

test('a service that dies under load, or cannot start: exit 2 with one line naming its last words; a bad command line (gate flags read): exit 2', async (t) => {
  const dies = 'let n = 0; require("node:http").createServer((q, s) => { if (++n === 20) { console.error("Error: lost the database"); process.exit(3) } s.end("ok") }).listen(Number(process.env.PORT), "127.0.0.1")'
  const [died, missing, noCommand, remote] = await Promise.all([
    soak(t, (port) => ['--requests', `http://127.0.0.1:${port}/`, '--count', '100', '--', 'node', '-e', dies]),
    soak(t, (port) => ['--requests', `http://127.0.0.1:${port}/`, '--', 'node', 'no-such-server.js']),
    soak(t, () => ['--requests', 'http://127.0.0.1:9/', '--allow', 'listener-accumulation']),
    soak(t, () => ['--requests', 'http://example.com/', '--', 'node', 'server.js'])
  ])
  t.is(died.code, 2)
  t.regex(died.stderr, /^leakdiff: The service exited with code 3 (during|after) (the warm-up|round 1 of the load): Error: lost the database\n$/)
  t.deepEqual(died.leftovers, [])
  // Node's own error, not the version line it ends its output with.
  t.is(missing.code, 2)
  t.regex(missing.stderr, /^leakdiff: The service exited with code 1 before it was ready: Error\b.*Cannot find module '[^']*no-such-server\.js'/)
  t.notRegex(missing.stderr, /Node\.js v\d/)
  t.is(noCommand.code, 2)
  t.regex(noCommand.stderr, /^leakdiff: Expected the service's command after --/)
  t.is(remote.code, 2)
  t.regex(remote.stderr, /^leakdiff: Expected --requests to be an http:\/\/ URL on this machine/)
})

/** @param {number} pid */
function isRunning (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('leakdiff SIGKILLed during a soak: the service, in its own process group, ends by itself', async (t) => {
  const port = await freePort()
  const temp = await mkdtemp(join(tmpdir(), 'leakdiff-soak-kill-'))
  t.teardown(() => rm(temp, { recursive: true, force: true }))
  const pidFile = join(temp, 'service.pid')
  const server = 'require("node:fs").writeFileSync(process.env.PID_FILE, String(process.pid)); require("node:http").createServer((q, s) => s.end("ok")).listen(Number(process.env.PORT), "127.0.0.1")'
  const { FORCE_COLOR, GITHUB_ACTIONS, GITHUB_STEP_SUMMARY, NODE_OPTIONS, ...env } = process.env
  // Enough load that the soak is still running when it is killed.
  const leakdiff = spawn(process.execPath, [CLI, 'soak', '--requests', `http://127.0.0.1:${port}/`, '--count', '1000000', '--', 'node', '-e', server],
    { cwd: ROOT, env: { ...env, TMPDIR: temp, PORT: String(port), PID_FILE: pidFile }, stdio: 'ignore' })
  t.teardown(() => leakdiff.kill('SIGKILL'))
  let pid = 0
  await pollUntil(async () => {
    pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'))
    return pid > 0 && await answers(port)
  }, 10_000, 50)
  if (!(pid > 0)) return t.fail('the service did not start')
  t.teardown(() => { if (isRunning(pid)) process.kill(pid, 'SIGKILL') })
  leakdiff.kill('SIGKILL')
  // It notices within a quarter of a second on an idle machine.
  await pollUntil(() => !isRunning(pid), 5000, 50)
  t.false(isRunning(pid), `service ${pid} still runs 5 s (stretched by the load) after leakdiff was killed`)
  t.false(await answers(port))
})
