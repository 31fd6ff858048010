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

/** A node's answer in heldThroughNew, for the row it was asked for (UNKNOWN while it climbs). */
const HELD = 1
const FREE = 2

/**
 * A test of whether a new node passing `test` sits strictly between a node and its growth owner in
 * the dominator tree (an owner of growth row `row`, by `rowOfOwner`): the node is then held through
 * that one, for example a socket held through a closure's captured variable. Each node's answer
 * is remembered for the row it was asked for, so the climbs of all the nodes of a row take one
 * step per node in all, however deep the tree: a queue kept as a linked list puts each entry one
 * step below the one before it, thousands of steps below the owner.
 * @param {HeapAnalysis} analysis
 * @param {Int32Array} rowOfOwner growth row per owner ordinal, -1 for other nodes
 * @param {Uint8Array} ages AGE_* per node
 * @param {(analysis: HeapAnalysis, o: number) => boolean} test
 * @returns {(ordinal: number, row: number) => boolean}
 */
export function heldThroughNew (analysis, rowOfOwner, ages, test) {
  const { dominators, graph } = analysis
  const answers = new Uint8Array(graph.nodeCount)
  const answeredFor = new Int32Array(graph.nodeCount).fill(-1)
  /** @type {number[]} */
  const chain = []
  return (ordinal, row) => {
    let current = ordinal
    // Up to a node answered for this row, or to the owner, the root or a node passing the test.
    while (answeredFor[current] !== row) {
      const up = dominators[current]
      answeredFor[current] = row
      if (up === current || up === graph.rootOrdinal || rowOfOwner[up] === row) {
        answers[current] = FREE
        break
      }
      if (ages[up] !== AGE_OLD && test(analysis, up)) {
        answers[current] = HELD
        break
      }
      answers[current] = UNKNOWN
      chain.push(current)
      current = up
    }
    // Below it, each node's answer is its dominator's.
    while (chain.length > 0) {
      const node = /** @type {number} */ (chain.pop())
      answers[node] = answers[dominators[node]]
    }
    return answers[ordinal] === HELD
  }
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
