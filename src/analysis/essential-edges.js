// The edges that take part in dominators (DevTools' computeIsEssentialEdge, heapsnapshot-format.md
// 4.3). An edge P -> C is left out when
//   1. it is the WeakMap table's half of an ephemeron pair (internal, named "... (table @<P's id>)"):
//      the value is held by its key and the table together, and DevTools credits the key;
//   2. it is weak: weak edges never retain;
//   3. P = C;
//   4. P is not the root and the edge is a shortcut (only the root's shortcuts mark real roots);
//   5. P is not the root, C is page-owned and P is not (see page-owned.js).

import { WeakMapEdgeNames } from './weak-map-edges.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/**
 * One bit per edge (bit e & 7 of byte e >> 3), set when edge e is essential.
 * @param {HeapGraph} graph
 * @param {Uint8Array} pageOwned one byte per node (markPageOwnedNodes)
 * @param {{storage?: Uint8Array}} [options] memory for the bits instead of a new array, when long enough
 * @returns {Uint8Array}
 */
export function buildEssentialEdges (graph, pageOwned, { storage } = {}) {
  const { nodeCount, firstEdge, edgeTargets, edgeTypes, edgeNames, nodeIds, rootOrdinal } = graph
  const weakType = graph.edgeType.weak
  const shortcutType = graph.edgeType.shortcut
  const internalType = graph.edgeType.internal
  const weakMapNames = new WeakMapEdgeNames(graph)
  const bytes = (graph.edgeCount + 7) >>> 3
  const essential = storage && storage.length >= bytes ? storage.subarray(0, bytes).fill(0) : new Uint8Array(bytes)
  for (let source = 0; source < nodeCount; source++) {
    const isRoot = source === rootOrdinal
    const sourcePageOwned = pageOwned[source]
    for (let e = firstEdge[source], end = firstEdge[source + 1]; e < end; e++) {
      const type = edgeTypes[e]
      if (type === weakType) continue
      if (type === internalType && weakMapNames.tableId(edgeNames[e]) === nodeIds[source]) continue
      const target = edgeTargets[e]
      if (target === source) continue
      if (!isRoot) {
        if (type === shortcutType) continue
        if (pageOwned[target] && !sourcePageOwned) continue
      }
      essential[e >>> 3] |= 1 << (e & 7)
    }
  }
  return essential
}

/**
 * One bit per ordinal: set when some essential edge points to it.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 */
export function markEssentialTargets (graph, essential) {
  const { edgeCount, edgeTargets } = graph
  const marked = new Uint8Array((graph.nodeCount + 7) >>> 3)
  for (let e = 0; e < edgeCount; e++) {
    if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
    const v = edgeTargets[e]
    marked[v >>> 3] |= 1 << (v & 7)
  }
  return marked
}
