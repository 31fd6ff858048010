// Immediate dominators over the essential edges (essential-edges.js), from the snapshot's root.
//
// Algorithm: semidominators as in Thomas Lengauer and Robert Endre Tarjan. 1979. A fast algorithm for
// finding dominators in a flowgraph. ACM Trans. Program. Lang. Syst. 1, 1 (July 1979), 121-141.
// https://doi.org/10.1145/357062.357071 — the "simple" variant (eval/link with path compression),
// as Chrome DevTools runs it; immediate dominators then as the nearest common ancestor of the DFS
// parent and the semidominator ("SEMI-NCA": Loukas Georgiadis, Robert E. Tarjan and Renato F.
// Werneck. 2006. Finding dominators in practice. J. Graph Algorithms Appl. 10, 1, 69-94.
// https://doi.org/10.7155/jgaa.00119; LLVM's dominator tree uses it). Dominators are unique, so the
// result is the one DevTools' buckets give, without the buckets' two arrays. DevTools' handling of
// nodes the DFS from the root misses is kept:
//   - a node whose retainers are all non-essential ("only weak retainers") starts an extra DFS hung
//     under the root, and counts as having the root as its only predecessor;
//   - any node still unvisited after that (e.g. a cycle held only weakly) is attached to the root.
// Which of them nothing in the snapshot holds at all is found out here too (unheld-nodes.js).
//
// Vertices are numbered 1..n as in the paper (0 = none); vertex v is ordinal v - 1.
//
// Predecessors without a retainer index: a predecessor v of w that comes before w in the DFS is
// not linked yet when w is processed, so EVAL(v) = v and it offers its own DFS number; the smallest
// such number is found in one pass over the edges. Only the predecessors that come after w (72%
// of the edges in the bench's server heaps) need EVAL, and only they are listed: grouped by target in
// the order the main loop takes the targets, the last entry of each group marked by the top bit,
// and a bit per vertex for whether it has a group. That is 4 bytes per such edge, where an index
// of all retainers costs 4 bytes per edge and per node.
//
// Memory: five Uint32Arrays of n + 1 entries (two of them become the results), the listed
// predecessors and a bit per vertex. The list gets at least 3n entries, so that once it is done
// the caller can put a Float64Array and a Uint32Array of n entries each in its memory.

import { InvalidArgumentError } from '../errors.js'
import { findUnheldNodes } from './unheld-nodes.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {UnheldNodes} from './unheld-nodes.js' */

// Top bit of a listed predecessor: the last one of its target's group. Vertices stay below it.
const GROUP_END = 0x80000000
const VERTEX_MASK = 0x7fffffff

/**
 * @typedef {object} DominatorResult
 * @property {Uint32Array} dominators  immediate dominator ordinal per ordinal (the root's is itself)
 * @property {Uint32Array} order       ordinals in DFS preorder from the root; every node comes after
 *                                     its immediate dominator (what retained-sizes.js needs)
 * @property {Uint32Array[]} spare     the algorithm's other arrays, no longer needed, as scratch for
 *                                     the caller's next stages: one of 2 * (nodeCount + 1) entries,
 *                                     one of at least 3 * nodeCount, one of nodeCount + 1 (the
 *                                     first two can hold a Float64Array of nodeCount entries at
 *                                     offset 0)
 * @property {UnheldNodes | null} unheld nodes the root does not reach even through weak edges;
 *                                     null when the DFS from the root reached every node
 */

/**
 * Immediate dominators by Lengauer–Tarjan.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential one bit per edge (buildEssentialEdges)
 * @param {{scratch?: Uint32Array[]}} [options] `scratch`: arrays the caller no longer needs, used
 *   instead of new ones when long enough: the first (nodeCount + 1 entries) holds the `dominators`
 *   result, the second (2 * (nodeCount + 1)) the EVAL forest and labels
 * @returns {DominatorResult}
 */
export function buildDominators (graph, essential, { scratch = [] } = {}) {
  const { nodeCount, firstEdge, edgeTargets } = graph
  if (nodeCount >= VERTEX_MASK) {
    throw new InvalidArgumentError(`Expected fewer than ${VERTEX_MASK} nodes for the dominator tree, got ${nodeCount}`)
  }
  const length = nodeCount + 1
  const reuse = (/** @type {Uint32Array | undefined} */ array, /** @type {number} */ size) =>
    array && array.length >= size ? array.fill(0, 0, size) : new Uint32Array(size)
  // The DFS parent becomes the immediate dominator in place: SEMI-NCA starts from the parent and
  // climbs the dominators already found.
  const parent = reuse(scratch[0], length)
  // `ancestor` and `label` share one buffer, which the caller can reuse for 8-byte values.
  const pair = reuse(scratch[1], 2 * length)
  // During the DFS `ancestor` holds each vertex's next edge to examine; then the positions of the
  // listed predecessors; then, in the main loop, the forest of linked vertices.
  const ancestor = pair.subarray(0, length)
  // Before the main loop, each vertex's smallest DFS number among its earlier predecessors; in it,
  // EVAL's labels; after it, each vertex's DFS number.
  const label = pair.subarray(length, 2 * length)
  const vertex = new Uint32Array(length)
  const semi = new Uint32Array(length)
  const nextEdge = ancestor
  const r = graph.rootOrdinal + 1
  let n = 0

  // Iterative DFS over essential edges from `start`, climbing back through `parent` when a vertex
  // has no unvisited successor left; ends above the vertex whose parent is 0 (the root).
  const dfs = (/** @type {number} */ start) => {
    nextEdge[start] = firstEdge[start - 1]
    let v = start
    while (v !== 0) {
      if (semi[v] === 0) {
        semi[v] = ++n
        vertex[n] = v
      }
      let vNext = parent[v]
      for (let e = nextEdge[v], end = firstEdge[v]; e < end; e++) {
        if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
        const w = edgeTargets[e] + 1
        if (semi[w] === 0) {
          parent[w] = v
          nextEdge[w] = firstEdge[w - 1]
          nextEdge[v] = e + 1
          vNext = w
          break
        }
      }
      if (vNext === parent[v]) nextEdge[v] = firstEdge[v]
      v = vNext
    }
  }

  dfs(r)

  /** @type {UnheldNodes | null} */
  let unheld = null
  if (n < nodeCount) {
    // `label` is free until the main loop: the stack of the search for unheld nodes.
    unheld = findUnheldNodes(graph, semi, label)
    const retained = markEssentialTargets(graph, essential)
    for (let v = 1; v <= nodeCount; v++) {
      if (semi[v] !== 0 || ((retained[v >>> 3] >>> (v & 7)) & 1) !== 0) continue
      parent[v] = r
      dfs(v)
    }
  }
  for (let v = 1; n < nodeCount && v <= nodeCount; v++) {
    if (semi[v] !== 0) continue
    parent[v] = r
    semi[v] = ++n
    vertex[n] = v
  }

  // semi holds DFS numbers until each vertex's turn in the main loop. One pass over the essential
  // edges: an edge from an earlier vertex lowers the target's label, one from a later vertex is
  // counted in `ancestor` (edges into the root are never needed).
  ancestor.fill(0)
  label.set(semi)
  for (let source = 0; source < nodeCount; source++) {
    const sourceNumber = semi[source + 1]
    for (let e = firstEdge[source], end = firstEdge[source + 1]; e < end; e++) {
      if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
      const w = edgeTargets[e] + 1
      if (sourceNumber < semi[w]) {
        if (sourceNumber < label[w]) label[w] = sourceNumber
      } else if (w !== r) {
        ancestor[w]++
      }
    }
  }
  // Group starts, targets in the main loop's order (descending DFS number).
  const hasLater = new Uint8Array((length + 7) >>> 3)
  let listed = 0
  for (let i = n; i >= 2; i--) {
    const w = vertex[i]
    const count = ancestor[w]
    if (count === 0) continue
    hasLater[w >>> 3] |= 1 << (w & 7)
    ancestor[w] = listed
    listed += count
  }
  const later = new Uint32Array(Math.max(listed, 3 * nodeCount))
  for (let source = 0; source < nodeCount; source++) {
    const v = source + 1
    const sourceNumber = semi[v]
    for (let e = firstEdge[source], end = firstEdge[source + 1]; e < end; e++) {
      if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
      const w = edgeTargets[e] + 1
      if (sourceNumber > semi[w] && w !== r) later[ancestor[w]++] = v
    }
  }
  // ancestor[w] is now the end of w's group.
  for (let w = 1; w <= nodeCount; w++) {
    if ((hasLater[w >>> 3] >>> (w & 7)) & 1) later[ancestor[w] - 1] |= GROUP_END
  }
  ancestor.fill(0)

  let cursor = 0
  for (let i = n; i >= 2; i--) {
    const w = vertex[i]
    let s = label[w]
    label[w] = w
    if ((hasLater[w >>> 3] >>> (w & 7)) & 1) {
      for (;;) {
        const entry = later[cursor++]
        const u = evaluate(entry & VERTEX_MASK, ancestor, label, semi)
        if (semi[u] < s) s = semi[u]
        if (entry >= GROUP_END) break
      }
    } else if (s === i) {
      // No essential retainer at all: the node hangs under the root; semi[r] = 1 is below every other.
      s = 1
    }
    semi[w] = s
    ancestor[w] = parent[w]
  }

  // NCA step: idom(w) is the deepest DFS ancestor of w that dominates its parent and is not below
  // its semidominator. Vertices go in DFS order, so the dominators of every ancestor are final.
  // Vertices attached to the root (parent r) get the root, as DevTools' leftover buckets give them.
  const number = label
  for (let i = 1; i <= n; i++) number[vertex[i]] = i
  for (let i = 2; i <= n; i++) {
    const w = vertex[i]
    const s = semi[w]
    let d = parent[w]
    while (number[d] > s) d = parent[d]
    parent[w] = d
  }
  parent[r] = r
  const dom = parent

  // Shift to 0-based ordinals in place; the views keep one spare entry alive.
  for (let o = 0; o < nodeCount; o++) {
    dom[o] = dom[o + 1] - 1
    vertex[o] = vertex[o + 1] - 1
  }
  return { dominators: dom.subarray(0, nodeCount), order: vertex.subarray(0, nodeCount), spare: [pair, later, semi], unheld }
}

/**
 * EVAL of the paper: the vertex with minimal semi on the compressed path above v. COMPRESS runs
 * without a stack: the climb reverses the `ancestor` links it passes (pointer reversal), and the
 * way back down follows them, restoring and compressing top-down as the recursive version would.
 * @param {number} v
 * @param {Uint32Array} ancestor
 * @param {Uint32Array} label
 * @param {Uint32Array} semi
 */
function evaluate (v, ancestor, label, semi) {
  if (ancestor[v] === 0) return v
  let below = 0
  let x = v
  while (ancestor[ancestor[x]] !== 0) {
    const above = ancestor[x]
    ancestor[x] = below
    below = x
    x = above
  }
  // x is the highest vertex to keep its ancestor; relabel each vertex below it from the one above.
  while (below !== 0) {
    const w = below
    below = ancestor[w]
    if (semi[label[x]] < semi[label[w]]) label[w] = label[x]
    ancestor[w] = ancestor[x]
    x = w
  }
  return label[v]
}

/**
 * One bit per vertex (ordinal + 1): set when some essential edge points to it.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 */
function markEssentialTargets (graph, essential) {
  const { edgeCount, edgeTargets } = graph
  const marked = new Uint8Array((graph.nodeCount + 8) >>> 3)
  for (let e = 0; e < edgeCount; e++) {
    if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
    const v = edgeTargets[e] + 1
    marked[v >>> 3] |= 1 << (v & 7)
  }
  return marked
}
