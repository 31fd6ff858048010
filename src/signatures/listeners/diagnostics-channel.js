// Diagnostics channels (node:diagnostics_channel): channel ._subscribers → Array [i] → closure.
// Node copies the array on every subscribe() and unsubscribe(), so the array of one snapshot is
// gone from the next: the list is found again in every snapshot through the channel, whose id
// stays, and the diff names the channel (or, while nothing subscribed, the array) as the owner.

import { stringText } from '../../query/heap-values.js'
import { reference, retainer } from '../../query/references.js'
import { measureArray } from './list-entries.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {ListenerList, ListMeasure, ListShape} from './listener-lists.js' */

/** Node names a channel's class Channel, and ActiveChannel once something subscribed. */
const CHANNEL_CLASSES = new Set(['Channel', 'ActiveChannel'])
/** Channel names longer than this are not shown. */
const MAX_NAME_CHARS = 80

/** @type {ListShape} */
export const channelLists = { kind: 'diagnostics channel', find, measure }

/**
 * The channel a growth owner is, or whose subscriber array it is.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
function find (graph, owner) {
  const channel = graph.nodeName(owner) === 'Array' ? retainer(graph, owner, '_subscribers') : owner
  if (channel < 0 || !isChannel(graph, channel)) return []
  return [{ kind: 'diagnostics channel', emitter: channel, event: channelName(graph, channel), listId: graph.nodeIds[channel] }]
}

/**
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {ListMeasure}
 */
function measure (analysis, list) {
  const { graph } = analysis
  const channel = graph.findOrdinalById(list.listId)
  return measureArray(analysis, channel < 0 ? -1 : reference(graph, channel, '_subscribers'), false)
}

/**
 * A channel object as Node makes it: its class, its name and its array of subscribers.
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isChannel (graph, o) {
  if (graph.nodeTypes[o] !== graph.nodeType.object || !CHANNEL_CLASSES.has(graph.nodeName(o))) return false
  const subscribers = reference(graph, o, '_subscribers')
  return subscribers >= 0 && graph.nodeName(subscribers) === 'Array' && reference(graph, o, 'name') >= 0
}

/**
 * The name the program gave the channel ('' for a symbol, or a name too long to show).
 * @param {HeapGraph} graph
 * @param {number} channel
 */
function channelName (graph, channel) {
  return stringText(graph, reference(graph, channel, 'name'), MAX_NAME_CHARS) ?? ''
}
