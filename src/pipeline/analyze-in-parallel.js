import { stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { LeakdiffError } from '../errors.js'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { workerExecArgv } from '../worker-exec-argv.js'
import { analysisFromMessage } from './analysis-transfer.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */

const WORKER = new URL('./analysis-worker.js', import.meta.url)
// Below this many bytes in all, one thread is faster: each worker starts cold and compiles the parser
// again. Measured on 2 cores: 3 files of 4-5 MB take 1.3-1.8 s on one thread, 2.1-2.3 s in workers;
// 3 files of 59-167 MB take 15.1 s on one thread, 13.3 s in workers (parse only in the workers).
const PARALLEL_MIN_BYTES = 64 * 1024 * 1024

/**
 * Parses and analyses several snapshots. In parallel, this thread is one lane and a worker thread
 * per other core is another: the files go to the lanes largest first, each to the lane with the
 * fewest bytes so far (the longest-first rule, so that the largest file never starts last), and a
 * worker analyses its files one after the other, warm after the first, moving each analysis to
 * this thread (transferred, not copied). Starting a worker for every file would compile the parser
 * and the analysis cold in each, and keep a core idle while this thread only waits: on 2 cores
 * three files cost the CPU of one thread plus one worker's start. No more lanes than cores: a file
 * waiting for a core would only add its peak memory to the others'. Streams cannot move to another
 * thread: they are read here. Progress sums the bytes read of all inputs.
 * @param {SnapshotSource[]} sources
 * @param {{parallel?: boolean | 'auto', onProgress?: (progress: ParseProgress) => void, prepare?: (analysis: HeapAnalysis, index: number) => void,
 *   distances?: (index: number) => boolean, lowMemory?: boolean}} [options]
 *   parallel: false analyses the inputs one after the other on this thread; 'auto' uses workers
 *   when the files add up to 64 MiB or more; prepare: runs on this thread for each analysis as it
 *   is here (one of its own once made, a worker's once it arrives), while the workers go on;
 *   distances: whether input `index` needs its distances from the roots (analyzeHeap; all do by
 *   default); lowMemory: analyzeHeap's, for every input
 * @returns {Promise<HeapAnalysis[]>} in the order of `sources`
 */
export async function analyzeSnapshots (sources, { parallel = 'auto', onProgress, prepare, distances = () => true, lowMemory = false } = {}) {
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
  const here = async (/** @type {number[]} */ indexes) => {
    for (const i of indexes) {
      results[i] = analyzeHeap(await parseSnapshot(sources[i], { onProgress: progressOf(i) }), { distances: distances(i), lowMemory })
      prepare?.(results[i], i)
    }
  }
  if (!parallel) {
    await here([...sources.keys()])
    return results
  }
  const files = [...sources.keys()].filter((i) => typeof sources[i] === 'string')
  const [own, ...workerLanes] = assignLanes(files, sizes, Math.max(1, Math.min(files.length, availableParallelism())))
  const streams = [...sources.keys()].filter((i) => typeof sources[i] !== 'string')
  const workers = workerLanes.filter((lane) => lane.length > 0).map((lane) => new LaneWorker(lane.map((i) => ({ path: /** @type {string} */ (sources[i]), distances: distances(i), lowMemory })), {
    onAnalysis: (k, analysis) => {
      results[lane[k]] = analysis
      prepare?.(analysis, lane[k])
    },
    progressOf: (k) => progressOf(lane[k])
  }))
  try {
    // The workers run while this thread analyses its own share.
    await Promise.all([here([...own, ...streams]), ...workers.map((worker) => worker.done)])
  } catch (error) {
    for (const worker of workers) worker.stop()
    throw error
  }
  return results
}

/**
 * Files to lanes, largest first, each to the lane with the fewest bytes so far; lane 0 is this
 * thread's, and it takes the largest file.
 * @param {number[]} files indexes into `sizes`
 * @param {number[]} sizes bytes per input
 * @param {number} laneCount
 * @returns {number[][]} per lane, its files in the order to analyse them
 */
export function assignLanes (files, sizes, laneCount) {
  const lanes = Array.from({ length: laneCount }, () => /** @type {number[]} */ ([]))
  const loads = lanes.map(() => 0)
  for (const i of [...files].sort((a, b) => sizes[b] - sizes[a] || a - b)) {
    const lane = loads.indexOf(Math.min(...loads))
    lanes[lane].push(i)
    loads[lane] += sizes[i]
  }
  return lanes
}

/**
 * Bytes per input: a file's size, 0 for a stream or a file that cannot be read (its parse says why).
 * @param {SnapshotSource[]} sources
 * @returns {Promise<number[]>}
 */
function fileSizes (sources) {
  return Promise.all(sources.map((source) => typeof source === 'string' ? stat(source).then((s) => s.size, () => 0) : 0))
}

/** @param {number[]} values */
function sum (values) {
  return values.reduce((a, b) => a + b, 0)
}

/** One worker thread analysing `files` one after the other. */
class LaneWorker {
  /** @type {Promise<void>} resolved once every analysis arrived; rejected with the first failure */
  done
  #worker

  /**
   * @param {Array<{path: string, distances: boolean, lowMemory: boolean}>} files  and analyzeHeap's options for each
   * @param {{onAnalysis: (k: number, analysis: HeapAnalysis) => void, progressOf: (k: number) => (((progress: ParseProgress) => void) | undefined)}} handlers
   *   onAnalysis: the analysis of files[k], as it arrives
   */
  constructor (files, { onAnalysis, progressOf }) {
    const worker = new Worker(WORKER, { workerData: { files }, execArgv: workerExecArgv() })
    this.#worker = worker
    this.done = new Promise((resolve, reject) => {
      let received = 0
      let settled = false
      worker.on('message', (message) => {
        if (message.type === 'progress') {
          progressOf(message.index)?.(message.progress)
          return
        }
        if (message.type === 'analysis') {
          try {
            onAnalysis(message.index, analysisFromMessage(message.analysis))
          } catch (error) {
            settled = true
            reject(error)
            return
          }
          if (++received < files.length) return
          settled = true
          resolve()
          return
        }
        settled = true
        reject(new LeakdiffError(message.message, { code: message.code ?? 'LEAKDIFF_ERROR' }))
      })
      worker.on('error', (error) => {
        settled = true
        reject(error)
      })
      worker.on('exit', (code) => {
        if (!settled) reject(new LeakdiffError(`The analysis thread for ${files[received].path} exited with code ${code} before it finished`))
      })
    })
  }

  /** Ends the thread: another input failed, so what it is doing is no longer needed. */
  stop () {
    this.#worker.terminate().catch(() => {})
  }
}
