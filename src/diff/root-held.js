// Objects held straight from the GC roots. An open socket, a server or an fs.watch handle is held by
// its native handle (`(Global handles)`, Node's embedder roots), and an object two roots reach is
// dominated by the root itself: no program object owns them. Their number is what leaks when a
// program opens such handles and never closes them, and what stays flat when it closes them.

import { engineNoiseTest } from './node-ages.js'
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
  const isRoot = gcRootTest(analysis)
  const flags = new Uint8Array(analysis.graph.nodeCount)
  for (let o = 0; o < flags.length; o++) if (isRoot(o)) flags[o] = 1
  return flags
}

/**
 * markGcRoots' answer for one node at a time, for a question asked of a few nodes.
 * @param {HeapAnalysis} analysis
 * @returns {(ordinal: number) => boolean}
 */
function gcRootTest ({ graph, userRoots }) {
  const { nodeTypes, rootOrdinal } = graph
  const synthetic = graph.nodeType.synthetic
  return (o) => nodeTypes[o] === synthetic || o === rootOrdinal || userRoots.includes(o)
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
  const { graph, dominators, classOf, classes, retainedSizes } = analysis
  const isNoise = engineNoiseTest(graph)
  const isRoot = gcRootTest(analysis)
  // Per class, the slot of its name (-1 when not asked of): classes of one name count together.
  const asked = [...names]
  const slotOf = Int32Array.from(classes.names, (name) => asked.indexOf(name))
  const counts = new Float64Array(asked.length)
  const bytes = new Float64Array(asked.length)
  for (let o = 0; o < classOf.length; o++) {
    const slot = slotOf[classOf[o]]
    if (slot < 0 || isNoise(o) || isRoot(o)) continue
    let up = dominators[o]
    for (let step = 0; step < MAX_NOISE_STEPS && !isRoot(up) && isNoise(up); step++) up = dominators[up]
    if (!isRoot(up)) continue
    counts[slot]++
    bytes[slot] += retainedSizes.at(o)
  }
  return new Map(asked.map((name, k) => [name, { count: counts[k], bytes: bytes[k] }]))
}
