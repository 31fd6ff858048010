// `npm run demo` end to end: the leaky server under load, a series by signal, the report.
import test from 'ava'
import { execFile } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'

const DEMO = fileURLToPath(new URL('../fixtures/demo/run-demo.js', import.meta.url))

test('the demo finds both leaks of the leaky server, exits 0 and leaves nothing behind', async (t) => {
  const before = new Set((await readdir(tmpdir())).filter((name) => name.startsWith('leakdiff-demo-')))
  const { FORCE_COLOR, NO_COLOR, ...inherited } = process.env
  const started = Date.now()
  const { stdout, stderr, code } = await new Promise((resolve) => {
    // The demo as a user runs it: on a busy machine the server answers fewer requests between its
    // snapshots, and each request keeps enough (a response, a copy of browser-sized headers) that a
    // few dozen a step are a leak.
    execFile(process.execPath, [DEMO], { env: { ...inherited, NO_COLOR: '1' }, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ stdout, stderr, code: error ? /** @type {{code?: unknown}} */ (error).code : 0 })
    })
  })
  t.is(code, 0, stderr)
  t.true(Date.now() - started < 60_000)
  t.regex(stdout, /^leakdiff 3 snapshots\b/)
  t.regex(stdout, /^LEAK {2}/m)
  // The two leaking owners, by the names the server gave them.
  t.regex(stdout, /\bresponseCache\b/)
  t.regex(stdout, /\bpriceFeed\b/)
  t.regex(stderr, /series complete after \d+ requests; server stopped; diffing 3 snapshots/)
  t.regex(stderr, /done: verdict leak$/m)
  const left = (await readdir(tmpdir())).filter((name) => name.startsWith('leakdiff-demo-') && !before.has(name))
  t.deepEqual(left, [])
})
