// Nodes that the DFS from the root (dominators.js) misses come in two kinds, and only one of them
// can mean something to a user:
//   - held weakly: some path from the root reaches them through weak (or other non-essential)
//     edges. V8's own caches, WeakRef targets, WeakMap entries: normal in any heap.
//   - unheld: no path from the root reaches them at all, not even a weak one. V8 collects garbage
//     before it writes a snapshot, so they are alive, held by references the snapshot does not
//     contain. Node 24 (V8 13.6) writes eight such nodes in every process, SharedFunctionInfos of
//     Intl.v8BreakIterator with no retainer and a self size of 0 (Node 22: 64 bytes each).
// Both are attached to the root as DevTools attaches them, so every number stays DevTools'. A
// warning is due only when the unheld nodes hold enough of the heap to move the numbers a user
// reads: then the snapshot has likely lost edges (a writer other than V8, a damaged file).

import { formatBytes, formatCount } from '../units.js'
import { cutMiddle } from '../cut-text.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** Unheld nodes below this share of the heap's total size are not worth a warning. */
export const MIN_WARNING_SHARE = 0.01

/** DevTools caps its problem report at 100 lines; so do we. */
export const MAX_WARNING_NODES = 100

/**
 * @typedef {object} UnheldNodes
 * @property {number} count      nodes no path from the root reaches, weak edges included
 * @property {Uint8Array} flags  one bit per ordinal, set for those nodes
 */

/**
 * The nodes that no edge path from the root reaches, among those the dominator DFS missed.
 * Starts from every edge out of a reached node into a missed one, then follows all edges
 * among missed nodes, so the reached part of the graph is scanned once, in edge order.
 * @param {HeapGraph} graph
 * @param {Uint32Array} marks one entry per ordinal: `missed` for the nodes the DFS did not reach
 * @param {number} missed
 * @param {Uint32Array} stack scratch of at least nodeCount entries, overwritten
 * @returns {UnheldNodes}
 */
export function findUnheldNodes (graph, marks, missed, stack) {
  const { nodeCount, firstEdge, edgeTargets } = graph
  // Bit per ordinal: a missed node found through some edge path from the root.
  const held = new Uint8Array((nodeCount + 7) >>> 3)
  let top = 0
  for (let o = 0; o < nodeCount; o++) {
    if (marks[o] === missed) continue
    for (let e = firstEdge[o], end = firstEdge[o + 1]; e < end; e++) {
      const w = edgeTargets[e]
      if (marks[w] !== missed || ((held[w >>> 3] >>> (w & 7)) & 1) !== 0) continue
      held[w >>> 3] |= 1 << (w & 7)
      stack[top++] = w
    }
  }
  while (top > 0) {
    const o = stack[--top]
    for (let e = firstEdge[o], end = firstEdge[o + 1]; e < end; e++) {
      const w = edgeTargets[e]
      if (marks[w] !== missed || ((held[w >>> 3] >>> (w & 7)) & 1) !== 0) continue
      held[w >>> 3] |= 1 << (w & 7)
      stack[top++] = w
    }
  }
  // The same bits, turned into the unheld ones.
  let count = 0
  for (let o = 0; o < nodeCount; o++) {
    const bit = 1 << (o & 7)
    if (marks[o] === missed && (held[o >>> 3] & bit) === 0) {
      held[o >>> 3] |= bit
      count++
    } else {
      held[o >>> 3] &= ~bit
    }
  }
  return { count, flags: held }
}

/**
 * The warning for unheld nodes, or null when they hold less than MIN_WARNING_SHARE of the heap.
 * @param {HeapGraph} graph
 * @param {UnheldNodes} unheld
 * @param {{at: (ordinal: number) => number}} shallowSizes bytes per ordinal
 * @param {number} totalSize the root's retained size, bytes
 * @returns {string | null}
 */
export function describeUnheldNodes (graph, { count, flags }, shallowSizes, totalSize) {
  let bytes = 0
  /** @type {number[]} */
  const listed = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (((flags[o >>> 3] >>> (o & 7)) & 1) === 0) continue
    bytes += shallowSizes.at(o)
    if (listed.length < MAX_WARNING_NODES) listed.push(o)
  }
  if (count === 0 || bytes < MIN_WARNING_SHARE * totalSize) return null
  const share = totalSize > 0 ? (100 * bytes / totalSize).toFixed(1) : '100'
  const names = listed.map((o) => `@${graph.nodeIds[o]} ${graph.nodeTypeName(o)} ${JSON.stringify(cutMiddle(graph.nodeName(o), 40))}`)
  return `${formatCount(count)} nodes holding ${formatBytes(bytes)} (${share}% of the heap) have no path from the root, not even ` +
    'through weak edges: the snapshot may have lost edges; they are counted under the root: ' +
    names.join(', ') + (count > listed.length ? `, and ${count - listed.length} more` : '')
}
