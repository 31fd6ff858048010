// The whole per-snapshot analysis: page-owned flags -> essential edges -> dominators -> shallow
// sizes -> retained sizes -> locations and class names -> class retained sizes -> distances ->
// Summary (DevTools' order, except that shallow sizes wait for the dominators, which do not use
// them, and distances come after the class walk, whose memory their array takes over).
//
// Memory: besides the parser's columns, the stages share five arrays allocated up to the dominator
// stage; each later stage takes memory an earlier one is done with instead of allocating, so the
// peak does not depend on when the garbage collector frees arrays (it runs rarely here: the JS
// heap stays small, the arrays live outside it). In 4-byte units per node, B = the predecessors
// listed for the dominators (about 2.5 per node in Node heaps):
//
//                      P (1)         A (2)               V (1)           S (1)     L (max(B, 3))
//   page-owned flags   DFS stack     flags (1 byte)
//   dominators         parent        ancestor + label    vertex          semi      listed predecessors
//   shallow sizes      dominators    worklist            order           owners    result (Float64, 2)
//   retained sizes                   result (Float64)
//   class names                                                          classOf   [2, 3): detached flags
//   class retained                                       next sibling              [2, 3): first child
//   distances                                            queue                     [2, 3): result
//
// Peak: 4 * (5 + max(B, 3)) bytes per node, plus the edge bits (E/8 bytes) until the dominators are
// done; the results (dominators, shallow and retained sizes, classOf, distances) are 28 of them.
// When the DFS from the root misses nodes, a bit per node marks those nothing holds
// (unheld-nodes.js).

import { HeapGraph } from '../graph/heap-graph.js'
import { NodeLocations } from '../graph/locations.js'
import { computeClassNames } from './class-names.js'
import { classRetainedSizes, summarizeClasses } from './class-summary.js'
import { computeDistances } from './distances.js'
import { buildDominators } from './dominators.js'
import { buildEssentialEdges } from './essential-edges.js'
import { markPageOwnedNodes } from './page-owned.js'
import { computeRetainedSizes } from './retained-sizes.js'
import { findUserRoots } from './roots.js'
import { computeShallowSizes } from './shallow-sizes.js'
import { describeUnheldNodes } from './unheld-nodes.js'

/** @import {SnapshotData} from '../parse/snapshot-data.js' */
/** @import {ClassSummary} from './class-summary.js' */
/** @import {InterfaceDefinition} from './interfaces.js' */
/** @import {UnheldNodes} from './unheld-nodes.js' */

/**
 * Everything the later stages (diff, signatures, reports) read about one snapshot. Arrays are
 * indexed by node ordinal.
 * @typedef {object} HeapAnalysis
 * @property {HeapGraph} graph
 * @property {NodeLocations} locations
 * @property {Float64Array} shallowSizes   self sizes as DevTools shows them (4.5), bytes
 * @property {Uint32Array} dominators      immediate dominator ordinal (the root's is itself)
 * @property {Float64Array} retainedSizes  bytes
 * @property {Int32Array} distances        from the roots; NO_DISTANCE (-5) when unreached
 * @property {Uint32Array} classOf         class index into `classes`
 * @property {ClassSummary} classes        per class: name, key, count, self and retained size
 * @property {InterfaceDefinition[]} interfaceDefinitions  applied to plain Objects
 * @property {number[]} userRoots          ordinals of the user roots (the global)
 * @property {number} totalSize            the root's retained size, bytes
 * @property {string[]} warnings           what makes the numbers doubtful: a sizable share of the
 *                                         heap that nothing in the snapshot holds (unheld-nodes.js)
 */

/**
 * Progress of analyzeHeap: stage `step` of `steps` is about to run.
 * @typedef {object} AnalysisProgress
 * @property {string} stage
 * @property {number} step   1-based
 * @property {number} steps
 */

const STAGES = ['essential edges', 'dominators', 'shallow sizes', 'retained sizes', 'class names', 'class retained sizes', 'distances', 'summary']

/**
 * Analyze one parsed snapshot.
 * @param {SnapshotData | HeapGraph} data the parser's output (its columns are taken over, not
 *   copied), or a graph already built from it
 * @param {{onProgress?: (progress: AnalysisProgress) => void, interfaceDefinitions?: InterfaceDefinition[]}} [options]
 *   `interfaceDefinitions` replaces the plain-object interfaces inferred from this snapshot
 * @returns {HeapAnalysis}
 */
export function analyzeHeap (data, { onProgress, interfaceDefinitions } = {}) {
  let step = 0
  const stage = (/** @type {string} */ name) => onProgress?.({ stage: name, step: ++step, steps: STAGES.length })
  /** @type {string[]} */
  const warnings = []

  stage('essential edges')
  const graph = data instanceof HeapGraph ? data : new HeapGraph(data)
  const userRoots = findUserRoots(graph)

  const { dominators, shallowSizes, retainedSizes, order, spare, unheld } = dominatorStages(graph, userRoots.length > 0, stage)
  const unheldWarning = unheld && describeUnheldNodes(graph, unheld, shallowSizes, retainedSizes[graph.rootOrdinal])
  if (unheldWarning) warnings.push(unheldWarning)

  stage('class names')
  const locations = new NodeLocations(graph)
  const classNames = computeClassNames(graph, locations, { interfaceDefinitions, storage: spare[0], scratch: spare[1] })

  stage('class retained sizes')
  const walk = spare[1]
  const classRetained = classRetainedSizes(classNames, shallowSizes, retainedSizes, dominators, graph.rootOrdinal, { scratch: [order, walk] })

  stage('distances')
  const distances = computeDistances(graph, userRoots, { scratch: order, storage: walk })

  stage('summary')
  const classes = summarizeClasses(classNames, shallowSizes, distances, classRetained)

  return {
    graph,
    locations,
    shallowSizes,
    dominators,
    retainedSizes,
    distances,
    classOf: classNames.classOf,
    classes,
    interfaceDefinitions: classNames.interfaceDefinitions,
    userRoots,
    totalSize: retainedSizes[graph.rootOrdinal],
    warnings
  }
}

/**
 * Essential edges, dominators, shallow sizes and retained sizes, in the memory laid out above. A
 * function of its own so that the edge bits are garbage as soon as it returns.
 * @param {HeapGraph} graph
 * @param {boolean} hasUserRoots
 * @param {(name: string) => void} stage
 * @returns {{dominators: Uint32Array, shallowSizes: Float64Array, retainedSizes: Float64Array,
 *   order: Uint32Array, spare: Uint32Array[], unheld: UnheldNodes | null}} spare: two arrays of
 *   nodeCount entries, free
 */
function dominatorStages (graph, hasUserRoots, stage) {
  const length = graph.nodeCount + 1
  const stack = new Uint32Array(length)
  const pair = new Uint32Array(2 * length)
  const pageOwned = markPageOwnedNodes(graph, { scratch: stack, storage: new Uint8Array(pair.buffer, 0, graph.nodeCount) })
  const essential = buildEssentialEdges(graph, pageOwned)
  stage('dominators')
  const { dominators, order, spare, unheld } = buildDominators(graph, essential, { scratch: [stack, pair] })
  const [forest, listed, semi] = spare
  stage('shallow sizes')
  const nodeCount = graph.nodeCount
  const shallowSizes = computeShallowSizes(graph, { hasUserRoots, scratch: [semi, forest], storage: float64View(listed, nodeCount) })
  stage('retained sizes')
  const retainedSizes = computeRetainedSizes(dominators, order, shallowSizes, { storage: float64View(forest, nodeCount) })
  return { dominators, shallowSizes, retainedSizes, order, spare: [semi, listed.subarray(2 * nodeCount, 3 * nodeCount)], unheld }
}

/**
 * The first 8 * length bytes of a spare Uint32Array as Float64 values.
 * @param {Uint32Array} array at offset 0 of its buffer, at least 2 * length entries
 * @param {number} length
 */
function float64View (array, length) {
  return new Float64Array(array.buffer, 0, length)
}
