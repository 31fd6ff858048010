// The CLI's own process on snapshots of two processes: the class totals on stdout, the reason on
// stderr in one line, exit 2. What the diff makes of sidecars: sidecars.test.js.
import test from 'ava'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { leakdiff } from '../helpers/run-cli.js'
import { copySeries } from '../helpers/sidecar-series.js'

test('the CLI prints the class totals of two processes, then fails with exit 2 and the reason on one line', async (t) => {
  const { files } = await captureFixture('diff/agent-series')
  const copies = await copySeries(files.slice(0, 2), (meta, i) => ({ ...meta, pid: meta.pid + i }))
  const { stdout, stderr, code } = await leakdiff(copies)
  t.is(code, 2)
  t.regex(stdout, /^INCONCLUSIVE {2}the snapshots come from different processes/m)
  t.regex(stderr, /^leakdiff: the snapshots' sidecars name different processes \(pids \d+ and \d+\), so only class totals are compared\n$/)
})
