// Diffs assertions' snapshots on a worker thread (analysis-thread.js starts it): the analysis
// allocates far more than the code under test, and none of it should stay in the heap that the
// next assertion measures.
import { parentPort } from 'node:worker_threads'
import { diffSnapshots } from '../pipeline/diff-snapshots.js'

/** @typedef {import('./analysis-thread.js').AnalysisRequest & {id: number}} Request */

parentPort?.on('message', async (/** @type {Request} */ { id, series, cwd, thresholds, sources }) => {
  try {
    const reports = []
    // One series at a time: a worker thread's heap is diffed apart from the test thread's.
    for (const files of series) reports.push(await diffSnapshots(files, { top: 0, cwd, parallel: false, ...thresholds, ...sources }))
    parentPort?.postMessage({ id, reports })
  } catch (error) {
    const { message, code, name } = /** @type {{message?: string, code?: string, name?: string}} */ (error ?? {})
    parentPort?.postMessage({ id, error: { message: String(message ?? error), code, name } })
  }
})
