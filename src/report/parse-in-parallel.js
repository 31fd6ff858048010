import { stat } from 'node:fs/promises'
import { Worker } from 'node:worker_threads'
import { LeakdiffError } from '../errors.js'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { snapshotDataFromMessage } from '../parse/transfer.js'
/** @import {SnapshotData} from '../parse/snapshot-data.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */

const WORKER = new URL('./parse-worker.js', import.meta.url)
// Below this many bytes in all, one thread is faster: each worker starts cold and compiles the parser
// again. Measured on 2 cores: 3 files of 4-5 MB take 1.3-1.8 s on one thread, 2.1-2.3 s in workers;
// 3 files of 59-167 MB take 15.1 s on one thread, 13.3 s in workers.
const PARALLEL_MIN_BYTES = 64 * 1024 * 1024

/**
 * Parses several snapshots at once: files in worker threads (one each; the columns are transferred
 * back, not copied), streams on this thread. Progress sums the bytes of all inputs.
 * @param {SnapshotSource[]} sources
 * @param {{parallel?: boolean | 'auto', onProgress?: (progress: ParseProgress) => void}} [options]
 *   parallel: false parses the inputs one after the other on this thread; 'auto' uses workers
 *   when the files add up to 64 MiB or more
 * @returns {Promise<SnapshotData[]>} in the order of `sources`
 */
export async function parseSnapshots (sources, { parallel = 'auto', onProgress } = {}) {
  if (parallel === 'auto') parallel = (await totalFileBytes(sources)) >= PARALLEL_MIN_BYTES
  const bytesRead = sources.map(() => 0)
  const totalBytes = sources.map(() => 0)
  const progressOf = (/** @type {number} */ i) => onProgress && ((/** @type {ParseProgress} */ progress) => {
    bytesRead[i] = progress.bytesRead
    totalBytes[i] = progress.totalBytes
    onProgress({ bytesRead: sum(bytesRead), totalBytes: totalBytes.includes(0) ? 0 : sum(totalBytes) })
  })
  if (!parallel) {
    const results = []
    for (const [i, source] of sources.entries()) results.push(await parseSnapshot(source, { onProgress: progressOf(i) }))
    return results
  }
  return Promise.all(sources.map((source, i) => typeof source === 'string'
    ? parseInWorker(source, progressOf(i))
    : parseSnapshot(source, { onProgress: progressOf(i) })))
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
 * @returns {Promise<SnapshotData>}
 */
function parseInWorker (path, onProgress) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { path } })
    let settled = false
    worker.on('message', (message) => {
      if (message.type === 'progress') {
        onProgress?.(message.progress)
        return
      }
      settled = true
      if (message.type === 'data') resolve(snapshotDataFromMessage(message.data))
      else reject(new LeakdiffError(message.message, { code: message.code ?? 'LEAKDIFF_ERROR' }))
    })
    worker.on('error', (error) => {
      settled = true
      reject(error)
    })
    worker.on('exit', (code) => {
      if (!settled) reject(new LeakdiffError(`The parser thread for ${path} exited with code ${code} before it finished`))
    })
  })
}
