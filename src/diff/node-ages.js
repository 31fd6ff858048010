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
  // Recent unless the middle snapshot has it (leaked), unless the baseline has it (old).
  const ages = new Uint8Array(last.nodeCount).fill(middle ? AGE_RECENT : AGE_LEAKED)
  if (middle) markPresent(last.nodeIds, middle.idIndex(), { marks: ages, value: AGE_LEAKED })
  return markPresent(last.nodeIds, baseline.idIndex(), { marks: ages, value: AGE_OLD })
}

/**
 * Nodes that are never counted as leaked objects: compiled code, object shapes (maps), synthetic
 * roots, and embedder nodes, whose (even) ids are not stable between snapshots.
 * @param {HeapGraph} graph
 * @returns {Uint8Array} 1 for noise, by ordinal
 */
export function markEngineNoise (graph) {
  const { nodeTypes, nodeIds, nodeCount } = graph
  const noiseType = noiseTypes(graph)
  const noise = new Uint8Array(nodeCount)
  for (let o = 0; o < nodeCount; o++) {
    if (noiseType[nodeTypes[o]] === 1 || (nodeIds[o] & 1) === 0) noise[o] = 1
  }
  return noise
}

/**
 * 1 for the node types that are engine bookkeeping, by type index.
 * @param {HeapGraph} graph
 */
function noiseTypes (graph) {
  const { nodeType } = graph
  const noiseType = new Uint8Array(graph.nodeTypeNames.length)
  for (const type of [nodeType.code, nodeType.objectShape, nodeType.synthetic]) {
    if (type >= 0) noiseType[type] = 1
  }
  return noiseType
}
