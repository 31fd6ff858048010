// assertNoLeak with `workers`: the heaps of worker threads, snapshotted and diffed apart from the
// test thread's own. Real snapshots of this process and of a pool's worker thread running
// fixtures/programs/threads/pool-task.js, which keeps a result per task in a Map (with `fixed`,
// the last 100 only). How the threads are found without snapshots is worker-heaps.test.js's.
import test from 'ava'
import { readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMainThread, threadId as ownThreadId, Worker } from 'node:worker_threads'
import { assertNoLeak, LeakAssertionError } from 'leakdiff'
import { tempDir } from '../helpers/temp-dir.js'

const FILE = fileURLToPath(import.meta.url)
const POOL_TASK = new URL('../../fixtures/programs/threads/pool-task.js', import.meta.url)
const POOL_TASK_FILE = relative(process.cwd(), fileURLToPath(POOL_TASK))
const lineOf = (/** @type {string} */ file, /** @type {string} */ marker) => readFileSync(file, 'utf8').split('\n').findIndex((line) => line.endsWith(marker)) + 1
const LEAK_LINE = lineOf(fileURLToPath(POOL_TASK), '// leak: task results')
const START_LINE = lineOf(FILE, '// starts: pool worker')

/**
 * A pool of one worker thread: each call sends it a task of ~1 kB and waits until it is done.
 * @param {{fixed: boolean}} options  fixed: the worker keeps the last 100 results only
 */
async function startPool ({ fixed }) {
  // pool-task.js runs the leakdiff agent in its thread, as in its fixture program: idle here.
  const worker = new Worker(POOL_TASK, { workerData: { dir: await tempDir('leakdiff-pool-agent-'), fixed } }) // starts: pool worker
  return {
    worker,
    /** @param {number} i */
    run (i) {
      return new Promise((resolve) => {
        const done = (/** @type {unknown} */ message) => {
          if (message !== 'round-done') return
          worker.off('message', done)
          resolve(undefined)
        }
        worker.on('message', done)
        worker.postMessage({ id: i, payload: `task ${i} `.repeat(100) })
        worker.postMessage('round-done')
      })
    }
  }
}

test.serial('workers: true finds the worker the code under test starts and fails on its leak, naming the thread and the line in its script, while the test thread\'s heap is clean', async (t) => {
  /** @type {Awaited<ReturnType<typeof startPool>> | undefined} */
  let pool
  t.teardown(() => pool?.worker.terminate())
  const error = await t.throwsAsync(assertNoLeak(async (i) => {
    pool ??= await startPool({ fixed: false })
    await pool.run(i)
  }, { iterations: 300, warmup: 50, workers: true }), { instanceOf: LeakAssertionError })
  const threadId = /** @type {NonNullable<typeof pool>} */ (pool).worker.threadId
  const startedAt = `${relative(process.cwd(), FILE)}:${START_LINE}:`
  const [first] = error.message.split('\n')
  t.true(first.startsWith(`assertNoLeak: thread ${threadId}, started at ${startedAt}`), first)
  t.true(first.includes(`: leak found: unbounded-collection at ${POOL_TASK_FILE}:${LEAK_LINE}:`), first)
  t.true(error.message.includes(`\n== thread ${threadId}, started at ${startedAt}`), 'the worker\'s report is headed by its thread')
  // The test's own thread: the main thread, or AVA's worker thread running this file.
  t.true(error.message.includes(`\nNo leak in ${isMainThread ? 'main thread' : `thread ${ownThreadId} `}`), error.message)

  const threads = /** @type {any[]} */ (/** @type {any} */ (error).threads)
  t.deepEqual(threads.map((thread) => thread.threadId), [ownThreadId, threadId])
  const [own, worker] = threads
  t.true(own.gates.ok, own.report.reason)
  t.is(own.report.verdict, 'clean', own.report.reason)
  t.false(worker.gates.ok)
  t.regex(worker.startedAt, new RegExp(`^${startedAt.replaceAll('.', '\\.')}\\d+$`))
  t.is(error.report, worker.report)
  const finding = worker.report.findings[0]
  t.is(finding.signature, 'unbounded-collection')
  t.like(finding.location, { file: POOL_TASK_FILE, line: LEAK_LINE })
  t.is(finding.path.at(-1).edge, 'results')
  // A task per call: 300 more entries per step, in the worker's heap only.
  t.true(finding.evidence.counts[2] - finding.evidence.counts[1] >= 300, JSON.stringify(finding.evidence.counts))
  t.deepEqual(worker.report.snapshots.map((/** @type {any} */ s) => s.path), ['after 50 calls', 'after 350 calls', 'after 650 calls'])
})

test.serial('a worker that keeps the last 100 results passes when listed (workers: [worker], a pool started before the assertion); its snapshots are kept with the test thread\'s, and a worker not listed is named in the warnings', async (t) => {
  const pool = await startPool({ fixed: true })
  /** @type {Worker | undefined} */
  let idle
  t.teardown(() => Promise.all([pool.worker.terminate(), idle?.terminate()]))
  const keep = await tempDir('leakdiff-keep-workers-')
  const report = await assertNoLeak(async (i) => {
    idle ??= new Worker('setInterval(() => {}, 1000)', { eval: true })
    await pool.run(i)
  }, { iterations: 300, warmup: 150, workers: [pool.worker], keepSnapshots: keep })
  t.is(report.verdict, 'clean', report.reason)
  const idleId = /** @type {Worker} */ (idle).threadId
  t.true(report.warnings.some((warning) => warning.startsWith(`thread ${idleId}, started at ${relative(process.cwd(), FILE)}:`) && warning.endsWith('not in `workers`')), report.warnings.join('\n'))

  // The test thread's name in each: this thread's id, then each listed worker's after the run's.
  const stem = `leakdiff-assert-${process.pid}${ownThreadId === 0 ? '' : `-t${ownThreadId}`}-`
  const files = (await readdir(keep)).filter((name) => name.endsWith('.heapsnapshot')).map((name) => name.startsWith(stem) ? name.slice(stem.length).replace(/^\d+-\d+-/, '') : name).sort()
  t.deepEqual(files, ['1of3.heapsnapshot', '2of3.heapsnapshot', '3of3.heapsnapshot', ...[1, 2, 3].map((k) => `t${pool.worker.threadId}-${k}of3.heapsnapshot`)])
  for (const name of await readdir(keep)) t.is((await stat(join(keep, name))).mode & 0o777, 0o600)
})
