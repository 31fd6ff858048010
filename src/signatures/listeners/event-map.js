// Event maps: holder .<name> → Map {table} → {slot} → Array [i] → closure | record. mitt and other
// registries keep one array of handlers per event name in a Map; the list is found again in every
// snapshot by the array's id.

import { collectionKind, collectionOfStore } from '../../query/collection-entries.js'
import { retainers } from '../../query/references.js'
import { eventKeyOf, measureArray } from './list-entries.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {ListenerList, ListMeasure, ListShape} from './listener-lists.js' */

/** @type {ListShape} */
export const eventMapLists = { kind: 'event map', find, measure }

/**
 * The event map list a growth owner is: an array that is a value of a Map.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
function find (graph, owner) {
  if (graph.nodeName(owner) !== 'Array') return []
  const registry = eventMapOf(graph, owner)
  return registry === null ? [] : [{ kind: 'event map', emitter: registry.map, event: registry.event, listId: graph.nodeIds[owner] }]
}

/**
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {ListMeasure}
 */
function measure (analysis, list) {
  return measureArray(analysis, analysis.graph.findOrdinalById(list.listId), false)
}

/**
 * The Map an array is a value of, and the string key it is stored under, or null.
 * @param {HeapGraph} graph
 * @param {number} array
 * @returns {{map: number, event: string} | null}
 */
function eventMapOf (graph, array) {
  for (const slot = retainers(graph, array); slot.next();) {
    if (!slot.is('internal') || Number.isNaN(slot.index)) continue
    const map = collectionOfStore(graph, slot.source)
    if (map === slot.source || collectionKind(graph, map) !== 'Map') continue
    return { map, event: eventKeyOf(graph, slot.source, slot.index) }
  }
  return null
}
