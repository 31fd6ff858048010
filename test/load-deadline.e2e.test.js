// The time limits the tests wait with (test/helpers/load-deadline.js): they end a wait that would
// never end, and nothing sooner than the base an idle machine needs.
import test from 'ava'
import { execFileWithin, loadFactor, loadTimeout, pollUntil, scaledMs } from './helpers/load-deadline.js'

test('a limit is never shorter than its base, and stretches by the load per core', (t) => {
  t.true(loadFactor() >= 1)
  t.true(scaledMs(1000) >= 1000)
})

test('loadTimeout fires no sooner than its base, and not at all once cancelled', async (t) => {
  const started = Date.now()
  const fired = await new Promise((resolve) => loadTimeout(() => resolve(Date.now() - started), 100))
  t.true(/** @type {number} */ (fired) >= 99, String(fired))
  let late = false
  const cancel = loadTimeout(() => { late = true }, 20)
  cancel()
  await new Promise((resolve) => setTimeout(resolve, scaledMs(60)))
  t.false(late)
})

test('pollUntil answers true as soon as the check does, and false when the limit passes first', async (t) => {
  let calls = 0
  t.true(await pollUntil(() => ++calls === 3, 10_000, 1))
  t.is(calls, 3)
  const started = Date.now()
  t.false(await pollUntil(async () => false, 50, 5))
  t.true(Date.now() - started >= 49)
})

test('execFileWithin gives a program\'s output and exit code, and kills one that outlives the limit', async (t) => {
  const done = await execFileWithin(process.execPath, ['-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exitCode = 4'], {}, 30_000)
  t.deepEqual(done, { stdout: 'out', stderr: 'err', code: 4, signal: null, timedOut: false })
  const echoed = await execFileWithin(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], { stdin: 'in' }, 30_000)
  t.is(echoed.stdout, 'in')
  const hung = await execFileWithin(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {}, 200)
  t.like(hung, { code: null, signal: 'SIGKILL', timedOut: true })
})
