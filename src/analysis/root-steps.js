// The first step of every node's shortest retainer path, for paths without a retainer index
// (retainer-paths.js): per node, the edge its shortest path from the root arrives by.

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** A root step's entry for a node no path reaches. */
export const NO_STEP = 0xffffffff

/** Edge-type names in order of preference; types not listed come last. */
const PREFERRED_EDGE_TYPES = ['property', 'context', 'element', 'shortcut', 'internal', 'hidden']

/**
 * Per node, the edge its shortest path from the root arrives by: of its non-weak retainers one
 * distance closer (or the root itself, for a user root at distance 1), the one of the most
 * recognisable edge type, the first in edge order among equals. One pass over the edges in their
 * order gives every node its step, with 4 bytes per node instead of a retainer index (4 bytes per
 * node and per edge), which `leakdiff inspect` then never builds; and a walk costs one step per
 * hop, where one over retainers scans all of them (a module scope has one per nested Context).
 * @param {HeapGraph} graph
 * @param {Int32Array} distances
 * @param {{storage?: Uint32Array}} [options] an array of at least one entry per node the caller no
 *   longer needs, to hold the result instead of allocating it
 * @returns {Uint32Array} edge number per ordinal, NO_STEP where none
 */
export function computeRootSteps (graph, distances, { storage } = {}) {
  const { nodeCount, firstEdge, edgeTargets, edgeTypes, rootOrdinal } = graph
  const weakType = graph.edgeType.weak
  const rank = edgeTypeRanks(graph)
  const steps = (storage && storage.length >= nodeCount ? storage.subarray(0, nodeCount) : new Uint32Array(nodeCount)).fill(NO_STEP)
  for (let source = 0; source < nodeCount; source++) {
    const level = distances[source]
    if (level < 0) continue
    for (let e = firstEdge[source], end = firstEdge[source + 1]; e < end; e++) {
      const type = edgeTypes[e]
      if (type === weakType) continue
      const target = edgeTargets[e]
      const targetLevel = distances[target]
      if (target === source || (targetLevel !== level + 1 && (targetLevel !== 1 || source !== rootOrdinal))) continue
      const best = steps[target]
      if (best === NO_STEP || rank[type] < rank[edgeTypes[best]]) steps[target] = e
    }
  }
  return steps
}

/**
 * Preference rank per edge type index (lower is better).
 * @param {HeapGraph} graph
 */
export function edgeTypeRanks (graph) {
  return graph.edgeTypeNames.map((name) => {
    const rank = PREFERRED_EDGE_TYPES.indexOf(name)
    return rank < 0 ? PREFERRED_EDGE_TYPES.length : rank
  })
}
