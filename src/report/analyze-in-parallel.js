import { stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { LeakdiffError } from '../errors.js'
import { parseSnapshot } from '../parse/parse-snapshot.js'
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
 * Parses and analyses several snapshots: files in worker threads (the analyses' arrays are
 * transferred back, not copied), streams on this thread. No more workers run at once than there
 * are cores: a third analysis waiting for a core would only add its peak memory to the others'.
 * Progress sums the bytes read of all inputs.
 * @param {SnapshotSource[]} sources
 * @param {{parallel?: boolean | 'auto', onProgress?: (progress: ParseProgress) => void}} [options]
 *   parallel: false analyses the inputs one after the other on this thread; 'auto' uses workers
 *   when the files add up to 64 MiB or more
 * @returns {Promise<HeapAnalysis[]>} in the order of `sources`
 */
export async function analyzeSnapshots (sources, { parallel = 'auto', onProgress } = {}) {
  if (parallel === 'auto') parallel = (await totalFileBytes(sources)) >= PARALLEL_MIN_BYTES
  const bytesRead = sources.map(() => 0)
  const totalBytes = sources.map(() => 0)
  const progressOf = (/** @type {number} */ i) => onProgress && ((/** @type {ParseProgress} */ progress) => {
    bytesRead[i] = progress.bytesRead
    totalBytes[i] = progress.totalBytes
    onProgress({ bytesRead: sum(bytesRead), totalBytes: totalBytes.includes(0) ? 0 : sum(totalBytes) })
  })
  /** @type {HeapAnalysis[]} */
  const results = new Array(sources.length)
  if (!parallel) {
    for (const [i, source] of sources.entries()) results[i] = analyzeHeap(await parseSnapshot(source, { onProgress: progressOf(i) }))
    return results
  }
  const files = [...sources.keys()].filter((i) => typeof sources[i] === 'string')
  let next = 0
  const lane = async () => {
    while (next < files.length) {
      const i = files[next++]
      results[i] = await analyzeInWorker(/** @type {string} */ (sources[i]), progressOf(i))
    }
  }
  const lanes = Array.from({ length: Math.max(1, Math.min(files.length, availableParallelism())) }, lane)
  // Streams cannot move to another thread: they are read here while the workers run.
  for (const [i, source] of sources.entries()) {
    if (typeof source !== 'string') results[i] = analyzeHeap(await parseSnapshot(source, { onProgress: progressOf(i) }))
  }
  await Promise.all(lanes)
  return results
}

/**
 * @param {SnapshotSource[]} sources
 */
async function totalFileBytes (sources) {
  const sizes = await Promise.all(sources.map((source) => typeof source === 'string' ? stat(source).then((s) => s.size, () => 0) : 0))
  return sum(sizes)
}

/** @param {number[]} values */
function sum (values) {
  return values.reduce((a, b) => a + b, 0)
}

/**
 * @param {string} path
 * @param {((progress: ParseProgress) => void) | undefined} onProgress
 * @returns {Promise<HeapAnalysis>}
 */
function analyzeInWorker (path, onProgress) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { path } })
    let settled = false
    worker.on('message', (message) => {
      if (message.type === 'progress') {
        onProgress?.(message.progress)
        return
      }
      settled = true
      if (message.type === 'analysis') resolve(analysisFromMessage(message.analysis))
      else reject(new LeakdiffError(message.message, { code: message.code ?? 'LEAKDIFF_ERROR' }))
    })
    worker.on('error', (error) => {
      settled = true
      reject(error)
    })
    worker.on('exit', (code) => {
      if (!settled) reject(new LeakdiffError(`The analysis thread for ${path} exited with code ${code} before it finished`))
    })
  })
}
