// Worker entry: parses snapshot files one after the other and moves each file's columns to the
// parent as it is done (no copy), with the file's index in `paths`; the parent analyses them.
// Errors go back as plain {code, message} so that the LEAKDIFF_* code survives the thread boundary.
import { parentPort, workerData } from 'node:worker_threads'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { snapshotDataToMessage } from '../parse/transfer.js'

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
try {
  for (const [index, path] of /** @type {string[]} */ (workerData.paths).entries()) {
    const data = await parseSnapshot(path, { onProgress: (progress) => port.postMessage({ type: 'progress', index, progress }) })
    const { message, transferList } = snapshotDataToMessage(data)
    port.postMessage({ type: 'parsed', index, data: message }, transferList)
  }
} catch (error) {
  const { code, message } = /** @type {{code?: string, message?: string}} */ (error)
  port.postMessage({ type: 'error', code: typeof code === 'string' ? code : undefined, message: String(message ?? error) })
}
