import { stat } from 'node:fs/promises'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { classRows } from '../analysis/class-summary.js'
import { retainerPath } from '../analysis/retainer-paths.js'
import { BASE_SYSTEM_DISTANCE } from '../analysis/distances.js'
import { renderFoldedPath } from './render-path.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */

/**
 * `leakdiff inspect --format json` (design.md, schemaVersion 1).
 * @typedef {object} InspectReport
 * @property {1} schemaVersion
 * @property {'inspect'} kind
 * @property {{path: string, bytes: number, nodeCount: number, edgeCount: number, totalSize: number}} snapshot
 * @property {Array<{name: string, count: number, selfSize: number, retainedSize: number}>} classes
 * @property {Array<{id: number, name: string, type: string, selfSize: number, retainedSize: number, path: Step[], pathText?: string}>} dominators
 *   path: the readable path the diff gives its rows (from the module or global that holds the
 *   object); pathText: that path as the text report prints it
 * @property {string[]} warnings
 */

/**
 * Parses and analyses one snapshot and builds the inspect report.
 * @param {SnapshotSource} source
 * @param {{top?: number, cwd?: string, onProgress?: (progress: ParseProgress) => void}} [options]
 *   top: classes and dominators to list; 0 lists every class (and 20 dominators); cwd: scripts
 *   under it are shown relative to it in `pathText`
 * @returns {Promise<InspectReport>}
 */
export async function inspectSnapshot (source, { top = 20, cwd = process.cwd(), onProgress } = {}) {
  const data = await parseSnapshot(source, { onProgress })
  // A pipe's size is not known on disk: its bytes read stand in, as a stream's do.
  const info = typeof source === 'string' ? await stat(source) : undefined
  const bytes = info?.isFile() ? info.size : data.byteLength
  return buildInspectReport(analyzeHeap(data, { rootSteps: true }), { path: data.label, bytes, top, cwd })
}

/**
 * @param {HeapAnalysis} analysis
 * @param {{path: string, bytes: number, top: number, cwd?: string}} options
 * @returns {InspectReport}
 */
export function buildInspectReport (analysis, { path, bytes, top, cwd = process.cwd() }) {
  const { graph } = analysis
  const rows = classRows(analysis.classes)
  return {
    schemaVersion: 1,
    kind: 'inspect',
    snapshot: { path, bytes, nodeCount: graph.nodeCount, edgeCount: graph.edgeCount, totalSize: analysis.totalSize },
    classes: (top === 0 ? rows : rows.slice(0, top)).map(({ name, count, selfSize, retainedSize }) => ({ name, count, selfSize, retainedSize })),
    dominators: largestDominators(analysis, top === 0 ? 20 : top).map((ordinal) => {
      // The path a person knows (module app.js → cache), as the diff's rows and findings give it.
      const steps = retainerPath(analysis, ordinal, { maxLength: 12, readable: true })
      return {
        id: graph.nodeIds[ordinal],
        name: displayName(analysis, ordinal),
        type: graph.nodeTypeName(ordinal),
        selfSize: analysis.shallowSizes.at(ordinal),
        retainedSize: analysis.retainedSizes.at(ordinal),
        path: steps,
        pathText: renderFoldedPath(steps, { cwd })
      }
    }),
    warnings: analysis.warnings
  }
}

// States of largestDominators' walk, two bits per node.
const COVERED = 1
const OPEN = 2

/**
 * The objects that retain the most, each the topmost of its kind on its branch of the dominator tree:
 * once an object is listed, what it dominates is not listed again (its retained size already holds it).
 * Only program objects count: nodes the program can reach (user distance), not engine internals,
 * code, hidden arrays or the global object itself.
 * @param {HeapAnalysis} analysis
 * @param {number} limit
 * @returns {number[]} ordinals, largest first
 */
export function largestDominators (analysis, limit) {
  const { graph, retainedSizes, distances, dominators } = analysis
  const { nodeTypes, nodeType, nodeCount, rootOrdinal } = graph
  const wanted = new Uint8Array(graph.nodeTypeNames.length)
  for (const type of [nodeType.object, nodeType.closure, nodeType.native, nodeType.string, nodeType.concatenatedString, nodeType.regexp]) {
    if (type >= 0) wanted[type] = 1
  }
  const userRoots = new Set(analysis.userRoots)
  const floor = Math.max(1024, analysis.totalSize / 10000)
  /** @type {number[]} */
  const candidates = []
  for (let o = 0; o < nodeCount; o++) {
    if (retainedSizes.at(o) >= floor && wanted[nodeTypes[o]] === 1 && distances[o] >= 0 && distances[o] < BASE_SYSTEM_DISTANCE && !userRoots.has(o)) candidates.push(o)
  }
  // Ancestors retain at least as much as their descendants, so in this order an ancestor's state is
  // final before any descendant asks for it.
  candidates.sort((a, b) => retainedSizes.at(b) - retainedSizes.at(a) || distances[a] - distances[b])
  // A picked node is COVERED: what it dominates is inside it.
  const states = new Uint8Array((nodeCount + 3) >>> 2)
  const state = (/** @type {number} */ o) => (states[o >>> 2] >>> ((o & 3) << 1)) & 3
  const setState = (/** @type {number} */ o, /** @type {number} */ value) => {
    const shift = (o & 3) << 1
    states[o >>> 2] = (states[o >>> 2] & ~(3 << shift)) | (value << shift)
  }
  const stack = []
  /** @type {number[]} */
  const picked = []
  for (const candidate of candidates) {
    // Is any dominator of the candidate picked? Walk up to the first node with a known state.
    let node = dominators[candidate]
    stack.length = 0
    while (state(node) === 0 && node !== rootOrdinal) {
      stack.push(node)
      node = dominators[node]
    }
    const covered = state(node) === COVERED
    for (const visited of stack) setState(visited, covered ? COVERED : OPEN)
    if (covered) continue
    picked.push(candidate)
    setState(candidate, COVERED)
    if (picked.length === limit) break
  }
  return picked
}

/**
 * The class name, except for functions, whose own name says more than `Function`.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 */
function displayName (analysis, ordinal) {
  const { graph } = analysis
  if (graph.nodeTypes[ordinal] === graph.nodeType.closure) return `${graph.nodeName(ordinal) || '(anonymous)'}()`
  return analysis.classes.names[analysis.classOf[ordinal]]
}
