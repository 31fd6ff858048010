// Immediate dominators over the essential edges (essential-edges.js), from the snapshot's root.
//
// Algorithm: Thomas Lengauer and Robert Endre Tarjan. 1979. A fast algorithm for finding dominators
// in a flowgraph. ACM Trans. Program. Lang. Syst. 1, 1 (July 1979), 121-141.
// https://doi.org/10.1145/357062.357071 — the "simple" variant (eval/link with path compression),
// as Chrome DevTools runs it, including its handling of nodes the DFS from the root misses:
//   - a node whose retainers are all non-essential ("only weak retainers") starts an extra DFS hung
//     under the root, and counts as having the root as its only predecessor;
//   - any node still unvisited after that (e.g. a cycle held only weakly) is attached to the root.
// Both cases are reported in `warnings`.
//
// Vertices are numbered 1..n as in the paper (0 = none); vertex v is ordinal v - 1. Scratch: seven
// Uint32Arrays of n + 1 entries, two of which become the results.

import { SOURCE_SAMPLE_SHIFT } from '../graph/heap-graph.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** DevTools caps its problem report at 100 lines; so do we. */
export const MAX_WARNING_NODES = 100

/**
 * @typedef {object} DominatorResult
 * @property {Uint32Array} dominators  immediate dominator ordinal per ordinal (the root's is itself)
 * @property {Uint32Array} order       ordinals in DFS preorder from the root; every node comes after
 *                                     its immediate dominator (what retained-sizes.js needs)
 */

/**
 * Immediate dominators by Lengauer–Tarjan.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential one bit per edge (buildEssentialEdges)
 * @param {{warnings?: string[]}} [options] unreachable nodes are reported here
 * @returns {DominatorResult}
 */
export function buildDominators (graph, essential, { warnings = [] } = {}) {
  const { nodeCount, firstEdge, edgeTargets, firstRetainer, retainerEdges, sourceSamples } = graph
  const length = nodeCount + 1
  const parent = new Uint32Array(length)
  // During the DFS `ancestor` holds each vertex's next edge to examine; it is cleared before the
  // main loop, which needs it as the forest of linked vertices.
  const ancestor = new Uint32Array(length)
  const vertex = new Uint32Array(length)
  const label = new Uint32Array(length)
  const semi = new Uint32Array(length)
  // `dom` doubles as the "next in bucket" link: a vertex waits in exactly one bucket, and only
  // gets its dom value when that bucket is emptied.
  const dom = new Uint32Array(length)
  const bucketHead = new Uint32Array(length)
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
    const b = vertex[semi[w]]
    dom[w] = bucketHead[b]
    bucketHead[b] = w
    const p = parent[w]
    ancestor[w] = p
    let v = bucketHead[p]
    bucketHead[p] = 0
    while (v !== 0) {
      const next = dom[v]
      const u = evaluate(v, ancestor, label, semi)
      dom[v] = semi[u] < semi[v] ? u : p
      v = next
    }
  }

  // Buckets never emptied (possible only under vertices attached to the root without being their
  // retainers' DFS descendants) leave their members without a dom value; DevTools leaves 0 there,
  // which the final step below turns into the root (dom[0] = r).
  for (let b = 1; b <= nodeCount; b++) {
    let v = bucketHead[b]
    while (v !== 0) {
      const next = dom[v]
      dom[v] = 0
      v = next
    }
  }
  dom[0] = r
  dom[r] = r
  for (let i = 2; i <= n; i++) {
    const w = vertex[i]
    if (dom[w] !== vertex[semi[w]]) dom[w] = dom[dom[w]]
  }

  // Shift to 0-based ordinals in place; the views keep one spare entry alive.
  for (let o = 0; o < nodeCount; o++) {
    dom[o] = dom[o + 1] - 1
    vertex[o] = vertex[o + 1] - 1
  }
  return { dominators: dom.subarray(0, nodeCount), order: vertex.subarray(0, nodeCount) }
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
