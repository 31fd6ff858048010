// The shortest retainer path from the roots to a node, with edge names (the JSON report's `path`).
//
// Distances already encode every shortest path: walking back from the node, each step goes to a
// retainer exactly one closer to the roots, over a non-weak edge. Where several retainers qualify,
// the step people recognise wins: a property over a closure variable over an array index over
// engine-internal slots. The walk ends at the snapshot root; a user root (the global, distance 1)
// steps to the root over the root's own edge to it.

import { NO_DISTANCE } from './distances.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/**
 * One hop of a retainer path from the GC roots (design.md's JSON contract).
 * @typedef {object} Step
 * @property {string} edge      property, variable or internal name, or the index as text
 * @property {string} edgeType  `property`, `context`, `element`, `internal`, `hidden`, `shortcut`
 *                              (`elided` for the one step standing for the middle of a long path)
 * @property {string} node      class name of the node the edge leads to, as the class table has it
 * @property {string} nodeType  node type name (`object`, `closure`, ...; `elided` likewise)
 * @property {number} id        V8 id of that node (0 for an elided step)
 */

/**
 * What a path needs from an analysis (HeapAnalysis has it all).
 * @typedef {object} PathSource
 * @property {HeapGraph} graph
 * @property {Int32Array} distances
 * @property {Uint32Array} classOf
 * @property {{names: string[]}} classes
 */

/** Edge-type names in order of preference; types not listed come last. */
const PREFERRED_EDGE_TYPES = ['property', 'context', 'element', 'shortcut', 'internal', 'hidden']

/**
 * The path from the roots to `ordinal`, first step at the root end; [] for the root itself and for
 * nodes no root reaches. A path longer than `maxLength` keeps its two ends around one `elided` step.
 * @param {PathSource} analysis
 * @param {number} ordinal
 * @param {{maxLength?: number}} [options]
 * @returns {Step[]}
 */
export function retainerPath (analysis, ordinal, { maxLength = 100 } = {}) {
  const { graph, distances } = analysis
  const { rootOrdinal, firstRetainer, retainerEdges, retainerNodes, edgeTypes } = graph
  if (ordinal === rootOrdinal || distances[ordinal] === NO_DISTANCE) return []
  const rank = edgeTypeRanks(graph)
  const weakType = graph.edgeType.weak
  /** @type {number[]} edges from the node back towards the root */
  const edges = []
  let node = ordinal
  while (node !== rootOrdinal) {
    const distance = distances[node]
    let best = -1
    let bestRank = Infinity
    for (let slot = firstRetainer[node], end = firstRetainer[node + 1]; slot < end; slot++) {
      const e = retainerEdges[slot]
      if (edgeTypes[e] === weakType) continue
      const source = retainerNodes[slot]
      const closer = distances[source] === distance - 1 || (distance === 1 && source === rootOrdinal)
      if (!closer || source === node) continue
      const r = rank[edgeTypes[e]]
      if (r < bestRank) {
        best = slot
        bestRank = r
      }
    }
    // Cannot happen with distances from computeDistances; guards against foreign arrays.
    if (best < 0) return []
    edges.push(retainerEdges[best])
    node = retainerNodes[best]
  }
  edges.reverse()
  const limit = Math.max(Math.floor(maxLength), 1)
  if (edges.length <= limit) return edges.map((e) => stepOf(analysis, e))
  const head = Math.ceil((limit - 1) / 2)
  const tail = limit - 1 - head
  const skipped = edges.length - head - tail
  return [
    ...edges.slice(0, head).map((e) => stepOf(analysis, e)),
    { edge: '…', edgeType: 'elided', node: `${skipped} steps`, nodeType: 'elided', id: 0 },
    ...edges.slice(edges.length - tail).map((e) => stepOf(analysis, e))
  ]
}

/**
 * @param {PathSource} analysis
 * @param {number} edge
 * @returns {Step}
 */
function stepOf (analysis, edge) {
  const { graph, classOf, classes } = analysis
  const target = graph.edgeTargets[edge]
  return {
    edge: graph.edgeName(edge),
    edgeType: graph.edgeTypeName(edge),
    node: classes.names[classOf[target]],
    nodeType: graph.nodeTypeName(target),
    id: graph.nodeIds[target]
  }
}

/**
 * Preference rank per edge type index (lower is better).
 * @param {HeapGraph} graph
 */
function edgeTypeRanks (graph) {
  return graph.edgeTypeNames.map((name) => {
    const rank = PREFERRED_EDGE_TYPES.indexOf(name)
    return rank < 0 ? PREFERRED_EDGE_TYPES.length : rank
  })
}
