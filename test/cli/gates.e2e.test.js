// What only the CLI's own process shows of the gates: yargs reads the flags, a pass on a leak
// verdict exits 0 with its line on stderr, and bad values exit 2 before any snapshot is read. What
// the gates decide and say is checked in this process in gates.test.js.
import test from 'ava'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { leakdiff } from '../helpers/run-cli.js'

test('gate flags from the command line: a leak passed by --fail-on and --max-growth exits 0 with one line; bad values exit 2 before any snapshot is read', async (t) => {
  const { files } = await captureFixture('diff/listeners')
  const [passes, badSize, badList, emptyAllow] = await Promise.all([
    leakdiff([...files, '--fail-on', 'unbounded-collection,growing-array', '--max-growth', '5MB']),
    leakdiff([...files, '--max-growth', 'lots']),
    leakdiff(['missing-a.heapsnapshot', 'missing-b.heapsnapshot', '--fail-on', ',']),
    leakdiff(['missing-a.heapsnapshot', 'missing-b.heapsnapshot', '--allow', ' , '])
  ])
  t.is(passes.code, 0, passes.stderr)
  t.regex(passes.stdout, /^leakdiff 3 snapshots/)
  t.regex(passes.stdout, /listener-accumulation {3}confidence/)
  t.regex(passes.stderr, /^leakdiff: passed on a leak verdict: 1 finding not in fail-on \(listener-accumulation\); retained growth of leaking owners .+ within max-growth 5\.00 MB\n$/)
  for (const [run, expected] of /** @type {const} */ ([[badSize, /^leakdiff: --max-growth expects a size like 5MB/], [badList, /^leakdiff: --fail-on expects 'any' or signature ids/], [emptyAllow, /^leakdiff: --allow expects signature ids/]])) {
    t.is(run.code, 2)
    t.is(run.stdout, '')
    t.regex(run.stderr, expected)
  }
})
