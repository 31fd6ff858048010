// Which nodes a set of objects keeps alive on its own: the nodes whose dominator chain reaches one
// of them. One pass over the dominator tree with path compression (as in growth-owners.js): each
// node's answer is found once, iteratively, on a preallocated stack.

import { AGE_OLD } from './ages.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

const UNKNOWN = 0
const INSIDE = 1
const OUTSIDE = 2

/**
 * Marks the given nodes and every node they dominate.
 * @param {HeapAnalysis} analysis
 * @param {Iterable<number>} ordinals the subtree roots
 * @returns {Uint8Array} 1 inside a subtree, 2 outside, by ordinal
 */
export function markDominatedBy (analysis, ordinals) {
  const { dominators, graph } = analysis
  const n = graph.nodeCount
  const state = new Uint8Array(n)
  for (const o of ordinals) state[o] = INSIDE
  if (state[graph.rootOrdinal] === UNKNOWN) state[graph.rootOrdinal] = OUTSIDE
  const stack = new Uint32Array(n)
  for (let o = 0; o < n; o++) {
    let top = 0
    let current = o
    while (state[current] === UNKNOWN) {
      stack[top++] = current
      current = dominators[current]
    }
    const answer = state[current]
    while (top > 0) state[stack[--top]] = answer
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
