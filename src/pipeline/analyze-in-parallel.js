import { stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { NodeScratch } from '../analysis/node-scratch.js'
import { LeakdiffError } from '../errors.js'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { readSnapshotCounts } from '../parse/read-header.js'
import { snapshotDataFromMessage } from '../parse/transfer.js'
import { workerExecArgv } from '../worker-exec-argv.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */
/** @import {SnapshotData} from '../parse/snapshot-data.js' */

const WORKER = new URL('./parse-worker.js', import.meta.url)
// Below this many bytes in all, one thread is faster: each worker starts cold and compiles the parser
// again. Measured on 2 cores: 3 files of 4-5 MB take 1.3-1.8 s on one thread, 2.1-2.3 s in workers;
// 3 files of 59-167 MB take 15.1 s on one thread, 13.3 s in workers (parse only in the workers).
const PARALLEL_MIN_BYTES = 64 * 1024 * 1024

/**
 * Parses and analyses several snapshots. In parallel, this thread analyses every input, one after
 * the other, and worker threads (one per other core) parse the files it has not reached yet and
 * move the parsed columns here (transferred, not copied): this thread parses the smallest file
 * itself and analyses it while the workers parse the others, smallest first, so each is parsed by
 * the time it is wanted. Two analyses side by side cost more CPU than one after the other: the
 * dominators and sizes read the edge columns at random, and two of them on two cores fight over
 * the memory (the 200 MB series: 9.7–10.5 s of CPU with the analyses in two threads, 9.2–9.6 s this
 * way, 8.4–9.9 s on one thread; wall 6.0–6.3, 6.5–6.8 and 7.8–9.8 s). A parse reads its file in
 * order, and beside one analysis costs what it costs alone. Streams cannot move to another
 * thread: they are read here. Progress sums the bytes read of all inputs.
 * @param {SnapshotSource[]} sources
 * @param {{parallel?: boolean | 'auto', onProgress?: (progress: ParseProgress) => void, prepare?: (analysis: HeapAnalysis, index: number) => void,
 *   paths?: (index: number) => boolean, lowMemory?: boolean}} [options]
 *   parallel: false parses and analyses the inputs one after the other on this thread; 'auto' uses
 *   workers when the files add up to 64 MiB or more; prepare: runs on this thread for each
 *   analysis as it is made; paths: whether input `index` shows paths, and so needs its distances
 *   from the roots and its root steps (analyzeHeap's `distances` and `rootSteps`, the steps in
 *   memory the analysis is done with; all do by default); lowMemory: analyzeHeap's, for every input
 * @returns {Promise<HeapAnalysis[]>} in the order of `sources`
 */
export async function analyzeSnapshots (sources, { parallel = 'auto', onProgress, prepare, paths = () => true, lowMemory = false } = {}) {
  const sizes = await fileSizes(sources)
  if (parallel === 'auto') parallel = sum(sizes) >= PARALLEL_MIN_BYTES
  const bytesRead = sources.map(() => 0)
  const totalBytes = sources.map(() => 0)
  const progressOf = (/** @type {number} */ i) => onProgress && ((/** @type {ParseProgress} */ progress) => {
    bytesRead[i] = progress.bytesRead
    totalBytes[i] = progress.totalBytes
    onProgress({ bytesRead: sum(bytesRead), totalBytes: totalBytes.includes(0) ? 0 : sum(totalBytes) })
  })
  /** @type {HeapAnalysis[]} */
  const results = new Array(sources.length)
  // The analyses take their scratch arrays in turn, made for the largest file. On one thread the
  // allocator hands a later parse or analysis what an earlier one freed; with workers parsing
  // ahead, their columns take that memory first.
  const scratch = parallel ? new NodeScratch(await largestNodeCount(sources)) : undefined
  const analyze = (/** @type {SnapshotData} */ data, /** @type {number} */ i) => {
    results[i] = analyzeHeap(data, { distances: paths(i), rootSteps: paths(i), lowMemory, scratch })
    prepare?.(results[i], i)
  }
  const files = [...sources.keys()].filter((i) => typeof sources[i] === 'string')
  const streams = [...sources.keys()].filter((i) => typeof sources[i] !== 'string')
  const { own, lanes, order } = parseLanes(files, sizes, parallel ? Math.min(files.length - 1, availableParallelism() - 1) : 0)
  /** @type {Map<number, Promise<SnapshotData>>} */
  const parsed = new Map()
  const workers = lanes.map((lane) => new ParseWorker(lane.map((i) => /** @type {string} */ (sources[i])), (k) => progressOf(lane[k])))
  for (const [w, lane] of lanes.entries()) for (const [k, i] of lane.entries()) parsed.set(i, workers[w].parsed[k])
  try {
    for (const i of [...own, ...streams]) analyze(await parseSnapshot(sources[i], { onProgress: progressOf(i) }), i)
    for (const i of order) if (parsed.has(i)) analyze(await /** @type {Promise<SnapshotData>} */ (parsed.get(i)), i)
  } catch (error) {
    for (const worker of workers) worker.stop()
    throw error
  }
  return results
}

/**
 * Which files this thread parses and which each worker parses: this thread the smallest (all of
 * them without workers), the workers the others round the lanes, smallest first, so that the file
 * this thread analyses next is the one parsed first.
 * @param {number[]} files  indexes into `sizes`
 * @param {number[]} sizes  bytes per input
 * @param {number} workerCount
 * @returns {{own: number[], lanes: number[][], order: number[]}} own and each lane in the order to
 *   parse them; order: every file, smallest first, the order this thread analyses them in
 */
export function parseLanes (files, sizes, workerCount) {
  const bySize = [...files].sort((a, b) => sizes[a] - sizes[b] || a - b)
  const count = Math.max(0, Math.min(workerCount, bySize.length - 1))
  if (count === 0) return { own: bySize, lanes: [], order: bySize }
  const lanes = Array.from({ length: count }, () => /** @type {number[]} */ ([]))
  bySize.slice(1).forEach((i, k) => lanes[k % count].push(i))
  return { own: bySize.slice(0, 1), lanes, order: bySize }
}

/**
 * Bytes per input: a file's size, 0 for a stream or a file that cannot be read (its parse says why).
 * @param {SnapshotSource[]} sources
 * @returns {Promise<number[]>}
 */
function fileSizes (sources) {
  return Promise.all(sources.map((source) => typeof source === 'string' ? stat(source).then((s) => s.size, () => 0) : 0))
}

/**
 * The largest node count the files' headers give, 0 for none (streams, unreadable files).
 * @param {SnapshotSource[]} sources
 */
async function largestNodeCount (sources) {
  const counts = await Promise.all(sources.map((source) => typeof source === 'string' ? readSnapshotCounts(source) : undefined))
  return Math.max(0, ...counts.map((found) => found?.nodeCount ?? 0))
}

/** @param {number[]} values */
function sum (values) {
  return values.reduce((a, b) => a + b, 0)
}

/** One worker thread parsing `paths` one after the other. */
class ParseWorker {
  /** @type {Array<Promise<SnapshotData>>} per path, its parsed data as it arrives; a failure rejects it and every later one */
  parsed
  #worker

  /**
   * @param {string[]} paths
   * @param {(k: number) => (((progress: ParseProgress) => void) | undefined)} progressOf  progress of paths[k]
   */
  constructor (paths, progressOf) {
    const worker = new Worker(WORKER, { workerData: { paths }, execArgv: workerExecArgv() })
    this.#worker = worker
    /** @type {Array<{resolve: (data: SnapshotData) => void, reject: (error: Error) => void}>} */
    const settle = []
    this.parsed = paths.map(() => new Promise((resolve, reject) => { settle.push({ resolve, reject }) }))
    // A failure is seen when this thread waits for the file, or not at all (another input failed first).
    for (const promise of this.parsed) promise.catch(() => {})
    let received = 0
    const fail = (/** @type {Error} */ error) => {
      for (const { reject } of settle.slice(received)) reject(error)
      received = paths.length
    }
    worker.on('message', (message) => {
      if (message.type === 'progress') {
        progressOf(message.index)?.(message.progress)
      } else if (message.type === 'parsed') {
        settle[message.index].resolve(snapshotDataFromMessage(message.data))
        received = message.index + 1
      } else {
        fail(new LeakdiffError(message.message, { code: message.code ?? 'LEAKDIFF_ERROR' }))
      }
    })
    worker.on('error', fail)
    worker.on('exit', (code) => {
      if (received < paths.length) fail(new LeakdiffError(`The parsing thread for ${paths[received]} exited with code ${code} before it finished`))
    })
  }

  /** Ends the thread: another input failed, so what it is doing is no longer needed. */
  stop () {
    this.#worker.terminate().catch(() => {})
  }
}
