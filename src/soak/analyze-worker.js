// Diffs an assertion's snapshots on a worker thread: the analysis allocates far more than the code
// under test, and none of it should stay in the heap that the next assertion measures.
import { parentPort, workerData } from 'node:worker_threads'
import { diffSnapshots } from '../pipeline/diff-snapshots.js'

/** @type {{series: string[][], cwd: string, thresholds: {minObjects: number, minBytes: number}, sources: {sourceMaps: string | null, sourceRoots: string[]}}} */
const { series, cwd, thresholds, sources } = workerData
try {
  const reports = []
  // One series at a time: a worker thread's heap is diffed apart from the test thread's.
  for (const files of series) reports.push(await diffSnapshots(files, { top: 0, cwd, parallel: false, ...thresholds, ...sources }))
  parentPort?.postMessage({ reports })
} catch (error) {
  const { message, code, name } = /** @type {{message?: string, code?: string, name?: string}} */ (error ?? {})
  parentPort?.postMessage({ error: { message: String(message ?? error), code, name } })
}
