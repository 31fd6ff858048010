// Worker entry: parses and analyses snapshot files one after the other and moves each analysis to
// the parent as it is done (no copy), with the file's index in `paths`. Errors go back as plain
// {code, message} so that the LEAKDIFF_* code survives the thread boundary.
import { parentPort, workerData } from 'node:worker_threads'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { analysisToMessage } from './analysis-transfer.js'

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
try {
  for (const [index, { path, distances, lowMemory }] of /** @type {Array<{path: string, distances: boolean, lowMemory: boolean}>} */ (workerData.files).entries()) {
    const data = await parseSnapshot(path, { onProgress: (progress) => port.postMessage({ type: 'progress', index, progress }) })
    const { message, transferList } = analysisToMessage(analyzeHeap(data, { distances, lowMemory }))
    port.postMessage({ type: 'analysis', index, analysis: message }, transferList)
  }
} catch (error) {
  const { code, message } = /** @type {{code?: string, message?: string}} */ (error)
  port.postMessage({ type: 'error', code: typeof code === 'string' ? code : undefined, message: String(message ?? error) })
}
