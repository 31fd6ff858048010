// A script's source text as the snapshot holds it. Every Script object keeps its source:
//
//   closure --internal "shared"--> SharedFunctionInfo --internal "script_or_debug_info"--> Script
//   Script --internal "source"--> string | concatenated string
//
// V8 writes string values cut at --heap-snapshot-string-limit characters (1024 by default), so a
// longer file arrives as its first kilobyte: lines and columns in it are still right, the rest is
// unknown.

import { stringText } from '../query/heap-values.js'
import { findReference, reference } from '../query/references.js'
/** @import {HeapGraph} from '../graph/heap-graph.js' */

const SCRIPT_EDGE_NAMES = ['script_or_debug_info', 'script']
/** Bounds the work on a source made of many cons-string pieces. */
const MAX_SOURCE_CHARS = 4_000_000

/**
 * The source text of the script a closure's function belongs to, as far as the snapshot has it,
 * or null when the closure does not lead to its Script or the text is not a plain or
 * concatenated string.
 * @param {HeapGraph} graph
 * @param {number} closure
 * @returns {string | null}
 */
export function scriptSourceOf (graph, closure) {
  if (graph.nodeTypes[closure] !== graph.nodeType.closure) return null
  const shared = reference(graph, closure, 'shared', 'internal')
  const script = shared < 0 ? -1 : scriptOf(graph, shared)
  return script < 0 ? null : stringText(graph, reference(graph, script, 'source', 'internal'), MAX_SOURCE_CHARS)
}

/**
 * The Script of a SharedFunctionInfo (one hop further when a DebugInfo sits between), or -1.
 * @param {HeapGraph} graph
 * @param {number} shared
 */
function scriptOf (graph, shared) {
  const isScript = (/** @type {number} */ o) =>
    graph.nodeTypes[o] === graph.nodeType.code && reference(graph, o, 'source', 'internal') >= 0
  for (const name of SCRIPT_EDGE_NAMES) {
    const target = reference(graph, shared, name, 'internal')
    if (target < 0) continue
    if (isScript(target)) return target
    const script = findReference(graph, target, (edge) => isScript(edge.target))
    if (script >= 0) return script
  }
  return -1
}
