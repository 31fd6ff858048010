// Worker entry: parses and analyses one snapshot file and moves the analysis to the parent (no
// copy). Errors go back as plain {code, message} so that the LEAKDIFF_* code survives the thread
// boundary.
import { parentPort, workerData } from 'node:worker_threads'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { analysisToMessage } from './analysis-transfer.js'

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
try {
  const data = await parseSnapshot(workerData.path, { onProgress: (progress) => port.postMessage({ type: 'progress', progress }) })
  const { message, transferList } = analysisToMessage(analyzeHeap(data))
  port.postMessage({ type: 'analysis', analysis: message }, transferList)
} catch (error) {
  const { code, message } = /** @type {{code?: string, message?: string}} */ (error)
  port.postMessage({ type: 'error', code: typeof code === 'string' ? code : undefined, message: String(message ?? error) })
}
