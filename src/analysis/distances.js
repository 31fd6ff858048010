// Distances from the roots, DevTools' way (HeapSnapshot.calculateDistances + the JSHeapSnapshot
// filter, heapsnapshot-format.md 4.6):
//   1. BFS over non-weak edges from the user roots (the Node global), which get distance 1;
//   2. the root gets BASE_SYSTEM_DISTANCE (0 when there are no user roots) and a second BFS from it
//      labels what the first missed: engine-internal objects land at 100,000,001 and beyond.
// Both passes skip `sloppy_function_map` of a NativeContext, the descriptor links of a
// "(map descriptors)" array, and the first-met half of each WeakMap ephemeron pair, so a WeakMap
// value's distance is the later of (table, key) + 1. Nodes neither pass reaches keep NO_DISTANCE.

import { WeakMapEdgeNames } from './weak-map-edges.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** Distance of a node no BFS reached (DevTools' noDistance). */
export const NO_DISTANCE = -5
/** Distance DevTools gives the root when there are user roots; the UI prints "-" from here up. */
export const BASE_SYSTEM_DISTANCE = 100000000

/**
 * @param {HeapGraph} graph
 * @param {number[]} userRoots ordinals (findUserRoots)
 * @param {{scratch?: Uint32Array, storage?: Uint32Array}} [options] arrays of at least one entry
 *   per node that the caller no longer needs: `scratch` becomes the BFS queue, `storage` the
 *   memory of the result, instead of allocating them
 * @returns {Int32Array} distance per ordinal
 */
export function computeDistances (graph, userRoots, { scratch, storage } = {}) {
  const distances = (storage && storage.length >= graph.nodeCount
    ? new Int32Array(storage.buffer, storage.byteOffset, graph.nodeCount)
    : new Int32Array(graph.nodeCount)).fill(NO_DISTANCE)
  const queue = scratch && scratch.length >= graph.nodeCount ? scratch : new Uint32Array(graph.nodeCount)
  const filter = new DistanceFilter(graph)
  let length = 0
  for (const ordinal of userRoots) {
    distances[ordinal] = 1
    queue[length++] = ordinal
  }
  breadthFirst(graph, queue, length, distances, filter)
  distances[graph.rootOrdinal] = userRoots.length > 0 ? BASE_SYSTEM_DISTANCE : 0
  queue[0] = graph.rootOrdinal
  breadthFirst(graph, queue, 1, distances, filter)
  return distances
}

/**
 * @param {HeapGraph} graph
 * @param {Uint32Array} queue preallocated, nodeCount entries; the first `length` are the start set
 * @param {number} length
 * @param {Int32Array} distances
 * @param {DistanceFilter} filter
 */
function breadthFirst (graph, queue, length, distances, filter) {
  const { firstEdge, edgeTargets, edgeTypes, nodeTypes } = graph
  const weakType = graph.edgeType.weak
  const internalType = graph.edgeType.internal
  const hiddenNodeType = graph.nodeType.hidden
  const arrayNodeType = graph.nodeType.array
  for (let head = 0; head < length; head++) {
    const ordinal = queue[head]
    const distance = distances[ordinal] + 1
    const sourceType = nodeTypes[ordinal]
    // Only these sources can have filtered edges; everything else takes the plain path.
    const special = sourceType === hiddenNodeType || sourceType === arrayNodeType
    for (let e = firstEdge[ordinal], end = firstEdge[ordinal + 1]; e < end; e++) {
      const type = edgeTypes[e]
      if (type === weakType) continue
      const target = edgeTargets[e]
      if (distances[target] !== NO_DISTANCE) continue
      if ((special || type === internalType) && !filter.follows(ordinal, e)) continue
      distances[target] = distance
      queue[length++] = target
    }
  }
}

class DistanceFilter {
  #graph
  #weakMapNames
  /** @type {Set<number>} ephemeron pairs whose first half has been met (and skipped) */
  #pendingPairs = new Set()
  #sloppyFunctionMap
  #nativeContext
  #mapDescriptors

  /** @param {HeapGraph} graph */
  constructor (graph) {
    this.#graph = graph
    this.#weakMapNames = new WeakMapEdgeNames(graph)
    this.#sloppyFunctionMap = graph.strings.indexOf('sloppy_function_map')
    this.#nativeContext = graph.strings.indexOf('system / NativeContext')
    this.#mapDescriptors = graph.strings.indexOf('(map descriptors)')
  }

  /**
   * Whether the BFS may take edge `edge` out of `source` (a target not yet reached).
   * @param {number} source
   * @param {number} edge
   */
  follows (source, edge) {
    const graph = this.#graph
    const sourceType = graph.nodeTypes[source]
    const sourceName = graph.nodeNames[source]
    const edgeType = graph.edgeTypes[edge]
    const edgeName = graph.edgeNames[edge]
    if (sourceType === graph.nodeType.hidden && sourceName === this.#nativeContext &&
      edgeName === this.#sloppyFunctionMap && graph.edgeHasStringName(edge)) {
      return false
    }
    if (sourceType === graph.nodeType.array && sourceName === this.#mapDescriptors && this.#mapDescriptors >= 0) {
      // Descriptor arrays: [0] count, [1] enum cache, then (key, details, value) triples; maps may
      // share them, so the value links are not followed (crbug.com/413608).
      const index = Number.parseInt(graph.edgeName(edge), 10)
      return index < 2 || (index % 3) !== 1
    }
    if (edgeType === graph.edgeType.internal) {
      const pair = this.#weakMapNames.pairId(edgeName)
      if (pair >= 0) return this.#pairCompleted(pair)
    }
    return true
  }

  /**
   * Whether this is the second half of its ephemeron pair to be met: the first is skipped.
   * @param {number} pair
   */
  #pairCompleted (pair) {
    if (this.#pendingPairs.delete(pair)) return true
    this.#pendingPairs.add(pair)
    return false
  }
}

/**
 * An analysis's distances, for code that shows paths or distances: only a diff's earlier
 * snapshots are analysed without them, and nothing of theirs is shown on a path.
 * @param {{distances: Int32Array | null}} analysis
 * @returns {Int32Array}
 */
export function distancesOf (analysis) {
  if (analysis.distances === null) throw new Error('Expected an analysis made with distances (analyzeHeap without distances: false)')
  return analysis.distances
}
