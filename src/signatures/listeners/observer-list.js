// Observer lists: holder .<listeners|subscribers|handlers|...> → Array [i] → closure | record. An
// array of functions kept under a listener-like name, or held by an object that is; the list is
// found again in every snapshot by the array's id.

import { EdgeCursor, findRetainer } from '../../query/references.js'
import { measureArray } from './list-entries.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {ListenerList, ListMeasure, ListShape} from './listener-lists.js' */

/** Property names under which event libraries keep lists of callbacks. */
export const OBSERVER_NAMES = /(?:listener|subscriber|observer|handler|callback|watcher|hook|interceptor)s?$/i

/** @type {ListShape} */
export const observerLists = { kind: 'observer list', find, measure }

/**
 * The observer lists a growth owner is: an array under a listener-like name, or under any name in
 * an object that is kept under one.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
function find (graph, owner) {
  /** @type {ListenerList[]} */
  const lists = []
  if (graph.nodeName(owner) !== 'Array') return lists
  for (const edge = new EdgeCursor(graph).retainers(owner); edge.next();) {
    if (!edge.is('property')) continue
    const name = edge.name
    if (OBSERVER_NAMES.test(name) || findRetainer(graph, edge.source, hasObserverName) >= 0) {
      lists.push({ kind: 'observer list', emitter: edge.source, event: name, listId: graph.nodeIds[owner] })
    }
  }
  return lists
}

/**
 * A property edge with a listener-like name.
 * @param {EdgeCursor} edge
 */
function hasObserverName (edge) {
  return edge.is('property') && OBSERVER_NAMES.test(edge.name)
}

/**
 * The array's functions, searching records deeper: the list's name already says it holds callbacks.
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {ListMeasure}
 */
function measure (analysis, list) {
  return measureArray(analysis, analysis.graph.findOrdinalById(list.listId), true)
}
