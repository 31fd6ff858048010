// Which nodes a set of objects keeps alive on their own: the nodes whose dominator chain reaches one
// of them. Small subtrees are found from their tops, not by a pass over the heap: a node is inside
// exactly when its immediate dominator is, and every path from a subtree's top to a node below it
// passes that node's dominator (else a path from the root would avoid it), so a walk over the
// references of the nodes found so far meets each node's dominator before the node. (The walk may
// follow weak edges the dominator tree ignored: a node they reach is let in only when its dominator
// is in.) The walk costs the subtrees' edges, a few random reads each; a climb from every node up
// its dominator chain, each answer remembered (path compression, as in growth-owners.js), costs
// the heap's nodes, one read each, and on a 200 MB heap (2.9 million nodes) about a fifteenth of
// what a walk costs per node it finds. So the walk stops once it has read a sixteenth as many edges
// as the heap has nodes, and the climb answers the rest.

import { AGE_OLD } from './ages.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {RowOfOwner} from './owner-rows.js' */

const UNKNOWN = 0
const INSIDE = 1
const OUTSIDE = 2

/**
 * Marks the given nodes and every node they dominate.
 * @param {HeapAnalysis} analysis
 * @param {Iterable<number>} ordinals the subtree roots
 * @returns {Uint8Array} 1 (DOMINATED) inside a subtree, another value outside, by ordinal
 */
export function markDominatedBy (analysis, ordinals) {
  return walkSubtrees(analysis, ordinals).inside
}

/**
 * Whether a node is one of the given nodes or dominated by one, answered on demand: each answer
 * climbs the node's dominator chain to a node answered before and is remembered for every node on
 * the way. For questions asked of some nodes only, where marking every node the given ones
 * dominate could read the whole heap (a Map of 300,000 new entries: every entry a top).
 * @param {HeapAnalysis} analysis
 * @param {Iterable<number>} ordinals the subtree roots
 * @returns {(ordinal: number) => boolean}
 */
export function dominatedTest (analysis, ordinals) {
  const { dominators, graph } = analysis
  const state = new Uint8Array(graph.nodeCount)
  for (const o of ordinals) state[o] = INSIDE
  if (state[graph.rootOrdinal] === UNKNOWN) state[graph.rootOrdinal] = OUTSIDE
  // A second climb sets the answer along the chain: no list of the nodes climbed to keep.
  return (ordinal) => {
    let current = ordinal
    while (state[current] === UNKNOWN) current = dominators[current]
    const answer = state[current]
    for (let node = ordinal; state[node] === UNKNOWN; node = dominators[node]) state[node] = answer
    return answer === INSIDE
  }
}

/**
 * The given nodes and every node they dominate, marked and listed.
 * @param {HeapAnalysis} analysis
 * @param {Iterable<number>} ordinals the subtree roots
 * @returns {{inside: Uint8Array, nodes: Uint32Array}} inside: 1 (DOMINATED) by ordinal for the
 *   nodes inside, another value elsewhere; nodes: their ordinals, ascending
 */
export function dominatedNodes (analysis, ordinals) {
  const { inside, nodes } = walkSubtrees(analysis, ordinals)
  return { inside, nodes: markedInOrder(inside, nodes) }
}

/**
 * @param {HeapAnalysis} analysis
 * @param {Iterable<number>} ordinals
 * @returns {{inside: Uint8Array, nodes: number[] | null}} nodes in the order found, null when the
 *   walk gave way to the climb
 */
function walkSubtrees (analysis, ordinals) {
  const { dominators, graph } = analysis
  const { firstEdge, edgeTargets, nodeCount, rootOrdinal } = graph
  const inside = new Uint8Array(nodeCount)
  /** @type {number[]} the nodes found, and the walk's queue */
  const nodes = []
  for (const o of ordinals) {
    if (o === rootOrdinal) return everyNode(nodeCount)
    if (inside[o] === UNKNOWN) {
      inside[o] = INSIDE
      nodes.push(o)
    }
  }
  let budget = nodeCount >>> 4
  for (let i = 0; i < nodes.length; i++) {
    const o = nodes[i]
    const end = firstEdge[o + 1]
    budget -= end - firstEdge[o]
    if (budget < 0) return { inside: climb(analysis, inside), nodes: null }
    for (let e = firstEdge[o]; e < end; e++) {
      const target = edgeTargets[e]
      if (inside[target] === UNKNOWN && inside[dominators[target]] === INSIDE) {
        inside[target] = INSIDE
        nodes.push(target)
      }
    }
  }
  return { inside, nodes }
}

/**
 * Every node's answer by a climb up its dominator chain.
 * @param {HeapAnalysis} analysis
 * @param {Uint8Array} state  INSIDE for nodes known to be inside (at least the tops), UNKNOWN for the others
 * @returns {Uint8Array} state, INSIDE or OUTSIDE
 */
function climb (analysis, state) {
  const { dominators, graph } = analysis
  const n = graph.nodeCount
  if (state[graph.rootOrdinal] === UNKNOWN) state[graph.rootOrdinal] = OUTSIDE
  let stack = climbStack
  for (let o = 0; o < n; o++) {
    let top = 0
    let current = o
    while (state[current] === UNKNOWN) {
      if (top === stack.length) stack = growStack(stack)
      stack[top++] = current
      current = dominators[current]
    }
    const answer = state[current]
    while (top > 0) state[stack[--top]] = answer
  }
  return state
}

/** The climbs' stack, kept between calls: as deep as the deepest chain climbed so far. */
let climbStack = new Uint32Array(1024)

/** @param {Uint32Array} stack */
function growStack (stack) {
  climbStack = new Uint32Array(stack.length * 2)
  climbStack.set(stack)
  return climbStack
}

/**
 * The root dominates every node, those no edge reaches included (they hang under it); the list is
 * read off the marks when asked for.
 * @param {number} nodeCount
 */
function everyNode (nodeCount) {
  return { inside: new Uint8Array(nodeCount).fill(INSIDE), nodes: null }
}

/**
 * The nodes marked 1 (DOMINATED) in ordinal order: `list` sorted when it is short, else read off
 * the marks in one pass, which costs less than sorting a long list.
 * @param {Uint8Array} marks  by ordinal
 * @param {ArrayLike<number> | null} list  the marked nodes, in any order; null when not known
 * @returns {Uint32Array}
 */
export function markedInOrder (marks, list) {
  if (list !== null && list.length < marks.length >>> 4) return Uint32Array.from(list).sort()
  const sorted = new Uint32Array(list === null ? countMarked(marks) : list.length)
  let k = 0
  for (let o = 0; o < marks.length; o++) if (marks[o] === INSIDE) sorted[k++] = o
  return sorted
}

/** @param {Uint8Array} marks */
function countMarked (marks) {
  let count = 0
  for (let o = 0; o < marks.length; o++) if (marks[o] === INSIDE) count++
  return count
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
 * @param {RowOfOwner} rowOfOwner the growth row of each owner
 * @param {Uint8Array} ages AGE_* per node
 * @param {(analysis: HeapAnalysis, o: number) => boolean} test
 * @returns {(ordinal: number, row: number) => boolean}
 */
export function heldThroughNew (analysis, rowOfOwner, ages, test) {
  const { dominators, graph } = analysis
  const answers = new Uint8Array(graph.nodeCount)
  // The row + 1 each node's answer is for, 0 for none yet: a heap-sized array filled with -1
  // costs more than the climbs.
  const answeredFor = new Uint32Array(graph.nodeCount)
  /** @type {number[]} */
  const chain = []
  return (ordinal, row) => {
    let current = ordinal
    // Up to a node answered for this row, or to the owner, the root or a node passing the test.
    while (answeredFor[current] !== row + 1) {
      const up = dominators[current]
      answeredFor[current] = row + 1
      if (up === current || up === graph.rootOrdinal || rowOfOwner.rowOf(up) === row) {
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

/** The value markDominatedBy gives nodes inside a subtree. */
export const DOMINATED = INSIDE
