// Runs in a worker thread started by compress.js: gzips workerData.source into workerData.target
// (created 0600, must not exist) and posts {ok: true} or {ok: false, message, code}.
import { createReadStream, createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { parentPort, workerData } from 'node:worker_threads'

const { source, target } = /** @type {{source: string, target: string}} */ (workerData)
pipeline(createReadStream(source), createGzip(), createWriteStream(target, { flags: 'wx', mode: 0o600 })).then(
  () => parentPort?.postMessage({ ok: true }),
  (/** @type {NodeJS.ErrnoException} */ error) => parentPort?.postMessage({ ok: false, message: error.message, code: error.code })
)
