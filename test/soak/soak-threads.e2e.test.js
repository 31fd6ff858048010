// `runSoak` around a service with a worker thread: the worker's heap, which the main thread's
// snapshots do not hold, is diffed apart and judged by the same gates.
import test from 'ava'
import { fileURLToPath } from 'node:url'
import { runSoak } from 'leakdiff'

const APP = fileURLToPath(new URL('../../fixtures/agent/worker-app.js', import.meta.url))

test('a soak checks the heaps of the worker threads the service starts', async (t) => {
  const result = await runSoak({
    command: [process.execPath, APP],
    // The worker leaks on its own (a task every 5 ms); a round is time passing.
    load: `"${process.execPath}" -e "setTimeout(() => {}, 700)"`,
    // Three: on a busy machine the worker's agent can be ready only after the baseline, and its
    // heap is then diffed over the last two.
    series: 3,
    env: { ...process.env, LEAKDIFF_FIXTURE_WORKERS: '1' }
  })
  t.is(result.threads.length, 1)
  const [thread] = result.threads
  t.is(thread.threadId, 1)
  t.regex(/** @type {string} */ (thread.file), /worker-task\.js$/)
  t.is(thread.report.verdict, 'leak', thread.report.reason)
  t.like(thread.report.process?.thread, { id: 1 })
  t.is(thread.report.findings[0]?.signature, 'unbounded-collection')
  t.regex(/** @type {string} */ (thread.report.findings[0]?.location?.file), /worker-task\.js$/)
  t.false(thread.gates.ok)
})
