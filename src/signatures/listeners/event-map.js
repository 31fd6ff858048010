// Event maps: a registry of handler lists keyed by event name.
//
//   holder .<name> → Map {table} → {slot} → Array [i] | Set {table} → closure | record
//                                                    (mitt; emittery keeps a Set per event)
//   holder .<name> → Object .<event> → Array [i] | Object .<token> → closure | record
//                                                    (nanoevents; pubsub-js keeps its
//                                                    subscribers per topic under tokens)
//
// A list kept in a Map is found from the Map's slot; one kept under a property, only in a plain
// object (a registry, not a class instance that names a list of its own: those are observer
// lists) whose every value is such a list. The list is found again in every snapshot by its id.

import { collectionKind, collectionOfStore, forEachEntry } from '../../query/collection-entries.js'
import { EdgeCursor, retainers } from '../../query/references.js'
import { eventKeyOf, listenerFunction, measureArray } from './list-entries.js'
import { OBSERVER_NAMES } from './observer-list.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {ListenerList, ListMeasure, ListShape} from './listener-lists.js' */

/** @type {ListShape} */
export const eventMapLists = { kind: 'event map', find, measure }

/** An object's properties looked at to tell a registry of lists from other objects. */
const MAX_REGISTRY_PROPERTIES = 64

/**
 * The event map list a growth owner is: an array, a Set or an object of functions that is a value
 * of a Map, or of a plain object all of whose values are such lists.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
function find (graph, owner) {
  if (!isHandlerList(graph, owner)) return []
  const registry = eventMapOf(graph, owner) ?? eventObjectOf(graph, owner)
  return registry === null ? [] : [{ kind: 'event map', emitter: registry.map, event: registry.event, listId: graph.nodeIds[owner] }]
}

/**
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {ListMeasure}
 */
function measure (analysis, list) {
  const { graph, retainedSizes } = analysis
  const owner = graph.findOrdinalById(list.listId)
  const kind = owner < 0 ? null : collectionKind(graph, owner)
  if (kind !== 'Set' && kind !== 'object') return measureArray(analysis, owner, false)
  /** @type {number[]} */
  const listeners = []
  forEachEntry(graph, owner, kind, (key, value) => {
    const entry = kind === 'Set' ? key : value
    const listener = entry < 0 ? -1 : listenerFunction(analysis, entry, false)
    if (listener >= 0) listeners.push(listener)
  })
  return { count: listeners.length, retained: retainedSizes.at(owner), listeners, scopes: [] }
}

/**
 * Whether a node can be one event's list of handlers: an array, a Set, or a plain object whose
 * values are functions (pubsub-js' subscribers of a topic, by token).
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isHandlerList (graph, o) {
  const kind = collectionKind(graph, o)
  if (kind === 'array' || kind === 'Set') return true
  if (kind !== 'object' || !isPlainObject(graph, o)) return false
  let functions = 0
  let others = 0
  forEachEntry(graph, o, 'object', (_, value) => {
    if (value >= 0 && graph.nodeTypes[value] === graph.nodeType.closure) functions++
    else others++
  })
  return functions > 0 && others === 0
}

/**
 * A plain object (`{}` and object literals): its class is Object, or the property list DevTools
 * names it by.
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isPlainObject (graph, o) {
  const name = graph.nodeName(o)
  return graph.nodeTypes[o] === graph.nodeType.object && (name === 'Object' || name.startsWith('{'))
}

/**
 * The Map a list is a value of, and the string key it is stored under, or null.
 * @param {HeapGraph} graph
 * @param {number} list
 * @returns {{map: number, event: string} | null}
 */
function eventMapOf (graph, list) {
  for (const slot = retainers(graph, list); slot.next();) {
    if (!slot.is('internal') || Number.isNaN(slot.index)) continue
    const map = collectionOfStore(graph, slot.source)
    if (map === slot.source || collectionKind(graph, map) !== 'Map') continue
    return { map, event: eventKeyOf(graph, slot.source, slot.index) }
  }
  return null
}

/**
 * The plain object a list is a property of when every value of that object is a list of handlers
 * (nanoevents' `events`, pubsub-js' `messages`), and the property's name, or null. A list under a
 * listener-like name (EventEmitter2's `_listeners` in its wildcard tree) is an observer list: its
 * name is no event.
 * @param {HeapGraph} graph
 * @param {number} list
 * @returns {{map: number, event: string} | null}
 */
function eventObjectOf (graph, list) {
  for (const edge = new EdgeCursor(graph).retainers(list); edge.next();) {
    if (!edge.is('property') || OBSERVER_NAMES.test(edge.name) || !isPlainObject(graph, edge.source)) continue
    const registry = edge.source
    let lists = 0
    let others = 0
    forEachEntry(graph, registry, 'object', (_, value) => {
      if (lists + others >= MAX_REGISTRY_PROPERTIES) return
      if (value === list || (value >= 0 && isHandlerList(graph, value))) lists++
      else others++
    })
    if (others === 0 && lists > 0) return { map: registry, event: edge.name }
  }
  return null
}
