// Objects held straight from the GC roots. An open socket, a server or an fs.watch handle is held by
// its native handle (`(Global handles)`, Node's embedder roots), and an object two roots reach is
// dominated by the root itself: no program object owns them. Their number is what leaks when a
// program opens such handles and never closes them, and what stays flat when it closes them.

import { markEngineNoise } from './node-ages.js'
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
  const { nodeTypes } = graph
  const synthetic = graph.nodeType.synthetic
  const flags = new Uint8Array(graph.nodeCount)
  for (let o = 0; o < flags.length; o++) if (nodeTypes[o] === synthetic) flags[o] = 1
  flags[graph.rootOrdinal] = 1
  for (const o of userRoots) flags[o] = 1
  return flags
}

/**
 * How many objects of the named classes one snapshot holds straight from the GC roots (their
 * nearest dominator that is not engine bookkeeping is a root), and their retained bytes. Counted
 * by class name, which is what matches across snapshots. The roots and the engine's nodes are
 * marked first, a byte per node in order (markGcRoots, markEngineNoise), which the climbs up the
 * dominators read.
 * @param {HeapAnalysis} analysis
 * @param {Set<string>} names
 * @returns {Map<string, {count: number, bytes: number}>}
 */
export function countRootHeld (analysis, names) {
  const { graph, dominators, classOf, classes, retainedSizes } = analysis
  const roots = markGcRoots(analysis)
  const noise = markEngineNoise(graph)
  // Per class, the slot of its name (-1 when not asked of): classes of one name count together.
  const asked = [...names]
  const slotOf = Int32Array.from(classes.names, (name) => asked.indexOf(name))
  const counts = new Float64Array(asked.length)
  const bytes = new Float64Array(asked.length)
  for (let o = 0; o < graph.nodeCount; o++) {
    const slot = slotOf[classOf[o]]
    if (slot < 0 || noise[o] === 1 || roots[o] === 1) continue
    let up = dominators[o]
    // A root first: synthetic roots are engine nodes too.
    for (let step = 0; step < MAX_NOISE_STEPS && roots[up] === 0 && noise[up] === 1; step++) up = dominators[up]
    if (roots[up] === 0) continue
    counts[slot]++
    bytes[slot] += retainedSizes.at(o)
  }
  return new Map(asked.map((name, k) => [name, { count: counts[k], bytes: bytes[k] }]))
}
