// DevTools' "page object" flag (markPageOwnedNodes, heapsnapshot-format.md 4.2): everything reachable
// over non-weak edges from the root's shortcut targets (the Node global) and from a synthetic
// "(Document DOM trees)" root. Edges from unflagged nodes into flagged ones are left out of the
// dominator graph, so that what the debugger or the engine also holds still belongs to the page.

import { isDocumentDomTreesRoot } from './roots.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/**
 * One byte per node: 1 = page-owned.
 * @param {HeapGraph} graph
 * @param {{scratch?: Uint32Array, storage?: Uint8Array}} [options] memory the caller lends instead of
 *   new arrays, when long enough: `scratch` (one entry per node) becomes the DFS stack, `storage`
 *   (one byte per node, all zero) holds the result
 * @returns {Uint8Array}
 */
export function markPageOwnedNodes (graph, { scratch, storage } = {}) {
  const { nodeCount, firstEdge, edgeTargets, edgeTypes, rootOrdinal } = graph
  const weakType = graph.edgeType.weak
  const shortcutType = graph.edgeType.shortcut
  const elementType = graph.edgeType.element
  const pageOwned = storage && storage.length >= nodeCount ? storage.subarray(0, nodeCount) : new Uint8Array(nodeCount)
  const stack = scratch && scratch.length >= nodeCount ? scratch : new Uint32Array(nodeCount)
  let top = 0
  for (let e = firstEdge[rootOrdinal]; e < firstEdge[rootOrdinal + 1]; e++) {
    const type = edgeTypes[e]
    const target = edgeTargets[e]
    const seed = type === shortcutType || (type === elementType && isDocumentDomTreesRoot(graph, target))
    if (!seed || pageOwned[target]) continue
    pageOwned[target] = 1
    stack[top++] = target
  }
  while (top > 0) {
    const ordinal = stack[--top]
    for (let e = firstEdge[ordinal], end = firstEdge[ordinal + 1]; e < end; e++) {
      const target = edgeTargets[e]
      if (pageOwned[target] || edgeTypes[e] === weakType) continue
      pageOwned[target] = 1
      stack[top++] = target
    }
  }
  return pageOwned
}
