// A thread of the diff service (diff-service.js): diffs (or inspects) one request after the other
// and answers with the report's JSON, or with the error's message and code.
import { parentPort } from 'node:worker_threads'
import { diffSnapshots, inspectSnapshot } from 'leakdiff'

// One diff at a time: two at once would only hold both in memory.
let queue = Promise.resolve()

parentPort?.on('message', (/** @type {{n: number, kind: 'diff' | 'inspect', files: string[], options: Record<string, unknown>}} */ { n, kind, files, options }) => {
  queue = queue.then(async () => {
    try {
      const report = kind === 'inspect' ? await inspectSnapshot(files[0], options) : await diffSnapshots(files, options)
      parentPort?.postMessage({ n, json: JSON.stringify(report) })
    } catch (error) {
      const { message, code } = /** @type {{message: string, code?: string}} */ (error)
      parentPort?.postMessage({ n, error: { message, ...(typeof code === 'string' && { code }) } })
    }
  })
})
