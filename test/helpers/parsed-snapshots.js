// Fixture snapshots parsed and analysed once per test thread, for the unit tests that read the same
// committed file (engine/mixed-heap's, most of all): a suite thread runs a directory of test files
// (ava.config.js), and parsing a 5 MB snapshot again in each costs a tenth of a second or more of
// CPU in a thread that is not yet warm. Neither a parse nor an analysis is written to after it is
// made (the graph's columns are read-only; its indexes are built once, on first use), so the tests
// share them; a test that watches or changes an analysis makes its own.
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { HeapGraph } from '../../src/graph/heap-graph.js'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'

/** @import {HeapAnalysis} from '../../src/analysis/analyze-heap.js' */
/** @import {SnapshotData} from '../../src/parse/snapshot-data.js' */

/** @type {Map<string, Promise<SnapshotData>>} */
const parsed = new Map()
/** @type {Map<string, Promise<HeapAnalysis>>} */
const analysed = new Map()

/**
 * parseSnapshot(file), once per thread.
 * @param {string} file
 * @returns {Promise<SnapshotData>}
 */
export function parsedSnapshot (file) {
  let data = parsed.get(file)
  if (!data) {
    data = parseSnapshot(file)
    parsed.set(file, data)
  }
  return data
}

/**
 * A graph of parsedSnapshot(file): a new one per call, so that a test's indexes and lookups start
 * from nothing, over the shared columns.
 * @param {string} file
 * @returns {Promise<HeapGraph>}
 */
export async function snapshotGraph (file) {
  return new HeapGraph(await parsedSnapshot(file))
}

/**
 * analyzeHeap(parsedSnapshot(file)) with its default options, once per thread.
 * @param {string} file
 * @returns {Promise<HeapAnalysis>}
 */
export function analysedSnapshot (file) {
  let analysis = analysed.get(file)
  if (!analysis) {
    analysis = parsedSnapshot(file).then((data) => analyzeHeap(data))
    analysed.set(file, analysis)
  }
  return analysis
}
