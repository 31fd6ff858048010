// Small reads of JS values as V8 lays them out in a snapshot (heapsnapshot-format.md 7): the
// value of an oddball (true, false, null, undefined), the function a bound function wraps, the
// variable that holds an object, and what a WeakRef points at.

import { findReference, propertyTarget, reference, retainers } from './references.js'
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {EdgeCursor} from './references.js' */

/**
 * The name of a variable or property that holds `ordinal` (a scope's `retries`, an object's
 * `cache`), or null when no retainer names it so. Needs the retainer index.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {string | null}
 */
export function variableName (graph, ordinal) {
  for (const edge = retainers(graph, ordinal); edge.next();) {
    if (!edge.is('context') && !edge.is('property')) continue
    const name = edge.name
    if (/^#?[A-Za-z_$][\w$]*$/.test(name)) return name
  }
  return null
}

/**
 * The value of an oddball node ('true', 'false', 'null', 'undefined', 'hole', ...), or null for
 * any other node. An Oddball's first slot (after its map) is its `to_string` string. V8 11 names
 * every oddball `system / Oddball`; V8 12 and later (Node 22, 24) name it after that string.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {string | null}
 */
export function oddballValue (graph, ordinal) {
  if (ordinal < 0 || graph.nodeTypes[ordinal] !== graph.nodeType.hidden) return null
  const string = findReference(graph, ordinal, isHiddenString)
  if (string < 0) return null
  const name = graph.nodeName(ordinal)
  const value = graph.nodeName(string)
  return name === 'system / Oddball' || name === value ? value : null
}

/** @param {EdgeCursor} edge */
function isHiddenString (edge) {
  return edge.is('hidden') && edge.graph.nodeTypes[edge.target] === edge.graph.nodeType.string
}

/**
 * The function a closure runs: itself, or for a bound function (`native_bind`) the target it wraps.
 * @param {HeapGraph} graph
 * @param {number} closure
 */
export function unwrapBound (graph, closure) {
  let current = closure
  for (let hops = 0; hops < 4 && current >= 0; hops++) {
    const target = propertyTarget(graph, current, 'bound_function')
    if (target < 0 || graph.nodeTypes[target] !== graph.nodeType.closure) return current
    current = target
  }
  return current
}

/**
 * Whether a node is a WeakRef: an object of that class whose prototype has `deref` (the
 * prototype itself, also named WeakRef, has it as its own).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 */
export function isWeakRef (graph, ordinal) {
  if (ordinal < 0 || graph.nodeTypes[ordinal] !== graph.nodeType.object || graph.nodeName(ordinal) !== 'WeakRef') return false
  return propertyTarget(graph, ordinal, 'deref') < 0 && propertyTarget(graph, propertyTarget(graph, ordinal, '__proto__'), 'deref') >= 0
}

/**
 * What a WeakRef points at, or -1 once its target is collected: a live WeakRef has a weak edge
 * `target` (which never retains); a cleared one has none, or one to undefined.
 * @param {HeapGraph} graph
 * @param {number} weakRef
 */
export function weakRefTarget (graph, weakRef) {
  const target = reference(graph, weakRef, 'target', 'weak')
  return target < 0 || oddballValue(graph, target) !== null ? -1 : target
}

/**
 * The text of a string node: a flat string's name, or a concatenated string's pieces joined in
 * order (V8 names a concatenated string "(concatenated string)"; its `first` and `second` are the
 * pieces, walked with a stack: a text built by many `+` is a deep tree). Null past `maxChars`, for
 * a sliced string, whose offset into its parent the snapshot does not record, and for other nodes.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {number} maxChars
 * @returns {string | null}
 */
export function stringText (graph, ordinal, maxChars) {
  if (ordinal < 0) return null
  const { string, concatenatedString } = graph.nodeType
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
      if (length > maxChars) return null
      continue
    }
    if (type !== concatenatedString) return null
    const a = reference(graph, o, 'first', 'internal')
    const b = reference(graph, o, 'second', 'internal')
    if (a < 0 || b < 0) return null
    stack.push(b, a)
  }
  return parts.join('')
}
