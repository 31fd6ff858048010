// A script's source text as the snapshot holds it. Every Script object keeps its source:
//
//   closure --internal "shared"--> SharedFunctionInfo --internal "script_or_debug_info"--> Script
//   Script --internal "source"--> string | concatenated string
//
// V8 writes string values cut at --heap-snapshot-string-limit characters (1024 by default), so a
// longer file arrives as its first kilobyte: lines and columns in it are still right, the rest is
// unknown.

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
  const sharedName = graph.strings.indexOf('shared')
  const sourceName = graph.strings.indexOf('source')
  if (sharedName < 0 || sourceName < 0 || graph.nodeTypes[closure] !== graph.nodeType.closure) return null
  const shared = graph.findEdge(closure, graph.edgeType.internal, sharedName)
  if (shared < 0) return null
  const scriptNames = SCRIPT_EDGE_NAMES.map((name) => graph.strings.indexOf(name)).filter((name) => name >= 0)
  const script = scriptOf(graph, graph.edgeTargets[shared], scriptNames, sourceName)
  if (script < 0) return null
  const source = graph.findEdge(script, graph.edgeType.internal, sourceName)
  return stringValue(graph, graph.edgeTargets[source])
}

/**
 * The Script of a SharedFunctionInfo (one hop further when a DebugInfo sits between), or -1.
 * @param {HeapGraph} graph
 * @param {number} shared
 * @param {number[]} scriptNames
 * @param {number} sourceName
 */
function scriptOf (graph, shared, scriptNames, sourceName) {
  const isScript = (/** @type {number} */ o) =>
    graph.nodeTypes[o] === graph.nodeType.code && graph.findEdge(o, graph.edgeType.internal, sourceName) >= 0
  for (const name of scriptNames) {
    const edge = graph.findEdge(shared, graph.edgeType.internal, name)
    if (edge < 0) continue
    const target = graph.edgeTargets[edge]
    if (isScript(target)) return target
    for (let e = graph.firstEdge[target], end = graph.firstEdge[target + 1]; e < end; e++) {
      if (isScript(graph.edgeTargets[e])) return graph.edgeTargets[e]
    }
  }
  return -1
}

/**
 * The text of a string node: a flat string's name, or a concatenated string's pieces joined in
 * order (walked with a stack: a source built by many `+` is a deep tree). Null for a sliced string,
 * whose offset into its parent the snapshot does not record, and for other nodes.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {string | null}
 */
function stringValue (graph, ordinal) {
  const { string, concatenatedString } = graph.nodeType
  const first = graph.strings.indexOf('first')
  const second = graph.strings.indexOf('second')
  const parts = []
  let length = 0
  const stack = [ordinal]
  while (stack.length > 0) {
    const o = /** @type {number} */ (stack.pop())
    const type = graph.nodeTypes[o]
    if (type === string) {
      const text = graph.nodeName(o)
      parts.push(text)
      length += text.length
      if (length > MAX_SOURCE_CHARS) return null
      continue
    }
    if (type !== concatenatedString) return null
    const a = graph.findEdge(o, graph.edgeType.internal, first)
    const b = graph.findEdge(o, graph.edgeType.internal, second)
    if (a < 0 || b < 0) return null
    stack.push(graph.edgeTargets[b], graph.edgeTargets[a])
  }
  return parts.join('')
}
