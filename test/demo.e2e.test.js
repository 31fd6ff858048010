// `npm run demo` end to end: the leaky server under load, a series by signal, the report.
import test from 'ava'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { execFileWithin, scaledMs } from './helpers/load-deadline.js'

const DEMO = fileURLToPath(new URL('../fixtures/demo/run-demo.js', import.meta.url))

test('the demo finds both leaks of the leaky server, exits 0 and leaves nothing behind', async (t) => {
  const before = new Set((await readdir(tmpdir())).filter((name) => name.startsWith('leakdiff-demo-')))
  const { FORCE_COLOR, NO_COLOR, ...inherited } = process.env
  const started = Date.now()
  // The demo as a user runs it: on a busy machine the server answers fewer requests between its
  // snapshots, and each request keeps enough (a response, a copy of browser-sized headers) that a
  // few dozen a step are a leak.
  // The demo's own deadline (2 min) stretches with the load as well, and comes before ours; so do
  // its 3 s between snapshots, of which a snapshot's pause takes more on a busy machine (in a run
  // of every test, one step of 3 s got 35 requests, short of the diff's 64 kB a step).
  const { stdout, stderr, code } = await execFileWithin(process.execPath, [DEMO, '--deadline', String(scaledMs(120_000)), '--interval', String(scaledMs(3000))], { env: { ...inherited, NO_COLOR: '1' } }, 150_000)
  t.is(code, 0, stderr)
  t.true(Date.now() - started < scaledMs(60_000))
  t.regex(stdout, /^leakdiff 3 snapshots\b/)
  // The demo's progress says how many requests each step got.
  t.regex(stdout, /^LEAK {2}/m, stderr)
  // The two leaking owners, by the names the server gave them.
  t.regex(stdout, /\bresponseCache\b/)
  t.regex(stdout, /\bpriceFeed\b/)
  t.regex(stderr, /series complete after \d+ requests \(\d+, \d+ between the snapshots\); server stopped; diffing 3 snapshots/)
  t.regex(stderr, /done: verdict leak$/m)
  const left = (await readdir(tmpdir())).filter((name) => name.startsWith('leakdiff-demo-') && !before.has(name))
  t.deepEqual(left, [])
})
