// The objects that retain the most, for inspect's dominators table.

import { BASE_SYSTEM_DISTANCE, distancesOf } from './distances.js'
/** @import {HeapAnalysis} from './analyze-heap.js' */

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
  const { graph, retainedSizes, dominators } = analysis
  const distances = distancesOf(analysis)
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
