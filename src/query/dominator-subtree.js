// Which nodes a set of objects keeps alive on its own: the nodes whose dominator chain reaches one
// of them. The dominator tree is laid out once per analysis, the first time such a question is
// asked of it, in depth-first order, where each node's subtree is one run of positions (12 bytes
// per node kept, 16 more while it is laid out); the signatures ask a dozen such questions of the
// newest snapshot, each then costs the size of its subtrees instead of a pass over every node.

import { AGE_OLD } from './ages.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

const INSIDE = 1

/**
 * The dominator tree in depth-first order: node `o`'s subtree is `order[start[o]]` up to
 * `order[end[o]]` (excluded).
 * @typedef {{order: Uint32Array, start: Uint32Array, end: Uint32Array}} DominatorOrder
 */

/** @type {WeakMap<HeapAnalysis, DominatorOrder>} */
const orders = new WeakMap()

/**
 * @param {HeapAnalysis} analysis
 * @returns {DominatorOrder}
 */
function dominatorOrder (analysis) {
  let laid = orders.get(analysis)
  if (laid !== undefined) return laid
  const { dominators, graph } = analysis
  const n = graph.nodeCount
  const root = graph.rootOrdinal
  // The children of each node (CSR), then a walk down them.
  const first = new Uint32Array(n + 1)
  for (let o = 0; o < n; o++) if (o !== root) first[dominators[o] + 1]++
  for (let o = 0; o < n; o++) first[o + 1] += first[o]
  const children = new Uint32Array(first[n])
  const cursor = first.slice(0, n)
  for (let o = 0; o < n; o++) if (o !== root) children[cursor[dominators[o]]++] = o
  cursor.set(first.subarray(0, n))
  const order = new Uint32Array(n)
  const start = new Uint32Array(n)
  const end = new Uint32Array(n)
  const stack = new Uint32Array(n)
  let top = 0
  let k = 0
  stack[top++] = root
  start[root] = k
  order[k++] = root
  while (top > 0) {
    const o = stack[top - 1]
    if (cursor[o] < first[o + 1]) {
      const child = children[cursor[o]++]
      start[child] = k
      order[k++] = child
      stack[top++] = child
    } else {
      end[o] = k
      top--
    }
  }
  laid = { order, start, end }
  orders.set(analysis, laid)
  return laid
}

/**
 * The node and every node it dominates, the node first.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 * @returns {Uint32Array} a view: do not change it
 */
export function dominatedNodes (analysis, ordinal) {
  const { order, start, end } = dominatorOrder(analysis)
  return order.subarray(start[ordinal], end[ordinal])
}

/**
 * Whether `ordinal` dominates `node` (a node dominates itself).
 * @param {HeapAnalysis} analysis
 * @param {number} node
 * @param {number} ordinal
 */
export function dominates (analysis, ordinal, node) {
  const { start, end } = dominatorOrder(analysis)
  return start[node] >= start[ordinal] && start[node] < end[ordinal]
}

/**
 * Marks the given nodes and every node they dominate.
 * @param {HeapAnalysis} analysis
 * @param {Iterable<number>} ordinals the subtree roots
 * @returns {Uint8Array} DOMINATED inside a subtree, 0 elsewhere, by ordinal
 */
export function markDominatedBy (analysis, ordinals) {
  const { order, start, end } = dominatorOrder(analysis)
  const state = new Uint8Array(analysis.graph.nodeCount)
  for (const o of ordinals) {
    // A subtree marked already holds this one's.
    if (state[o] === INSIDE) continue
    for (let k = start[o], stop = end[o]; k < stop; k++) state[order[k]] = INSIDE
  }
  return state
}

/** Dominator steps climbed from a node towards its growth owner before giving up. */
const MAX_CLIMB = 256

/**
 * Whether a new node passing `test` sits strictly between `ordinal` and its growth owner in the
 * dominator tree (an owner of growth row `row`, by `rowOfOwner`): the node is then held through
 * that one, for example a socket held through a closure's captured variable. True also when the
 * owner is more than MAX_CLIMB steps up, where no judgement is safe.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 * @param {Int32Array} rowOfOwner growth row per owner ordinal, -1 for other nodes
 * @param {number} row
 * @param {Uint8Array} ages AGE_* per node
 * @param {(analysis: HeapAnalysis, o: number) => boolean} test
 */
export function heldThroughNew (analysis, ordinal, rowOfOwner, row, ages, test) {
  const { dominators, graph } = analysis
  let current = dominators[ordinal]
  for (let step = 0; step < MAX_CLIMB; step++) {
    if (rowOfOwner[current] === row || current === graph.rootOrdinal) return false
    if (ages[current] !== AGE_OLD && test(analysis, current)) return true
    current = dominators[current]
  }
  return true
}

/**
 * The growth row of every owner of the given rows (the first row listed wins), -1 elsewhere.
 * @param {number} nodeCount
 * @param {number[][]} groupOwners per row, its owners' ordinals
 * @param {number[]} rows
 */
export function rowsOfOwners (nodeCount, groupOwners, rows) {
  const rowOfOwner = new Int32Array(nodeCount).fill(-1)
  for (const g of rows) for (const o of groupOwners[g]) if (rowOfOwner[o] < 0) rowOfOwner[o] = g
  return rowOfOwner
}

/** The value markDominatedBy gives nodes inside a subtree. */
export const DOMINATED = INSIDE
