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
// Both cases are reported in `warnings`.
//
// Vertices are numbered 1..n as in the paper (0 = none); vertex v is ordinal v - 1. Scratch: five
// Uint32Arrays of n + 1 entries, two of which become the results (4 bytes per node less than
// DevTools' seven, at the stage that sets the analysis's peak memory).

import { SOURCE_SAMPLE_SHIFT } from '../graph/heap-graph.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** DevTools caps its problem report at 100 lines; so do we. */
export const MAX_WARNING_NODES = 100

/**
 * @typedef {object} DominatorResult
 * @property {Uint32Array} dominators  immediate dominator ordinal per ordinal (the root's is itself)
 * @property {Uint32Array} order       ordinals in DFS preorder from the root; every node comes after
 *                                     its immediate dominator (what retained-sizes.js needs)
 * @property {Uint32Array[]} spare     the algorithm's other arrays (nodeCount + 1 entries each), no
 *                                     longer needed: scratch for the caller's next stages
 */

/**
 * Immediate dominators by Lengauer–Tarjan.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential one bit per edge (buildEssentialEdges)
 * @param {{warnings?: string[], scratch?: Uint32Array[]}} [options] unreachable nodes are reported
 *   in `warnings`; `scratch`: up to two arrays of at least nodeCount + 1 entries the caller no
 *   longer needs, used instead of new ones (the first holds the `dominators` result)
 * @returns {DominatorResult}
 */
export function buildDominators (graph, essential, { warnings = [], scratch = [] } = {}) {
  const { nodeCount, firstEdge, edgeTargets, firstRetainer, retainerEdges, sourceSamples } = graph
  const length = nodeCount + 1
  // The DFS parent becomes the immediate dominator in place: SEMI-NCA starts from the parent and
  // climbs the dominators already found.
  const reuse = (/** @type {Uint32Array | undefined} */ array) => array && array.length >= length ? array.fill(0, 0, length) : new Uint32Array(length)
  const parent = reuse(scratch[0])
  // During the DFS `ancestor` holds each vertex's next edge to examine; it is cleared before the
  // main loop, which needs it as the forest of linked vertices.
  const ancestor = new Uint32Array(length)
  const vertex = new Uint32Array(length)
  // EVAL's labels; once the semidominators are known, each vertex's DFS number.
  const label = reuse(scratch[1])
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
        vertex[n] = label[v] = v
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

  if (n < nodeCount) {
    /** @type {number[]} */
    const orphans = []
    let orphanCount = 0
    const before = n
    for (let v = 1; v <= nodeCount; v++) {
      if (semi[v] !== 0 || hasEssentialRetainer(v - 1, firstRetainer, retainerEdges, essential)) continue
      orphanCount++
      if (orphans.length < MAX_WARNING_NODES) orphans.push(v - 1)
      parent[v] = r
      dfs(v)
    }
    warnings.push(`${nodeCount - before} nodes are unreachable from the root; ${orphanCount} of them have only weak retainers and are attached to the root` +
      describeNodes(graph, orphans, orphanCount))
  }
  if (n < nodeCount) {
    /** @type {number[]} */
    const rest = []
    const count = nodeCount - n
    for (let v = 1; v <= nodeCount; v++) {
      if (semi[v] !== 0) continue
      if (rest.length < MAX_WARNING_NODES) rest.push(v - 1)
      parent[v] = r
      semi[v] = ++n
      vertex[n] = label[v] = v
    }
    warnings.push(`${count} more nodes are unreachable even through weak retainers (cycles) and are attached to the root` +
      describeNodes(graph, rest, count))
  }
  ancestor.fill(0)

  for (let i = n; i >= 2; i--) {
    const w = vertex[i]
    const wOrdinal = w - 1
    let orphan = true
    for (let slot = firstRetainer[wOrdinal], end = firstRetainer[wOrdinal + 1]; slot < end; slot++) {
      const e = retainerEdges[slot]
      if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
      orphan = false
      // The edge's source, as graph.edgeSource finds it (inlined: this loop sees every edge).
      let source = sourceSamples[e >>> SOURCE_SAMPLE_SHIFT]
      while (firstEdge[source + 1] <= e) source++
      const u = evaluate(source + 1, ancestor, label, semi)
      if (semi[u] < semi[w]) semi[w] = semi[u]
    }
    // A node without essential retainers hangs under the root; semi[r] = 1 is below every other.
    if (orphan) semi[w] = semi[r]
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
  return { dominators: dom.subarray(0, nodeCount), order: vertex.subarray(0, nodeCount), spare: [ancestor, label, semi] }
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
 * @param {number} ordinal
 * @param {Uint32Array} firstRetainer
 * @param {Uint32Array} retainerEdges
 * @param {Uint8Array} essential
 */
function hasEssentialRetainer (ordinal, firstRetainer, retainerEdges, essential) {
  for (let slot = firstRetainer[ordinal], end = firstRetainer[ordinal + 1]; slot < end; slot++) {
    const e = retainerEdges[slot]
    if ((essential[e >>> 3] >>> (e & 7)) & 1) return true
  }
  return false
}

/**
 * ": @id name, @id name, ..." for up to MAX_WARNING_NODES nodes.
 * @param {HeapGraph} graph
 * @param {number[]} ordinals
 * @param {number} total
 */
function describeNodes (graph, ordinals, total) {
  if (ordinals.length === 0) return ''
  const listed = ordinals.map((o) => `@${graph.nodeIds[o]} ${graph.nodeTypeName(o)} ${JSON.stringify(graph.nodeName(o).slice(0, 40))}`)
  return ': ' + listed.join(', ') + (total > ordinals.length ? `, and ${total - ordinals.length} more` : '')
}
