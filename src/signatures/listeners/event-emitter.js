// EventEmitter listener lists: emitter ._events → Object .<event> → closure (one listener) |
// Array [i] → closure. The list is found again in every snapshot by the emitter's id, and once()
// listeners are wrappers around the function the program passed.

import { EdgeCursor, propertyTarget, reference, referencedNodes } from '../../query/references.js'
import { unwrapBound } from '../../query/heap-values.js'
import { listenerFunction, measureArray } from './list-entries.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {ListenerList, ListMeasure, ListShape} from './listener-lists.js' */

/** @type {ListShape} */
export const eventEmitterLists = { kind: 'EventEmitter', find, measure }

/**
 * The EventEmitter lists a growth owner belongs to: the owner is the emitter, its `_events`
 * object, or one event's array.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
function find (graph, owner) {
  /** @type {Array<[emitter: number, events: number, only: string | null]>} */
  const emitters = []
  const events = reference(graph, owner, '_events')
  if (events >= 0) emitters.push([owner, events, null])
  const edge = new EdgeCursor(graph)
  const up = new EdgeCursor(graph)
  for (edge.retainers(owner); edge.next();) {
    if (!edge.is('property')) continue
    if (edge.is('property', '_events')) emitters.push([edge.source, owner, null])
    else for (up.retainers(edge.source); up.next();) if (up.is('property', '_events')) emitters.push([up.source, edge.source, edge.name])
  }
  // An object that keeps its own emitter and also files each listener elsewhere (a pub/sub engine's
  // `ee` beside its table of subscriptions) dominates the listeners itself: look one step down.
  if (events < 0) {
    for (edge.references(owner); edge.next();) {
      if (!edge.is('property') || edge.is('property', '__proto__')) continue
      const inner = reference(graph, edge.target, '_events')
      if (inner >= 0) emitters.push([edge.target, inner, null])
    }
  }
  /** @type {ListenerList[]} */
  const lists = []
  for (const [emitter, eventsObject, only] of emitters) {
    for (edge.references(eventsObject); edge.next();) {
      if (!edge.is('property') || edge.is('property', '__proto__')) continue
      const event = edge.name
      if (only === null || event === only) lists.push({ kind: 'EventEmitter', emitter, event, listId: graph.nodeIds[emitter] })
    }
  }
  return lists
}

/**
 * The listeners of one event of an emitter: the one function `_events[event]` holds alone, or the
 * functions of its array; with the scopes they share (sharedScopes).
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {ListMeasure}
 */
function measure (analysis, list) {
  const { graph, retainedSizes } = analysis
  const emitter = graph.findOrdinalById(list.listId)
  const events = reference(graph, emitter, '_events')
  const entries = events < 0 ? -1 : reference(graph, events, list.event)
  if (entries >= 0 && graph.nodeName(entries) !== 'Array') {
    const single = listenerFunction(analysis, entries)
    return single < 0 ? { count: 0, retained: 0, listeners: [], scopes: [] } : { count: 1, retained: retainedSizes.at(entries), listeners: [single], scopes: [] }
  }
  const measured = measureArray(analysis, entries, false)
  const scopes = entries < 0 ? [] : sharedScopes(analysis, measured.listeners, emitter)
  let retained = measured.retained
  for (const scope of scopes) retained += retainedSizes.at(scope)
  return { ...measured, retained, scopes }
}

/**
 * The scopes of listeners that the emitter or its `_events` object keeps alive rather than the
 * listener itself: two listeners made by one call (events.on() adds one for the event and one
 * for 'error') share their scope, and whatever it buffers is dominated above the list. Counted
 * once each.
 * @param {HeapAnalysis} analysis
 * @param {number[]} listeners
 * @param {number} emitter
 * @returns {number[]}
 */
function sharedScopes (analysis, listeners, emitter) {
  const { graph, dominators } = analysis
  const events = reference(graph, emitter, '_events')
  /** @type {Set<number>} */
  const scopes = new Set()
  for (const fn of listeners) {
    const scope = propertyTarget(graph, unwrapBound(graph, fn), 'context')
    if (scope >= 0 && (dominators[scope] === emitter || dominators[scope] === events)) scopes.add(scope)
  }
  return [...scopes]
}

/**
 * The entries of an EventEmitter's list for the event (`_events[event]`: an array, or the one
 * function it holds alone); none for other kinds of list.
 * @param {HeapGraph} graph
 * @param {ListenerList} list
 * @returns {number[]}
 */
export function emitterEntries (graph, list) {
  if (list.kind !== 'EventEmitter') return []
  const emitter = graph.findOrdinalById(list.listId)
  const events = emitter < 0 ? -1 : reference(graph, emitter, '_events')
  const entries = events < 0 ? -1 : reference(graph, events, list.event)
  if (entries < 0) return []
  return graph.nodeName(entries) === 'Array' ? referencedNodes(graph, entries, 'element') : [entries]
}

/**
 * Whether a listener entry is the wrapper once() adds. Node 20 and 22 bind a function to a state
 * object that holds the function passed (`{fired, wrapFn, target, type, listener}`); Node 24 makes
 * a closure with a `listener` property whose scope holds `fired`.
 * @param {HeapGraph} graph
 * @param {number} o
 */
export function isOnceWrapper (graph, o) {
  if (graph.nodeTypes[o] !== graph.nodeType.closure) return false
  let state = reference(graph, o, 'bound_this', 'internal')
  if (state < 0) state = reference(graph, o, 'bound_this', 'shortcut')
  if (state >= 0) return reference(graph, state, 'fired') >= 0 && reference(graph, state, 'listener') >= 0
  const scope = reference(graph, o, 'context', 'internal')
  return scope >= 0 && reference(graph, o, 'listener') >= 0 && reference(graph, scope, 'fired', 'context') >= 0
}
