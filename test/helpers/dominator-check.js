// Dominators found again by Lengauer–Tarjan (lengauer-tarjan.js), to check them against the ones an
// analysis found with the iterative passes (dominators.js), or the other way round.
import { buildDominators } from '../../src/analysis/dominators.js'
import { buildEssentialEdges } from '../../src/analysis/essential-edges.js'
import { markPageOwnedNodes } from '../../src/analysis/page-owned.js'

/** @import {HeapGraph} from '../../src/graph/heap-graph.js' */

/**
 * Dominators of the graph by the given algorithm.
 * @param {HeapGraph} graph
 * @param {'iterative' | 'lengauer-tarjan'} algorithm
 */
export function dominatorsBy (graph, algorithm) {
  const essential = buildEssentialEdges(graph, markPageOwnedNodes(graph))
  // No bound on the iterative passes' work and number, or none at all for Lengauer–Tarjan.
  const result = buildDominators(graph, essential, algorithm === 'iterative' ? { workLimit: Infinity, passLimit: Infinity } : { workLimit: 0 })
  if (result.algorithm !== algorithm) throw new Error(`Expected dominators by ${algorithm}, got ${result.algorithm}`)
  return result.dominators
}

/**
 * How many nodes get another immediate dominator from `algorithm` than in `dominators`, with the
 * first few described.
 * @param {HeapGraph} graph
 * @param {Uint32Array} dominators
 * @param {'iterative' | 'lengauer-tarjan'} algorithm
 */
export function compareDominators (graph, dominators, algorithm) {
  const other = dominatorsBy(graph, algorithm)
  let mismatches = 0
  /** @type {string[]} */
  const examples = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (other[o] === dominators[o]) continue
    mismatches++
    if (examples.length < 5) examples.push(`@${graph.nodeIds[o]}: @${graph.nodeIds[dominators[o]]}, by ${algorithm} @${graph.nodeIds[other[o]]}`)
  }
  return { mismatches, examples: examples.join('; ') }
}
