// The whole per-snapshot analysis: page-owned flags -> essential edges -> dominators -> distances
// -> class names -> shallow sizes and the Summary's counts -> retained sizes, per node and per class.
// (DevTools' order, except that distances and class names come before the sizes, which neither
// uses, for the memory below.)
//
// Memory: besides the parser's columns, the stages share three arrays of 4 bytes per node (A, B,
// C), allocated once; each stage takes memory an earlier one is done with instead of allocating,
// so the peak does not depend on when the garbage collector frees arrays (it runs rarely here: the
// JS heap stays small, the arrays live outside it). Per node:
//
//                      A (4)            B (4)           C (4)          +2        +4
//   page-owned flags   DFS stack        flags (1)                                  edge bits
//   dominators         dominators       DFS order       dominator numbers          edge bits, 2 bits
//   distances          dominators       distances       BFS queue
//   class names        dominators       distances       work           classOf   detached flags (1)
//   shallow sizes      dominators       distances       owners         classOf   worklist -> sizes
//   retained sizes     tree links       distances       first child    classOf   retained sizes
//   root steps (opt.)  dominators       distances       root steps     classOf   retained sizes
//
// Peak: 18 bytes per node (the edge bits fit in the last column while the edges are fewer than 30
// per node). What stays (dominators, distances, classOf, retained sizes) is 14 (18 with the root
// steps, in the array the tree walk is done with), and a bit per node says which nodes are folded
// into others, from which shallow sizes are found on demand (shallow-sizes.js). When the DFS from
// the root misses nodes, a bit per node marks those nothing holds (unheld-nodes.js). On the rare
// heap whose dominators need Lengauer–Tarjan (dominators.js), the dominator stage takes 16 B per
// node and 4 B per listed retainer more (lengauer-tarjan.js). A diff's earlier snapshots are
// analysed without distances (nothing of theirs is shown on a path): B then stays unused. A run
// over several snapshots lends B and C from one NodeScratch (node-scratch.js) and takes back what
// an analysis is done with, so the next analysis works in memory already faulted in.

import { HeapGraph } from '../graph/heap-graph.js'
import { NodeLocations } from '../graph/locations.js'
import { computeClassNames } from './class-names.js'
import { summarizeClasses } from './class-summary.js'
import { computeDistances } from './distances.js'
import { buildDominators } from './dominators.js'
import { buildEssentialEdges } from './essential-edges.js'
import { markPageOwnedNodes } from './page-owned.js'
import { computeRetainedSizes } from './retained-sizes.js'
import { computeRootSteps } from './root-steps.js'
import { findUserRoots } from './roots.js'
import { computeShallowSizes } from './shallow-sizes.js'
import { describeUnheldNodes } from './unheld-nodes.js'
/** @import {NodeScratch} from './node-scratch.js' */

/** @import {SnapshotData} from '../parse/snapshot-data.js' */
/** @import {ClassSummary} from './class-summary.js' */
/** @import {InterfaceDefinition} from './interfaces.js' */
/** @import {UnheldNodes} from './unheld-nodes.js' */
/** @import {ShallowSizes} from './shallow-sizes.js' */
/** @import {SizeColumn} from './size-column.js' */

/**
 * Everything the later stages (diff, signatures, reports) read about one snapshot. Arrays are
 * indexed by node ordinal.
 * @typedef {object} HeapAnalysis
 * @property {HeapGraph} graph
 * @property {NodeLocations} locations
 * @property {ShallowSizes} shallowSizes   self sizes as DevTools shows them (4.5), bytes, by `at(ordinal)`
 * @property {Uint32Array} dominators      immediate dominator ordinal (the root's is itself)
 * @property {'iterative' | 'lengauer-tarjan'} dominatorAlgorithm  the one that found them (dominators.js)
 * @property {SizeColumn} retainedSizes    bytes, by `at(ordinal)`
 * @property {Int32Array | null} distances from the roots; NO_DISTANCE (-5) when unreached; null when
 *                                         asked without them (a diff's earlier snapshots: nothing
 *                                         there is a path or a distance)
 * @property {Uint16Array | Uint32Array} classOf  class index into `classes`
 * @property {ClassSummary} classes        per class: name, key, count, self and retained size
 * @property {InterfaceDefinition[]} interfaceDefinitions  applied to plain Objects
 * @property {number[]} userRoots          ordinals of the user roots (the global)
 * @property {Uint32Array} [rootSteps]     with the `rootSteps` option: per node, the edge its shortest
 *                                         path from the root arrives by (root-steps.js)
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

const STAGES = ['essential edges', 'dominators', 'distances', 'class names', 'shallow sizes', 'retained sizes']

/**
 * @typedef {object} AnalysisOptions
 * @property {(progress: AnalysisProgress) => void} [onProgress]
 * @property {InterfaceDefinition[]} [interfaceDefinitions]  replaces the plain-object interfaces
 *   inferred from this snapshot
 * @property {boolean} [rootSteps]  adds the first edges of the shortest retainer paths, in memory
 *   the stages are done with, for a caller that wants paths without a retainer index (inspect)
 * @property {boolean} [distances]  false leaves out the distances from the roots (null), and with
 *   them the Summary's smallest distance per class: for a snapshot whose objects are only counted,
 *   sized and matched by id, never shown on a path (a diff's earlier snapshots)
 * @property {NodeScratch} [scratch]  lends the two arrays of scratch (B and C above) and takes back
 *   what the analysis is done with: the distances' array when there are none, the last one unless
 *   it holds the root steps (or the classes, on a heap of more than 65,535)
 * @property {boolean} [lowMemory]  the dominators' iterative passes run to the end however many
 *   they take, where past seven Lengauer–Tarjan would take over, faster but with about 26 bytes
 *   per node more (dominators.js); a heap whose passes would climb the square of a chain's length
 *   still gets Lengauer–Tarjan
 */

/**
 * Analyze one parsed snapshot.
 * @param {SnapshotData | HeapGraph} data the parser's output (its columns are taken over, not
 *   copied), or a graph already built from it
 * @param {AnalysisOptions} [options]
 * @returns {HeapAnalysis}
 */
export function analyzeHeap (data, { onProgress, interfaceDefinitions, rootSteps = false, distances: withDistances = true, lowMemory = false, scratch } = {}) {
  let step = 0
  const stage = (/** @type {string} */ name) => onProgress?.({ stage: name, step: ++step, steps: STAGES.length })
  /** @type {string[]} */
  const warnings = []

  stage('essential edges')
  const graph = data instanceof HeapGraph ? data : new HeapGraph(data)
  const userRoots = findUserRoots(graph)
  const nodeCount = graph.nodeCount
  const A = new Uint32Array(nodeCount)
  const B = scratch ? scratch.uint32(nodeCount) : new Uint32Array(nodeCount)
  const C = scratch ? scratch.uint32(nodeCount) : new Uint32Array(nodeCount)
  // The shallow sizes' memory (4 bytes per node) holds the edge bits and the dominators' bits first,
  // then the detached-node flags.
  const sizes = new Uint32Array(nodeCount)
  const bitMemory = new Uint8Array(sizes.buffer)
  const pageOwned = markPageOwnedNodes(graph, { scratch: A, storage: new Uint8Array(B.buffer, 0, nodeCount) })
  const essential = buildEssentialEdges(graph, pageOwned, { storage: bitMemory })

  stage('dominators')
  const { dominators, unheld, algorithm } = buildDominators(graph, essential, { storage: [A, B, C], scratch: bitMemory.subarray(essential.length), ...(lowMemory && { passLimit: Infinity }) })

  stage('distances')
  const distances = withDistances || rootSteps ? computeDistances(graph, userRoots, { scratch: C, storage: B }) : null

  stage('class names')
  const locations = new NodeLocations(graph)
  const classNames = computeClassNames(graph, locations, { interfaceDefinitions, storage: C, scratch: sizes })
  const { classOf } = classNames

  stage('shallow sizes')
  const free = classOf.buffer === C.buffer ? undefined : C
  const shallow = computeShallowSizes(graph, { hasUserRoots: userRoots.length > 0, scratch: free, storage: sizes })
  const classes = summarizeClasses(classNames, shallow.column, distances)

  stage('retained sizes')
  const retainedSizes = shallow.column
  classes.retainedSizes = computeRetainedSizes(dominators, graph.rootOrdinal, retainedSizes, classOf, classes.names.length, { scratch: free })
  const unheldWarning = unheld && describeUnheldNodes(graph, unheld, shallow.sizes, retainedSizes.at(graph.rootOrdinal))
  if (unheldWarning) warnings.push(unheldWarning)
  const steps = rootSteps && distances !== null ? computeRootSteps(graph, distances, { storage: free }) : undefined
  if (scratch) {
    if (distances === null) scratch.give(B)
    if (free && !steps) scratch.give(free)
  }

  return {
    graph,
    locations,
    shallowSizes: shallow.sizes,
    dominators,
    dominatorAlgorithm: algorithm,
    retainedSizes,
    distances,
    classOf,
    classes,
    interfaceDefinitions: classNames.interfaceDefinitions,
    userRoots,
    // Always present, undefined without them: every analysis has one shape, so code V8 optimized
    // for one snapshot's analysis runs on the next one's instead of being thrown away for it.
    rootSteps: steps,
    totalSize: retainedSizes.at(graph.rootOrdinal),
    warnings
  }
}
