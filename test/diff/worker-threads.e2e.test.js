// A main thread's series and a worker's, written on one signal, never compare object by object:
// the worker pool program run live, since its committed case keeps the worker's series only.
import test from 'ava'
import { join } from 'node:path'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'

test('the main thread\'s series of the same signal is its own heap: compared with a worker\'s by class totals only', async (t) => {
  const { files } = await captureFixture('threads/worker-pool', { live: true })
  const main = join(files[0], '..', 'main-1.heapsnapshot')
  const mixed = await sharedDiff([main, files[1]])
  t.is(mixed.comparison, 'aggregates')
  t.regex(mixed.warnings.join(' '), /threads 0 and 1/)
})
