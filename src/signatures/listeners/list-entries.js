// What the entries of a listener list call: the entry itself when it is a function (a once()
// wrapper unwrapped), or the function a listener record leads to within a few property steps
// (eventemitter3's `{fn, context}`, axios' `{fulfilled, rejected}`, an rxjs Subscriber →
// destination → partialObserver → next), the program's own preferred over a library's. Also the
// event a Map keeps a list under.

import { EdgeCursor, reference, referencedNodes } from '../../query/references.js'
import { packageOf } from '../library-handle.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {ListMeasure} from './listener-lists.js' */

/** Where listener records of event libraries keep the function, tried before any other field. */
const LISTENER_FIELDS = ['fn', 'listener', 'callback', 'handler']
/** Property steps from a listener record to the function it calls, and nodes looked at on the way. */
const MAX_RECORD_DEPTH = 3
const MAX_RECORD_NODES = 64
/** Event types that come from a string in the heap are shown only when they look like a name. */
const EVENT_NAME = /^[A-Za-z][\w:.-]{0,40}$/

/**
 * The functions an array of listener entries calls, and the array's retained size.
 * @param {HeapAnalysis} analysis
 * @param {number} array  ordinal, -1 when the list is gone
 * @param {boolean} deep  see listenerFunction
 * @returns {ListMeasure}
 */
export function measureArray (analysis, array, deep) {
  const { graph, retainedSizes } = analysis
  /** @type {number[]} */
  const listeners = []
  if (array < 0 || graph.nodeName(array) !== 'Array') return { count: 0, retained: 0, listeners, scopes: [] }
  for (const entry of referencedNodes(graph, array, 'element')) {
    const listener = listenerFunction(analysis, entry, deep)
    if (listener >= 0) listeners.push(listener)
  }
  return { count: listeners.length, retained: retainedSizes.at(array), listeners, scopes: [] }
}

/**
 * The function a list entry calls, or -1: the entry itself when it is a function (a `once` wrapper
 * unwrapped), or the function a listener record leads to (eventemitter3 keeps `{fn, context, once}`,
 * an rxjs Subscriber keeps it three steps down). A record's search is breadth first over property
 * edges, bounded, and prefers a function of the program over one of a library or of Node.
 * @param {HeapAnalysis} analysis
 * @param {number} entry
 * @param {boolean} [deep] search records beyond the usual fields: only for lists whose name already
 *   says they hold callbacks, since almost any object reaches some function in a few steps
 */
export function listenerFunction (analysis, entry, deep = false) {
  const { graph } = analysis
  if (graph.nodeTypes[entry] === graph.nodeType.closure) return unwrapOnce(graph, entry)
  if (graph.nodeTypes[entry] !== graph.nodeType.object) return -1
  for (const name of LISTENER_FIELDS) {
    const fn = reference(graph, entry, name)
    if (fn >= 0 && graph.nodeTypes[fn] === graph.nodeType.closure) return fn
  }
  if (!deep) return -1
  const seen = new Set([entry])
  const edge = new EdgeCursor(graph)
  let level = [entry]
  let fallback = -1
  for (let depth = 1; depth <= MAX_RECORD_DEPTH && level.length > 0; depth++) {
    /** @type {number[]} */
    const next = []
    for (const o of level) {
      for (edge.references(o); seen.size < MAX_RECORD_NODES && edge.next();) {
        if (!edge.is('property') || edge.is('property', '__proto__')) continue
        const target = edge.target
        if (seen.has(target)) continue
        seen.add(target)
        if (graph.nodeTypes[target] === graph.nodeType.closure) {
          const place = analysis.locations.locationOf(target)
          const script = place?.scriptName ?? ''
          if (script !== '' && !script.startsWith('node:') && packageOf(script) === null) return target
          if (fallback < 0) fallback = target
        } else if (graph.nodeTypes[target] === graph.nodeType.object) next.push(target)
      }
    }
    level = next
  }
  return fallback
}

/**
 * A `once` listener is a wrapper that holds the function that was passed: a bound function whose
 * state object has it as `listener` (Node 20, 22), or a closure with a `listener` property (Node 24).
 * @param {HeapGraph} graph
 * @param {number} closure
 */
function unwrapOnce (graph, closure) {
  let state = reference(graph, closure, 'bound_this', 'internal')
  if (state < 0) state = reference(graph, closure, 'bound_this', 'shortcut')
  const listener = reference(graph, state < 0 ? closure : state, 'listener')
  return listener >= 0 && graph.nodeTypes[listener] === graph.nodeType.closure ? listener : closure
}

/**
 * The event a Map keeps the value in slot `slot` of its hash table under: the key sits in the
 * slot before its value. '' when the key is not a string that looks like an event name.
 * @param {HeapGraph} graph
 * @param {number} table
 * @param {number} slot
 */
export function eventKeyOf (graph, table, slot) {
  const key = reference(graph, table, String(slot - 1), 'internal')
  const type = key >= 0 && graph.nodeTypes[key] === graph.nodeType.string ? graph.nodeName(key) : ''
  return EVENT_NAME.test(type) ? type : ''
}
