// assertNoLeak: the three-snapshot technique around a function, in the test's own process.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeSnapshotFile } from '../agent/write-snapshot.js'
import { AllocationSampler } from '../agent/alloc-sampler.js'
import { InvalidArgumentError, LeakAssertionError, describeValue } from '../errors.js'
import { parseSize } from '../units.js'
import { evaluateGates, summarizeViolations } from '../report/gates.js'
import { renderDiffReport } from '../report/render-diff.js'
import { checkSourceOptions } from '../sources/source-roots.js'
import { escapeText } from '../report/escape/escape-text.js'
import { currentThread, describeThread } from '../agent/thread-info.js'
import { settleHeap } from './settle-heap.js'
import { WorkerHeaps, checkWorkersOption, titleOf } from './worker-heaps.js'
import { keepStringsWhole } from './whole-strings.js'
import { analyzeOnThread } from './analysis-thread.js'
/** @import {DiffReport} from '../report/report-model.js' */
/** @import {GateResult} from '../report/gates.js' */
/** @import {Worker} from 'node:worker_threads' */

/**
 * @typedef {object} AssertNoLeakOptions
 * @property {number} [iterations]  calls of `fn` between two snapshots (default 1000)
 * @property {number} [warmup]      calls before the first snapshot, so caches, JIT and lazy
 *   initialisation settle (default: `iterations`)
 * @property {number | string} [maxGrowth]  bytes, or text like '2 MB': the retained growth of
 *   leaking owners allowed (default 0: any leaking owner fails); see measureGrowth in gates.js
 * @property {string[]} [allow]     signature ids, or substrings of an owner's retainer path or class
 *   name, that do not fail the assertion
 * @property {string} [keepSnapshots]  a directory to keep the three snapshots in (created 0700),
 *   to open them in Chrome DevTools; without it they go to a private temporary directory that is
 *   removed afterwards
 * @property {number} [top]         growth and class rows kept in the report (default 10; 0: all)
 * @property {string} [sourceMaps]  a directory of source maps kept apart from the code (src/sources/)
 * @property {string[]} [sourceRoots]  `FROM=TO`: where the process's source paths are on this machine
 * @property {boolean} [allocSampling]  run V8's sampling heap profiler during the calls, so that a
 *   finding names the line that allocated the leak (`allocatedAt`; default true)
 * @property {boolean | Worker[]} [workers]  also snapshot and diff the heaps of worker threads, each
 *   apart: true for the Workers started from the start of the assertion through the warm-up (found
 *   as they are constructed), or the Worker objects to check (a pool started earlier); default false
 */

/**
 * One thread's part of an assertion: the test's own thread first, then each worker thread checked.
 * A LeakAssertionError carries them all as `threads`.
 * @typedef {object} ThreadCheck
 * @property {number} threadId
 * @property {string | null} name       a Worker's `name`, where Node tells it (Node 22 and later)
 * @property {string | null} startedAt  where `new Worker()` was called, for a Worker found as it started
 * @property {DiffReport} report
 * @property {GateResult} gates
 */

// A loop leaks less per step than a service: 1,000 calls keeping 100 B each are ~100 kB, which a
// sample every 16 KiB sees about six times.
const ASSERT_SAMPLING_INTERVAL = 16 * 1024

/** @type {Promise<unknown>} */
let queue = Promise.resolve()
let runs = 0

/**
 * Calls `fn(i)` (awaiting what it returns) `warmup` times, takes a heap snapshot, calls it
 * `iterations` more times, snapshots, and once more, then diffs the three snapshots on a worker
 * thread. Rejects with a LeakAssertionError (code LEAKDIFF_LEAK, `report` attached) whose message is
 * the text report when a leak signature matched or the retained growth of leaking owners passes
 * `maxGrowth`; resolves with the report otherwise. With `workers`, each worker thread's heap is
 * snapshotted beside it and judged the same way: a leak in any thread rejects, `report` being the
 * first failing thread's and `threads` every thread's. Assertions in one process run one at a
 * time; other code running meanwhile (concurrent tests) is measured too.
 * @param {(i: number) => unknown} fn  gets the iteration number, from 0 over all three phases
 * @param {AssertNoLeakOptions} [options]
 * @returns {Promise<DiffReport>}
 */
export function assertNoLeak (fn, options = {}) {
  const settings = checkOptions(fn, options)
  const run = queue.then(() => measure(fn, settings))
  queue = run.catch(() => {})
  return run
}

/**
 * @param {unknown} fn
 * @param {AssertNoLeakOptions} options
 */
function checkOptions (fn, { iterations = 1000, warmup = iterations, maxGrowth = 0, allow = [], keepSnapshots, top = 10, sourceMaps, sourceRoots = [], allocSampling = true, workers = false }) {
  if (typeof fn !== 'function') throw new InvalidArgumentError(`Expected \`fn\` to be a function, got ${describeValue(fn)}`)
  if (!Number.isSafeInteger(iterations) || iterations < 1) throw new InvalidArgumentError(`Expected \`iterations\` to be an integer >= 1, got ${describeValue(iterations)}`)
  if (!Number.isSafeInteger(warmup) || warmup < 0) throw new InvalidArgumentError(`Expected \`warmup\` to be an integer >= 0, got ${describeValue(warmup)}`)
  const maxBytes = parseSize(maxGrowth)
  if (maxBytes === undefined) throw new InvalidArgumentError(`Expected \`maxGrowth\` to be bytes (a number >= 0, or a size such as '2 MB' or '1MiB'), got ${describeValue(maxGrowth)}`)
  if (!Array.isArray(allow) || !allow.every((entry) => typeof entry === 'string' && entry !== '')) {
    throw new InvalidArgumentError(`Expected \`allow\` to be an array of signature ids or path substrings, got ${describeValue(allow)}`)
  }
  if (keepSnapshots !== undefined && (typeof keepSnapshots !== 'string' || keepSnapshots === '')) {
    throw new InvalidArgumentError(`Expected \`keepSnapshots\` to be a directory path, got ${describeValue(keepSnapshots)}`)
  }
  if (!Number.isSafeInteger(top) || top < 0) throw new InvalidArgumentError(`Expected \`top\` to be an integer >= 0, got ${describeValue(top)}`)
  if (typeof allocSampling !== 'boolean') throw new InvalidArgumentError(`Expected \`allocSampling\` to be a boolean, got ${describeValue(allocSampling)}`)
  const sources = checkSourceOptions({ sourceMaps, sourceRoots })
  return { iterations, warmup, maxGrowth: maxBytes, allow, keepSnapshots, top, sources, allocSampling, workers: checkWorkersOption(workers) }
}

/**
 * @param {(i: number) => unknown} fn
 * @param {ReturnType<typeof checkOptions>} settings
 * @returns {Promise<DiffReport>}
 */
async function measure (fn, { iterations, warmup, maxGrowth, allow, keepSnapshots, top, sources, allocSampling, workers }) {
  const dir = keepSnapshots ?? await mkdtemp(join(tmpdir(), 'leakdiff-assert-'))
  if (keepSnapshots) await mkdir(keepSnapshots, { recursive: true, mode: 0o700 })
  else await chmod(dir, 0o700)
  // The calling thread in the name, as the agent names a worker's files: test files that run in
  // threads of one process (AVA's workerThreads) may assert in the same millisecond.
  const thread = currentThread().id
  const stem = `leakdiff-assert-${process.pid}${thread === 0 ? '' : `-t${thread}`}-${Date.now()}-${++runs}`
  keepStringsWhole()
  /** @type {string[]} */
  const files = []
  const sampling = allocSampling ? await AllocationSampler.start({ intervalBytes: ASSERT_SAMPLING_INTERVAL, run: stem }) : null
  const sampler = sampling !== null && 'sampler' in sampling ? sampling.sampler : null
  const workerHeaps = new WorkerHeaps(workers, { cwd: process.cwd() })
  workerHeaps.listen()
  try {
    let i = 0
    for (const count of [warmup, iterations, iterations]) {
      for (const end = i + count; i < end; i++) {
        const result = fn(i)
        if (isThenable(result)) await result
      }
      await settleHeap()
      const file = await snapshotFromFreshTask(join(dir, `${stem}-${files.length + 1}of3.heapsnapshot`))
      files.push(file)
      // Beside the snapshot, by its base name: the diff finds it there.
      if (sampler) await writeFile(file.replace(/\.heapsnapshot$/, '.heapprofile'), await sampler.profileText(), { mode: 0o600 })
      await workerHeaps.snapshot(files.length, (thread) => join(dir, `${stem}-t${thread.threadId}-${files.length}of3.heapsnapshot`))
    }
    await sampler?.stop()
    workerHeaps.close()
    const workerThreads = workerHeaps.complete()
    const series = [files, ...workerThreads.map((thread) => thread.snapshots)]
    const [analysed, ...workerReports] = await analyzeOnThread({ series, cwd: process.cwd(), thresholds: thresholdsFor(iterations), sources })
    if (sampling !== null && 'reason' in sampling) analysed.warnings.push(`no allocation sampling: ${sampling.reason}`)
    analysed.warnings.push(...workerHeaps.warnings())
    /** @param {DiffReport} report */
    const shown = (report) => {
      // Unkept snapshots are deleted below: name them by when they were taken, not by a file that is gone.
      const named = keepSnapshots !== undefined
        ? report
        : { ...report, snapshots: report.snapshots.map((snapshot, k) => ({ ...snapshot, path: `after ${warmup + k * iterations} calls` })) }
      return top === 0 ? named : { ...named, growth: named.growth.slice(0, top), classes: named.classes.slice(0, top) }
    }
    /** @type {ThreadCheck[]} */
    const checks = [
      { threadId: currentThread().id, name: null, startedAt: null, report: analysed },
      ...workerThreads.map((thread, k) => ({ threadId: thread.threadId, name: thread.name, startedAt: thread.startedAt, report: workerReports[k] }))
    ].map((check) => ({ ...check, report: shown(check.report), gates: evaluateGates(check.report, { failOn: 'any', maxGrowth, allow }) }))
    if (checks.some((check) => !check.gates.ok)) throw leakError(checks, keepSnapshots)
    return checks[0].report
  } finally {
    await sampler?.stop()
    workerHeaps.close()
    if (keepSnapshots === undefined) await rm(dir, { recursive: true, force: true })
  }
}

/**
 * The error of a failed assertion: its message is the first failing thread's reason, then the
 * text report of each failing thread (headed by the thread when workers were checked). Names in
 * it come from the heap: the reason and the reports are escaped, so no control character of theirs
 * reaches a terminal or a CI log.
 * @param {ThreadCheck[]} checks  the test's own thread first
 * @param {string | undefined} keepSnapshots
 */
export function leakError (checks, keepSnapshots) {
  const titled = checks.length > 1
  const title = (/** @type {ThreadCheck} */ check, /** @type {number} */ k) => k === 0 ? describeThread(currentThread()) : titleOf(check)
  const failing = checks.flatMap((check, k) => check.gates.ok ? [] : [{ check, title: title(check, k), own: k === 0 }])
  const [first] = failing
  const where = first.own ? '' : `${first.title}: `
  const also = failing.length > 1 ? ` (also a leak in ${failing.slice(1).map((failed) => failed.title).join(', ')})` : ''
  const reason = escapeText(`${where}${summarizeViolations(first.check.gates)}${also}`)
  const reports = failing.map(({ check, title }) => {
    const text = renderDiffReport(check.report, { format: 'text', color: false, width: 100 })
    return titled ? `== ${escapeText(title)} ==\n${text}` : text
  })
  const passed = checks.flatMap((check, k) => check.gates.ok ? [title(check, k)] : [])
  const passedText = titled && passed.length > 0 ? `\nNo leak in ${escapeText(passed.join(', '))}.\n` : ''
  const kept = keepSnapshots ? `\nSnapshots kept in ${keepSnapshots}.\n` : ''
  return Object.assign(new LeakAssertionError(`assertNoLeak: ${reason}\n\n${reports.join('\n')}${passedText}${kept}`, { report: first.check.report }), { threads: checks })
}

/**
 * The diff's leak thresholds for a loop of `iterations` calls. The defaults (64 kB and 50 objects)
 * are for services under uneven load; in a loop, a leak keeps something per call, so a group that
 * gained at least one object per ten calls and 8 kB, and still grew in the last step, is one.
 * @param {number} iterations
 */
function thresholdsFor (iterations) {
  return { minObjects: Math.max(10, Math.floor(iterations / 10)), minBytes: 8 * 1024 }
}

/**
 * Writes a snapshot from its own task, so that nothing of the caller is on the stack (V8 lists
 * objects on the stack under `(Stack roots)`).
 * @param {string} path
 * @returns {Promise<string>}
 */
function snapshotFromFreshTask (path) {
  return new Promise((resolve, reject) => {
    setImmediate(() => {
      try {
        writeSnapshotFile(path)
        resolve(path)
      } catch (error) {
        reject(error)
      }
    })
  })
}

/**
 * @param {unknown} value
 * @returns {value is PromiseLike<unknown>}
 */
function isThenable (value) {
  return typeof value === 'object' && value !== null && typeof /** @type {{then?: unknown}} */ (value).then === 'function'
}
