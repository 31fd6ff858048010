// The whole per-snapshot analysis: retainers -> page-owned flags -> essential edges -> dominators
// -> shallow sizes -> retained sizes -> distances -> locations and class names -> Summary (DevTools'
// order, except that shallow sizes wait for the dominators, which do not use them). The peak is the
// dominator stage: the columns, the retainer index and the dominator algorithm's arrays. After it
// the retainer index is dropped and the finished arrays are reused, so later stages stay below.

import { HeapGraph } from '../graph/heap-graph.js'
import { NodeLocations } from '../graph/locations.js'
import { computeClassNames } from './class-names.js'
import { summarizeClasses } from './class-summary.js'
import { computeDistances } from './distances.js'
import { buildDominators } from './dominators.js'
import { buildEssentialEdges } from './essential-edges.js'
import { markPageOwnedNodes } from './page-owned.js'
import { computeRetainedSizes } from './retained-sizes.js'
import { findUserRoots } from './roots.js'
import { computeShallowSizes } from './shallow-sizes.js'

/** @import {SnapshotData} from '../parse/snapshot-data.js' */
/** @import {ClassSummary} from './class-summary.js' */
/** @import {InterfaceDefinition} from './interfaces.js' */

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
 * @property {string[]} warnings           unreachable nodes attached to the root, capped lists
 */

/**
 * Progress of analyzeHeap: stage `step` of `steps` is about to run.
 * @typedef {object} AnalysisProgress
 * @property {string} stage
 * @property {number} step   1-based
 * @property {number} steps
 */

const STAGES = ['retainers', 'essential edges', 'dominators', 'shallow sizes', 'retained sizes', 'distances', 'class names', 'summary']

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

  stage('retainers')
  const graph = data instanceof HeapGraph ? data : new HeapGraph(data)
  graph.buildRetainerIndex()
  const userRoots = findUserRoots(graph)

  const { dominators, shallowSizes, retainedSizes, order, spare } = dominatorStages(graph, userRoots.length > 0, warnings, stage)

  // From here on, the memory of arrays that are done (the DFS order, the dominator algorithm's
  // scratch) holds the queue, the results and the summary's links: allocating new ones would leave
  // the peak to whenever the garbage collector frees the old.
  stage('distances')
  const distances = computeDistances(graph, userRoots, { scratch: order, storage: spare[2] })

  stage('class names')
  const locations = new NodeLocations(graph)
  const classNames = computeClassNames(graph, locations, { interfaceDefinitions, storage: spare[0] })

  stage('summary')
  const classes = summarizeClasses(classNames, shallowSizes, retainedSizes, dominators, distances, graph.rootOrdinal, { scratch: [order, spare[1]] })

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
 * Essential edges, dominators, shallow sizes and retained sizes. A function of its own so that the
 * edge bitset and the page flags are garbage as soon as it returns (the DFS order and the
 * dominator algorithm's finished arrays are handed back for reuse); shallow sizes come after the dominators (which do not need them) so that
 * their 8 bytes per node are not held during the dominator scratch.
 * @param {HeapGraph} graph
 * @param {boolean} hasUserRoots
 * @param {string[]} warnings
 * @param {(name: string) => void} stage
 */
function dominatorStages (graph, hasUserRoots, warnings, stage) {
  stage('essential edges')
  // One array serves as the page-owned DFS stack and then holds the dominators, so that the stack
  // is not still waiting for the garbage collector when the dominator stage sets the peak.
  const scratch = [new Uint32Array(graph.nodeCount + 1)]
  const essential = buildEssentialEdges(graph, markPageOwnedNodes(graph, { scratch: scratch[0] }))
  stage('dominators')
  const { dominators, order, spare } = buildDominators(graph, essential, { warnings, scratch })
  // Nothing below reads retainers: their 4 bytes per node and per edge would otherwise stay to the
  // end, where the results pile up. Later readers (paths, signatures) get them rebuilt on first use.
  graph.releaseRetainers()
  stage('shallow sizes')
  const shallowSizes = computeShallowSizes(graph, { hasUserRoots, scratch: spare })
  stage('retained sizes')
  return { dominators, shallowSizes, retainedSizes: computeRetainedSizes(dominators, order, shallowSizes), order, spare }
}
