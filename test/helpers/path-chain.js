// Whether a retainer path, as a report or retainerPath gives it, is real: each step an edge of the
// snapshot from the node before it, none of them weak, from the root to the node it is the path of.

/** @import {HeapAnalysis} from '../../src/analysis/analyze-heap.js' */
/** @import {Step} from '../../src/analysis/retainer-paths.js' */

/**
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path
 * @param {number} target  the ordinal the path should end at
 */
export function isChain ({ graph }, path, target) {
  let from = graph.rootOrdinal
  for (const step of path) {
    const to = graph.findOrdinalById(step.id)
    let found = false
    for (let e = graph.firstEdge[from]; e < graph.firstEdge[from + 1] && !found; e++) {
      found = graph.edgeTargets[e] === to && graph.edgeTypeName(e) === step.edgeType && graph.edgeName(e) === step.edge
    }
    if (!found || step.edgeType === 'weak') return false
    from = to
  }
  return from === target
}
