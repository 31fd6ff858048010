import { AGE_LEAKED, AGE_OLD, AGE_RECENT } from '../query/ages.js'
import { markPresent } from './match-ids.js'
/** @import {HeapGraph} from '../graph/heap-graph.js' */

/**
 * The age of every node of the last snapshot: AGE_OLD when its id is in the baseline, AGE_LEAKED when
 * it was allocated after the baseline (and, with three snapshots, before the middle one), AGE_RECENT
 * when it was allocated in the last step (three snapshots only).
 * @param {HeapGraph} last
 * @param {HeapGraph} baseline
 * @param {HeapGraph} [middle]
 * @returns {Uint8Array} AGE_* by ordinal of `last`
 */
export function computeNodeAges (last, baseline, middle) {
  const byId = last.ordinalsById()
  const inBaseline = markPresent(last.nodeIds, byId, baseline.nodeIds, baseline.ordinalsById())
  const inMiddle = middle ? markPresent(last.nodeIds, byId, middle.nodeIds, middle.ordinalsById()) : undefined
  const ages = new Uint8Array(last.nodeCount)
  for (let o = 0; o < ages.length; o++) {
    if (inBaseline[o] === 1) ages[o] = AGE_OLD
    else if (inMiddle === undefined || inMiddle[o] === 1) ages[o] = AGE_LEAKED
    else ages[o] = AGE_RECENT
  }
  return ages
}

/**
 * Nodes that are never counted as leaked objects: compiled code, object shapes (maps), synthetic
 * roots, and embedder nodes, whose (even) ids are not stable between snapshots.
 * @param {HeapGraph} graph
 * @returns {Uint8Array} 1 for noise, by ordinal
 */
export function markEngineNoise (graph) {
  const { nodeTypes, nodeIds, nodeType, nodeCount } = graph
  const noiseType = new Uint8Array(graph.nodeTypeNames.length)
  for (const type of [nodeType.code, nodeType.objectShape, nodeType.synthetic]) {
    if (type >= 0) noiseType[type] = 1
  }
  const noise = new Uint8Array(nodeCount)
  for (let o = 0; o < nodeCount; o++) {
    if (noiseType[nodeTypes[o]] === 1 || (nodeIds[o] & 1) === 0) noise[o] = 1
  }
  return noise
}
