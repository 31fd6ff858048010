// Immediate dominators over the essential edges (essential-edges.js), from the snapshot's root.
//
// Algorithm: the iterative one of Keith D. Cooper, Timothy J. Harvey and Ken Kennedy. 2001. A Simple,
// Fast Dominance Algorithm (Rice University, TR-06-33870): nodes are numbered in DFS postorder, each
// dominator is stored as the number of its node, and passes in reverse postorder move each node's
// dominator up to the nearest common ancestor of its predecessors until nothing moves. Chrome
// DevTools runs Lengauer–Tarjan; dominators are unique, so the result is DevTools' whatever the
// algorithm. The common ancestors are found by climbing the tree a level at a time, which on some
// shapes (a long chain whose every link holds one shared node) costs the square of the chain's
// length; and a dominator that moves can reach the nodes it dominates only in the next pass, so
// some heaps take a pass per link of a chain of such moves (hundreds, each a walk over every node,
// where real heaps mostly settle in three to five). Past a bound on the climbing, or on the passes,
// Lengauer–Tarjan takes over (lengauer-tarjan.js), at about twice the memory. Two changes make the
// iterative algorithm fit a heap snapshot:
//   - Forward edges only. A pass takes each node and offers it to the targets of its edges
//     ("push") instead of gathering each node's retainers, so no retainer index is built: three
//     arrays of one entry per node are all the memory it needs (Lengauer-Tarjan needs five, and
//     the predecessors). Each offer lowers the target's dominator set by one predecessor's, the
//     order of offers does not change the fixed point, and every value only ever moves up the tree.
//   - Only what changed is offered again. An offer from p can change something only when p's own
//     dominator, or one above it, moved since p last offered. A bit per node says so, so passes
//     after the first touch a few thousand nodes instead of every edge.
// DevTools' handling of nodes the DFS from the root misses is kept:
//   - a node whose retainers are all non-essential ("only weak retainers") starts an extra DFS hung
//     under the root, and counts as having the root as its only predecessor;
//   - any node still unvisited after that (e.g. a cycle held only weakly) gets the root as its
//     dominator, and its own edges take no part.
// Which of them nothing in the snapshot holds at all is found out here too (unheld-nodes.js).

import { InvalidArgumentError } from '../errors.js'
import { markEssentialTargets } from './essential-edges.js'
import { lengauerTarjan } from './lengauer-tarjan.js'
import { findUnheldNodes } from './unheld-nodes.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {UnheldNodes} from './unheld-nodes.js' */

const UNSEEN = 0xffffffff
const ON_STACK = 0xfffffffe
const MAX_NODES = 0x7fffffff
const CLIMBS_PER_EDGE = 8
// The first pass's check of its climbs against what it has offered: every this many nodes, with
// this many steps of room (a heap's first nodes, near the root, may climb more for a while).
const EARLY_CHECK = 1 << 12
const EARLY_SLACK = 1 << 18
// Passes that still move a dominator. On the committed fixture heaps, those that settle within 7
// passes take about Lengauer–Tarjan's time or less; those that take 30 to 450 take 2 to 13 times it.
const MAX_MOVING_PASSES = 7

/**
 * @typedef {object} DominatorResult
 * @property {Uint32Array} dominators  immediate dominator ordinal per ordinal (the root's is itself)
 * @property {UnheldNodes | null} unheld nodes the root does not reach even through weak edges;
 *                                     null when the DFS from the root reached every node
 * @property {'iterative' | 'lengauer-tarjan'} algorithm  the one that found them
 */

/**
 * Immediate dominators.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential one bit per edge (buildEssentialEdges)
 * @param {{storage?: Uint32Array[], scratch?: Uint8Array, workLimit?: number, passLimit?: number}} [options] up
 *   to three arrays of at least nodeCount entries the caller lends instead of new ones (the first
 *   becomes `dominators`, the other two are free again afterwards); bytes for two bits per node,
 *   when long enough; how many steps up the tree the passes may take before Lengauer–Tarjan takes
 *   over (tests set 0 to run it), and how many passes may move a dominator
 * @returns {DominatorResult}
 */
export function buildDominators (graph, essential, { storage = [], scratch, workLimit, passLimit = MAX_MOVING_PASSES } = {}) {
  const { nodeCount, firstEdge, edgeTargets, rootOrdinal } = graph
  // Below 2^31: the walk of the tree (retained-sizes.js) uses the top bit.
  if (nodeCount >= MAX_NODES) {
    throw new InvalidArgumentError(`Expected fewer than ${MAX_NODES} nodes for the dominator tree, got ${nodeCount}`)
  }
  const lend = (/** @type {number} */ k) => {
    const array = storage[k]
    return array && array.length >= nodeCount ? array.subarray(0, nodeCount) : new Uint32Array(nodeCount)
  }
  // Node ordinal -> postorder number; at the end, the dominators by ordinal.
  const post = lend(0).fill(UNSEEN)
  // Postorder number -> ordinal, filled from the front as nodes finish. The DFS stack grows down
  // from the end of the same array (a node on the stack has not finished, so the two never meet),
  // with each stacked node's next edge at the same position of `dom`.
  const nodeAt = lend(1)
  // Postorder number -> its dominator's postorder number.
  const dom = lend(2)
  let finished = 0

  // The root stays open while its edges' subtrees, then the extra starts, are searched, so that it
  // finishes last.
  post[rootOrdinal] = ON_STACK
  for (let e = firstEdge[rootOrdinal], end = firstEdge[rootOrdinal + 1]; e < end; e++) {
    if (((essential[e >>> 3] >>> (e & 7)) & 1) !== 0 && post[edgeTargets[e]] === UNSEEN) {
      finished = depthFirst(edgeTargets[e], graph, essential, post, nodeAt, dom, finished)
    }
  }

  /** @type {UnheldNodes | null} */
  let unheld = null
  // Nodes hung under the root: extra starts, and the rest (which never offer themselves).
  /** @type {Uint8Array | null} */
  let extraStarts = null
  /** @type {Uint8Array | null} */
  let leftovers = null
  if (finished < nodeCount - 1) {
    unheld = findUnheldNodes(graph, post, UNSEEN, dom)
    const retained = markEssentialTargets(graph, essential)
    extraStarts = new Uint8Array((nodeCount + 7) >>> 3)
    finished = searchExtraStarts(graph, essential, retained, extraStarts, post, nodeAt, dom, finished)
    const rest = numberLeftovers(post, nodeAt, finished)
    finished = rest.finished
    leftovers = rest.leftovers
  }
  const rootNumber = finished
  post[rootOrdinal] = rootNumber
  nodeAt[finished++] = rootOrdinal

  dom.fill(UNSEEN)
  dom[rootNumber] = rootNumber
  // Only leftovers point to either kind, and they never offer, so these stay.
  if (extraStarts) hangUnderRoot(extraStarts, leftovers, post, dom, rootNumber)
  // `moved`: the node's dominator changed since it last offered itself. `stale`: it or a node above
  // it moved, so this pass must offer it again (its dominator comes earlier in the pass).
  const bitBytes = (nodeCount + 7) >>> 3
  const bits = scratch && scratch.length >= 2 * bitBytes ? scratch : new Uint8Array(2 * bitBytes)
  const moved = bits.subarray(0, bitBytes).fill(0xff)
  const stale = bits.subarray(bitBytes, 2 * bitBytes).fill(0)
  // The climbs to common ancestors cost about 2.5 steps per edge on real heaps, but their sum can
  // grow with the square of a chain's length (lengauer-tarjan.js): past a bound, that algorithm
  // takes over.
  const byLengauerTarjan = () => ({ dominators: lengauerTarjan(graph, essential, [post, nodeAt, dom]), unheld, algorithm: /** @type {const} */ ('lengauer-tarjan') })
  let budget = workLimit ?? CLIMBS_PER_EDGE * (graph.edgeCount + nodeCount)
  if (budget <= 0) return byLengauerTarjan()
  // The first pass gives up as soon as it has climbed past the bound for the part of the heap it
  // has offered so far: a heap that climbs the square of a chain does so from its start, and the
  // rest of the pass would be spent for nothing (not with a bound given, nor with the passes
  // unbounded, as lowMemory runs them).
  const early = workLimit === undefined && Number.isFinite(passLimit)
  for (let moving = 0; ; moving++) {
    const pass = offerAll(graph, essential, post, nodeAt, dom, moved, stale, leftovers, rootNumber, budget, moving === 0 && early)
    if (pass.steps > budget) return byLengauerTarjan()
    budget -= pass.steps
    if (!pass.changed) break
    if (moving + 1 >= passLimit) return byLengauerTarjan()
  }

  toOrdinals(post, nodeAt, dom)
  return { dominators: post, unheld, algorithm: 'iterative' }
}

// The loops below are functions of their own: V8 compiles a long-running loop while it runs
// (on-stack replacement) together with the rest of its function, whose code has not run yet and
// so is compiled to bail out; one loop per function means one compilation per loop, not one more
// after each loop.

/**
 * Iterative DFS over essential edges from `start`, numbering nodes in postorder.
 * @param {number} start
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 * @param {Uint32Array} post ordinal -> postorder number, UNSEEN or ON_STACK
 * @param {Uint32Array} nodeAt postorder number -> ordinal; the stack grows down from its end
 * @param {Uint32Array} dom the stacked nodes' next edges, at their stack positions
 * @param {number} finished nodes numbered so far
 * @returns {number} nodes numbered after the search
 */
function depthFirst (start, graph, essential, post, nodeAt, dom, finished) {
  const { nodeCount, firstEdge, edgeTargets } = graph
  let top = nodeCount - 1
  nodeAt[top] = start
  dom[top] = firstEdge[start]
  post[start] = ON_STACK
  while (top < nodeCount) {
    const v = nodeAt[top]
    let e = dom[top]
    const end = firstEdge[v + 1]
    let w = 0
    for (; e < end; e++) {
      if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
      w = edgeTargets[e]
      if (post[w] === UNSEEN) break
    }
    if (e < end) {
      dom[top] = e + 1
      top--
      nodeAt[top] = w
      dom[top] = firstEdge[w]
      post[w] = ON_STACK
    } else {
      top++
      post[v] = finished
      nodeAt[finished++] = v
    }
  }
  return finished
}

/**
 * DevTools' extra starts: unvisited nodes no essential edge points to, each searched from.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 * @param {Uint8Array} retained a bit per node (markEssentialTargets)
 * @param {Uint8Array} extraStarts a bit per node, all clear: set for each start
 * @param {Uint32Array} post
 * @param {Uint32Array} nodeAt
 * @param {Uint32Array} dom
 * @param {number} finished
 * @returns {number} nodes numbered after the searches
 */
function searchExtraStarts (graph, essential, retained, extraStarts, post, nodeAt, dom, finished) {
  for (let v = 0; v < graph.nodeCount; v++) {
    if (post[v] !== UNSEEN || ((retained[v >>> 3] >>> (v & 7)) & 1) !== 0) continue
    extraStarts[v >>> 3] |= 1 << (v & 7)
    finished = depthFirst(v, graph, essential, post, nodeAt, dom, finished)
  }
  return finished
}

/**
 * Numbers the nodes still unvisited, and marks them.
 * @param {Uint32Array} post
 * @param {Uint32Array} nodeAt
 * @param {number} finished
 * @returns {{finished: number, leftovers: Uint8Array | null}} a bit per node marks them, if any
 */
function numberLeftovers (post, nodeAt, finished) {
  /** @type {Uint8Array | null} */
  let leftovers = null
  for (let v = 0; v < post.length; v++) {
    if (post[v] !== UNSEEN) continue
    leftovers ??= new Uint8Array((post.length + 7) >>> 3)
    leftovers[v >>> 3] |= 1 << (v & 7)
    post[v] = finished
    nodeAt[finished++] = v
  }
  return { finished, leftovers }
}

/**
 * @param {Uint8Array} extraStarts
 * @param {Uint8Array | null} leftovers
 * @param {Uint32Array} post
 * @param {Uint32Array} dom
 * @param {number} rootNumber
 */
function hangUnderRoot (extraStarts, leftovers, post, dom, rootNumber) {
  for (let v = 0; v < post.length; v++) {
    const bit = 1 << (v & 7)
    if (((extraStarts[v >>> 3] | (leftovers === null ? 0 : leftovers[v >>> 3])) & bit) !== 0) dom[post[v]] = rootNumber
  }
}

/**
 * One pass in reverse postorder: each node that must offers itself to its edges' targets.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 * @param {Uint32Array} post
 * @param {Uint32Array} nodeAt
 * @param {Uint32Array} dom
 * @param {Uint8Array} moved
 * @param {Uint8Array} stale
 * @param {Uint8Array | null} leftovers
 * @param {number} rootNumber
 * @param {number} budget steps up the tree this pass may take; it stops when past them
 * @param {boolean} early  also stop (steps Infinity) once past the bound for what it has offered so
 *   far, checked every EARLY_CHECK nodes
 * @returns {{changed: boolean, steps: number}} whether any dominator changed, and the steps taken
 */
function offerAll (graph, essential, post, nodeAt, dom, moved, stale, leftovers, rootNumber, budget, early) {
  const { firstEdge, edgeTargets } = graph
  let changed = false
  let steps = 0
  let offered = 0
  for (let i = rootNumber; i >= 0; i--) {
    const up = dom[i]
    const bit = 1 << (i & 7)
    if (((moved[i >>> 3] & bit) | (i === rootNumber ? 0 : ((stale[up >>> 3] >>> (up & 7)) & 1))) === 0) {
      stale[i >>> 3] &= ~bit
      continue
    }
    stale[i >>> 3] |= bit
    moved[i >>> 3] &= ~bit
    const p = nodeAt[i]
    if (leftovers !== null && ((leftovers[p >>> 3] >>> (p & 7)) & 1) !== 0) continue
    if (early && (i & (EARLY_CHECK - 1)) === 0) {
      if (steps > CLIMBS_PER_EDGE * (offered + rootNumber - i) + EARLY_SLACK) return { changed, steps: Infinity }
    }
    offered += firstEdge[p + 1] - firstEdge[p]
    for (let e = firstEdge[p], end = firstEdge[p + 1]; e < end; e++) {
      if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
      const j = post[edgeTargets[e]]
      if (j === rootNumber) continue
      const current = dom[j]
      if (current === UNSEEN) {
        dom[j] = i
        continue
      }
      // Nearest common ancestor: dominators have higher numbers than the nodes they dominate.
      let a = i
      let b = current
      while (a !== b) {
        while (a < b) {
          a = dom[a]
          steps++
        }
        while (b < a) {
          b = dom[b]
          steps++
        }
      }
      if (a !== current) {
        dom[j] = a
        moved[j >>> 3] |= 1 << (j & 7)
        changed = true
      }
    }
    if (steps > budget) break
  }
  return { changed, steps }
}

/**
 * Dominator numbers to ordinals: dominators by ordinal in `post`'s memory (each entry is read
 * before it is written).
 * @param {Uint32Array} post
 * @param {Uint32Array} nodeAt
 * @param {Uint32Array} dom
 */
function toOrdinals (post, nodeAt, dom) {
  numbersToOrdinals(dom, nodeAt)
  numbersToOrdinals(post, dom)
}

/**
 * values[k] = ordinals[values[k]] for every k.
 * @param {Uint32Array} values
 * @param {Uint32Array} ordinals
 */
function numbersToOrdinals (values, ordinals) {
  for (let k = 0; k < values.length; k++) values[k] = ordinals[values[k]]
}
