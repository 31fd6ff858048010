// Linked lists a program or a library keeps (a task queue's nodes, a doubly linked list): objects
// of one class, each pointing at the next by a `next` property. A list is read from its holder and
// the reference that starts it (`queueHead` in a closure's scope, a list object's `head`): the
// holder is old and keeps its id in every snapshot, while the nodes come and go.

import { reference, references } from './references.js'
/** @import {HeapGraph, EdgeTypeName} from '../graph/heap-graph.js' */

/** The properties a node points at the next one by. */
const NEXT_NAMES = ['next', '_next']
/** A chain of objects each made from the one before (`Object.create(previous)`). */
export const PROTOTYPE_LINKS = ['__proto__']

/**
 * The node after `o` in its list: its `next` (or `_next`) property, when that is an object of
 * the same class; -1 otherwise.
 * @param {HeapGraph} graph
 * @param {number} o
 * @param {string[]} [links]  the properties that link a node to the next (`next`, `_next`)
 */
export function nextInList (graph, o, links = NEXT_NAMES) {
  for (const name of links) {
    const next = reference(graph, o, name)
    if (next >= 0 && graph.nodeTypes[next] === graph.nodeType.object && graph.nodeNames[next] === graph.nodeNames[o]) return next
  }
  return -1
}

/**
 * Whether a path step is a link of a list (`next` or `_next`, a property).
 * @param {{edge: string, edgeType: string}} step
 */
export function isLinkStep (step) {
  return step.edgeType === 'property' && NEXT_NAMES.includes(step.edge)
}

/**
 * Walks the list that starts at `start`, calling `visit` on each node, and returns how many there
 * are; a ring ends where it started, and no walk takes more steps than the snapshot has nodes.
 * @param {HeapGraph} graph
 * @param {number} start  -1 for an empty list
 * @param {(o: number) => void} [visit]
 * @param {string[]} [links]  as for nextInList
 */
export function walkList (graph, start, visit, links = NEXT_NAMES) {
  let count = 0
  for (let o = start; o >= 0 && count < graph.nodeCount;) {
    visit?.(o)
    count++
    const next = nextInList(graph, o, links)
    if (next === start) break
    o = next
  }
  return count
}

/**
 * The reference of `holder` that starts its longest list of at least two nodes (a list object's
 * `head` rather than its `tail`), or null. Only references to a head are walked: an object that
 * holds every node of a list by a property (a dictionary of the nodes) would otherwise walk the
 * list once per node.
 * @param {HeapGraph} graph
 * @param {number} holder
 * @param {string[]} [links]  as for nextInList
 * @returns {{name: string, type: EdgeTypeName, start: number, length: number} | null}
 */
export function longestListOf (graph, holder, links = NEXT_NAMES) {
  /** @type {Array<{name: string, type: EdgeTypeName, start: number}>} */
  const starts = []
  /** @type {Set<number>} nodes another of the holder's references leads to by one link */
  const followers = new Set()
  for (const edge = references(graph, holder); edge.next();) {
    const type = edge.type
    if (type !== 'property' && type !== 'context') continue
    const start = edge.target
    if (graph.nodeTypes[start] !== graph.nodeType.object) continue
    const next = nextInList(graph, start, links)
    if (next < 0) continue
    starts.push({ name: edge.name, type, start })
    followers.add(next)
  }
  /** @type {{name: string, type: EdgeTypeName, start: number, length: number} | null} */
  let best = null
  for (const candidate of starts) {
    if (followers.has(candidate.start)) continue
    const length = walkList(graph, candidate.start, undefined, links)
    if (length >= 2 && (best === null || length > best.length)) best = { ...candidate, length }
  }
  return best
}

/**
 * The length of the list `holder` starts under `name` in one snapshot, 0 when the holder or the
 * reference is not there.
 * @param {HeapGraph} graph
 * @param {number} holderId
 * @param {{name: string, type: EdgeTypeName}} head
 * @param {string[]} [links]  as for nextInList
 */
export function listLengthById (graph, holderId, head, links = NEXT_NAMES) {
  const holder = graph.findOrdinalById(holderId)
  if (holder < 0) return 0
  return walkList(graph, reference(graph, holder, head.name, head.type), undefined, links)
}
