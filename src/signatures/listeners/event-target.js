// EventTarget listener lists: target .<symbol kEvents> → Map {table} → {slot} → Object .next →
// Listener .next → Listener ... (a linked list; each Listener has .callback → closure). The list
// is found again in every snapshot by its head object's id.

import { findRetainer, reference, referencedNodes, retainer, retainers } from '../../query/references.js'
import { eventKeyOf } from './list-entries.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {EdgeCursor} from '../../query/references.js' */
/** @import {ListenerList, ListMeasure, ListShape} from './listener-lists.js' */

const EVENTS_KEY = '<symbol kEvents>'

/** @type {ListShape} */
export const eventTargetLists = { kind: 'EventTarget', find, measure }

/**
 * The EventTarget lists a growth owner belongs to: from a Listener back to the list head, or from
 * the target down to its heads.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
function find (graph, owner) {
  /** @type {ListenerList[]} */
  const lists = []
  for (const head of eventTargetHeads(graph, owner)) {
    const target = eventTargetOf(graph, head)
    if (target !== null) lists.push({ kind: 'EventTarget', emitter: target.target, event: target.event, listId: graph.nodeIds[head] })
  }
  return lists
}

/**
 * The callbacks of the list's Listeners, walked from its head.
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {ListMeasure}
 */
function measure (analysis, list) {
  const { graph, retainedSizes } = analysis
  const head = graph.findOrdinalById(list.listId)
  /** @type {number[]} */
  const listeners = []
  if (head < 0) return { count: 0, retained: 0, listeners, scopes: [] }
  let retained = retainedSizes.at(head)
  let node = reference(graph, head, 'next')
  for (let steps = 0; isListener(graph, node) && steps < graph.nodeCount; steps++) {
    listeners.push(reference(graph, node, 'callback'))
    node = reference(graph, node, 'next')
  }
  if (retained === 0 && listeners.length > 0) retained = retainedSizes.at(listeners[0])
  return { count: listeners.length, retained, listeners, scopes: [] }
}

/**
 * The EventTarget list heads reachable from a growth owner.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {number[]}
 */
function eventTargetHeads (graph, owner) {
  if (isListener(graph, owner)) {
    // Walk back to the head; the walk is bounded by the list's length.
    let node = owner
    for (let steps = 0; isListener(graph, node) && steps < graph.nodeCount; steps++) node = reference(graph, node, 'previous')
    return node >= 0 && isHead(graph, node) ? [node] : []
  }
  if (isHead(graph, owner)) return [owner]
  let map = reference(graph, owner, EVENTS_KEY)
  if (map < 0 && retainer(graph, owner, EVENTS_KEY) >= 0) map = owner
  if (map < 0) {
    const up = retainer(graph, owner, 'table', 'internal')
    if (up >= 0 && retainer(graph, up, EVENTS_KEY) >= 0) map = up
  }
  if (map < 0) return []
  const table = reference(graph, map, 'table', 'internal')
  return table < 0 ? [] : referencedNodes(graph, table, 'internal').filter((o) => isHead(graph, o))
}

/**
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isListener (graph, o) {
  return o >= 0 && reference(graph, o, 'previous') >= 0 && reference(graph, o, 'callback') >= 0
}

/**
 * The object at the start of an EventTarget's list for one type: `{size, next}`, held in the
 * kEvents Map's table.
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isHead (graph, o) {
  return reference(graph, o, 'callback') < 0 && isListener(graph, reference(graph, o, 'next')) &&
    findRetainer(graph, o, isNumberedSlot) >= 0
}

/**
 * A hash table's slot: an internal edge named by its number.
 * @param {EdgeCursor} edge
 */
function isNumberedSlot (edge) {
  return edge.is('internal') && !Number.isNaN(edge.index)
}

/**
 * The EventTarget and the event type of a list head.
 * @param {HeapGraph} graph
 * @param {number} head
 * @returns {{target: number, event: string} | null}
 */
function eventTargetOf (graph, head) {
  for (const slot = retainers(graph, head); slot.next();) {
    if (!isNumberedSlot(slot)) continue
    const map = retainer(graph, slot.source, 'table', 'internal')
    const target = map < 0 ? -1 : retainer(graph, map, EVENTS_KEY)
    if (target < 0) continue
    return { target, event: eventKeyOf(graph, slot.source, slot.index) }
  }
  return null
}
