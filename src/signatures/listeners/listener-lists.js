// The shapes a listener list takes (heapsnapshot-format.md 7, and observed on Node 20), one module
// each, in the order a growth owner is tried against them:
//
//   EventEmitter   emitter ._events → Object .<event> → closure (one listener) | Array [i] → closure
//   EventTarget    target .<symbol kEvents> → Map {table} → {slot} → Object .next → Listener .next
//                  → Listener ...   (a linked list; each Listener has .callback → closure)
//   event map      holder .<name> → Map {table} → {slot} → Array [i] | Set → closure | record, or
//                  a plain object .<event> → Array [i] | object .<token> → closure (mitt, emittery,
//                  nanoevents, pubsub-js: registries keyed by event name)
//   observer list  holder .<listeners|subscribers|handlers|...> → Array [i] → closure | record
//   channel        channel ._subscribers → Array [i] → closure (node:diagnostics_channel, which
//                  copies the array on every subscribe)
//
// The diff names one node of the list as the growth owner (the Array, the `_events` object, the
// last Listener that existed in the baseline); each shape finds its lists from there, and counts
// their listeners again in every snapshot through ids that do not change.

import { channelLists } from './diagnostics-channel.js'
import { eventEmitterLists } from './event-emitter.js'
import { eventMapLists } from './event-map.js'
import { eventTargetLists } from './event-target.js'
import { observerLists } from './observer-list.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */

/**
 * @typedef {object} ListenerList
 * @property {'EventEmitter' | 'EventTarget' | 'observer list' | 'event map' | 'diagnostics channel'} kind
 * @property {number} emitter  ordinal (last snapshot) of the object the listeners are added to
 * @property {string} event    the event name, or the channel's ('' when the heap does not say)
 * @property {number} listId   V8 id that finds the list in every snapshot: the emitter (EventEmitter),
 *                             the list's head object (EventTarget), the array (observer list, event map),
 *                             the channel (diagnostics channel)
 */

/**
 * One list in one snapshot.
 * @typedef {object} ListMeasure
 * @property {number} count        its listeners
 * @property {number} retained     the list's retained size (with its shared scopes)
 * @property {number[]} listeners  the functions its entries call
 * @property {number[]} scopes     scopes the listeners share that the emitter keeps alive (EventEmitter lists)
 */

/**
 * A list shape: the lists of its kind a growth owner belongs to, and one list measured in one snapshot.
 * @typedef {object} ListShape
 * @property {ListenerList['kind']} kind
 * @property {(graph: HeapGraph, owner: number) => ListenerList[]} find
 * @property {(analysis: HeapAnalysis, list: ListenerList) => ListMeasure} measure
 */

/** @type {ListShape[]} */
const SHAPES = [eventEmitterLists, eventTargetLists, eventMapLists, channelLists, observerLists]

/**
 * The listener lists a growth owner belongs to, found by walking from it to the emitter.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
export function findListenerLists (graph, owner) {
  return SHAPES.flatMap((shape) => shape.find(graph, owner))
}

/**
 * The list's listener functions, their count and the list's retained size in one snapshot.
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {ListMeasure}
 */
export function measureList (analysis, list) {
  const shape = /** @type {ListShape} */ (SHAPES.find((s) => s.kind === list.kind))
  return shape.measure(analysis, list)
}
