// Objects held straight from the GC roots. An open socket, a server or an fs.watch handle is held by
// its native handle (`(Global handles)`, Node's embedder roots), and an object two roots reach is
// dominated by the root itself: no program object owns them. Their number is what leaks when a
// program opens such handles and never closes them, and what stays flat when it closes them.

import { noiseTypes } from './node-ages.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

/** Engine nodes climbed over between an object and the root that holds it (embedder wrappers). */
const MAX_NOISE_STEPS = 16

/**
 * The root, the synthetic GC sub-roots (`(Global handles)`, `(Strong roots)`, `(Handle scope)`,
 * Node's embedder roots) and the user roots (the global object). From V8 12 (Node 22) on, the
 * global object dominates what its functions' contexts and the native handles both reach (the
 * timer lists, for one), where V8 11 left it to the root: either way no program object owns it.
 * @param {HeapAnalysis} analysis
 * @returns {Uint8Array} 1 for a root, by ordinal
 */
export function markGcRoots (analysis) {
  const { graph, userRoots } = analysis
  const { nodeTypes, rootOrdinal } = graph
  const synthetic = graph.nodeType.synthetic
  const flags = new Uint8Array(graph.nodeCount)
  for (let o = 0; o < flags.length; o++) if (isGcRoot(nodeTypes, synthetic, rootOrdinal, userRoots, o)) flags[o] = 1
  return flags
}

/**
 * markGcRoots' answer for one node, for a question asked of a few nodes. A function of its
 * arguments alone, not a closure made per snapshot: V8 inlines a call to one function object, and
 * a new closure at the same call for the next snapshot would throw that code away.
 * @param {Uint8Array} nodeTypes
 * @param {number} synthetic  the synthetic node type's index
 * @param {number} rootOrdinal
 * @param {number[]} userRoots
 * @param {number} o
 */
function isGcRoot (nodeTypes, synthetic, rootOrdinal, userRoots, o) {
  if (nodeTypes[o] === synthetic || o === rootOrdinal) return true
  // A loop, not includes(): one user root as a rule, and a loop V8 inlines where it asks.
  for (let i = 0; i < userRoots.length; i++) if (userRoots[i] === o) return true
  return false
}

/**
 * markEngineNoise's answer for one node (node-ages.js), as isGcRoot is markGcRoots'.
 * @param {Uint8Array} noiseType  1 per engine node type
 * @param {Uint8Array} nodeTypes
 * @param {Uint32Array} nodeIds
 * @param {number} o
 */
function isEngineNoise (noiseType, nodeTypes, nodeIds, o) {
  return noiseType[nodeTypes[o]] === 1 || (nodeIds[o] & 1) === 0
}

/**
 * How many objects of the named classes one snapshot holds straight from the GC roots (their
 * nearest dominator that is not engine bookkeeping is a root), and their retained bytes. Counted
 * by class name, which is what matches across snapshots. What is noise or a root is asked of the
 * objects of those classes and their dominators alone, not marked for every node.
 * @param {HeapAnalysis} analysis
 * @param {Set<string>} names
 * @returns {Map<string, {count: number, bytes: number}>}
 */
export function countRootHeld (analysis, names) {
  const { graph, dominators, classOf, classes, retainedSizes, userRoots } = analysis
  const { nodeTypes, nodeIds, rootOrdinal } = graph
  const synthetic = graph.nodeType.synthetic
  const noiseType = noiseTypes(graph)
  // Per class, the slot of its name (-1 when not asked of): classes of one name count together.
  const asked = [...names]
  const slotOf = Int32Array.from(classes.names, (name) => asked.indexOf(name))
  const counts = new Float64Array(asked.length)
  const bytes = new Float64Array(asked.length)
  for (let o = 0; o < classOf.length; o++) {
    const slot = slotOf[classOf[o]]
    if (slot < 0 || isEngineNoise(noiseType, nodeTypes, nodeIds, o) || isGcRoot(nodeTypes, synthetic, rootOrdinal, userRoots, o)) continue
    let up = dominators[o]
    for (let step = 0; step < MAX_NOISE_STEPS && !isGcRoot(nodeTypes, synthetic, rootOrdinal, userRoots, up) && isEngineNoise(noiseType, nodeTypes, nodeIds, up); step++) up = dominators[up]
    if (!isGcRoot(nodeTypes, synthetic, rootOrdinal, userRoots, up)) continue
    counts[slot]++
    bytes[slot] += retainedSizes.at(o)
  }
  return new Map(asked.map((name, k) => [name, { count: counts[k], bytes: bytes[k] }]))
}
