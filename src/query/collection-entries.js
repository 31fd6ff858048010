// Entry counts of the containers V8 builds JS collections from, read from the snapshot alone
// (heapsnapshot-format.md 7). A Map or Set keeps its entries in an OrderedHashMap/OrderedHashSet
// reached over the internal `table` edge:
//
//   slot  0..2        header (element count, deleted count, bucket count: Smis, no edges)
//   slot  3..3+B-1    buckets (Smis, no edges)                B = C / 2, C = capacity
//   slot  3+B+k*i..   entry i: key, value, chain (Map, k = 3) or key, chain (Set, k = 2)
//
// The table's size fixes C: self = 16 + 8 * (3 + B + k * C). Its slots are internal edges named by
// slot number, and an entry is counted once whatever of its key or value has an edge. Smi keys and
// values have no edge, so an entry of two Smis is not seen: the counts are lower bounds. Deleted
// entries hold the hole, which is never an edge target, so they are not counted.
// A plain object used as a dictionary shows its entries as property (and element) edges; an array
// shows its elements as element edges named by index.

import { findRetainer, reference, references } from './references.js'
/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** @typedef {'Map' | 'Set' | 'object' | 'array'} CollectionKind */

const HEADER_SLOTS = 3
const TABLE_HEADER_BYTES = 16
const TAGGED_BYTES = 8
const MAP_ENTRY_SLOTS = 3
const SET_ENTRY_SLOTS = 2

/**
 * The Map/Set layout of a hash table node, or null when its size fits neither.
 * @param {HeapGraph} graph
 * @param {number} table ordinal of the table array
 * @returns {{kind: 'Map' | 'Set', capacity: number, firstEntrySlot: number, entrySlots: number} | null}
 */
export function hashTableLayout (graph, table) {
  const slots = (graph.selfSize(table) - TABLE_HEADER_BYTES) / TAGGED_BYTES - HEADER_SLOTS
  for (const [kind, entrySlots] of /** @type {const} */ ([['Map', MAP_ENTRY_SLOTS], ['Set', SET_ENTRY_SLOTS]])) {
    // slots = C/2 + k*C
    const capacity = slots / (entrySlots + 0.5)
    if (Number.isInteger(capacity) && capacity >= 2 && (capacity & (capacity - 1)) === 0) {
      return { kind, capacity, firstEntrySlot: HEADER_SLOTS + capacity / 2, entrySlots }
    }
  }
  return null
}

/**
 * What kind of collection a node is, or null. WeakMaps and WeakSets are left out: their entries
 * live only as long as their keys.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {CollectionKind | null}
 */
export function collectionKind (graph, ordinal) {
  if (graph.nodeTypes[ordinal] !== graph.nodeType.object) return null
  const name = graph.nodeName(ordinal)
  if (name === 'WeakMap' || name === 'WeakSet' || name.startsWith('system / ')) return null
  const table = reference(graph, ordinal, 'table', 'internal')
  if (table >= 0) return hashTableLayout(graph, table)?.kind ?? null
  if (name === 'Array') return 'array'
  return 'object'
}

/**
 * The object a backing store belongs to: a Map's table, an object's property or element store.
 * Growth owners are old objects, and a store big enough to take the new entries stays old, so the
 * owner the diff names may be the store rather than the collection.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {number} the collection's ordinal, or `ordinal` itself
 */
export function collectionOfStore (graph, ordinal) {
  if (graph.nodeTypes[ordinal] !== graph.nodeType.array) return ordinal
  const collection = findRetainer(graph, ordinal, (edge) => edge.is('internal', 'table') || edge.is('internal', 'elements') || edge.is('internal', 'properties'))
  return collection < 0 ? ordinal : collection
}

/**
 * Calls `visit(keyOrdinal, valueOrdinal, name)` for every entry of a collection that has an edge (-1
 * for a key or value without one; `name` is the property name of a plain object's entry, else
 * null), and returns the number of entries seen.
 * @param {HeapGraph} graph
 * @param {number} ordinal the collection
 * @param {CollectionKind} kind
 * @param {(key: number, value: number, name: string | null) => void} [visit]
 */
export function forEachEntry (graph, ordinal, kind, visit) {
  // One loop per function: V8 compiles a long loop while it runs together with the rest of its
  // function, which has not run yet, and compiles again when that rest comes.
  if (kind === 'Map' || kind === 'Set') return tableEntries(graph, ordinal, visit)
  if (kind === 'array') return elementEntries(graph, ordinal, visit)
  return propertyEntries(graph, ordinal, visit)
}

/**
 * forEachEntry of a Map or a Set: the entries of its hash table.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(key: number, value: number, name: string | null) => void} [visit]
 */
function tableEntries (graph, ordinal, visit) {
  const table = reference(graph, ordinal, 'table', 'internal')
  const layout = table < 0 ? null : hashTableLayout(graph, table)
  if (layout === null) return 0
  const { capacity, firstEntrySlot, entrySlots } = layout
  const keys = new Int32Array(capacity).fill(-1)
  const values = new Int32Array(capacity).fill(-1)
  const seen = new Uint8Array(capacity)
  let count = 0
  for (const edge = references(graph, table); edge.next();) {
    if (!edge.is('internal')) continue
    const slot = edge.index - firstEntrySlot
    if (!Number.isInteger(slot) || slot < 0) continue
    const entry = Math.floor(slot / entrySlots)
    const part = slot % entrySlots
    if (entry >= capacity || part === entrySlots - 1) continue // the chain slot is a Smi
    if (seen[entry] === 0) {
      seen[entry] = 1
      count++
    }
    if (part === 0) keys[entry] = edge.target
    else values[entry] = edge.target
  }
  if (visit) visitSeen(keys, values, seen, visit)
  return count
}

/**
 * @param {Int32Array} keys
 * @param {Int32Array} values
 * @param {Uint8Array} seen
 * @param {(key: number, value: number, name: string | null) => void} visit
 */
function visitSeen (keys, values, seen, visit) {
  for (let i = 0; i < seen.length; i++) if (seen[i] === 1) visit(keys[i], values[i], null)
}

/**
 * forEachEntry of an array: its elements; the length is one past the highest index.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(key: number, value: number, name: string | null) => void} [visit]
 */
function elementEntries (graph, ordinal, visit) {
  let length = 0
  for (const edge = references(graph, ordinal); edge.next();) {
    if (!edge.is('element')) continue
    length = Math.max(length, edge.index + 1)
    visit?.(-1, edge.target, null)
  }
  return length
}

/**
 * forEachEntry of a plain object: its properties (not __proto__) and elements.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(key: number, value: number, name: string | null) => void} [visit]
 */
function propertyEntries (graph, ordinal, visit) {
  const proto = graph.strings.indexOf('__proto__')
  let count = 0
  for (const edge = references(graph, ordinal); edge.next();) {
    const property = edge.is('property')
    if (edge.is('element') || (property && edge.nameIndex !== proto)) {
      count++
      visit?.(-1, edge.target, property ? edge.name : null)
    }
  }
  return count
}

/**
 * The entry count of the collection with V8 id `id` in each snapshot (0 where it does not exist).
 * @param {HeapGraph[]} graphs oldest first
 * @param {number} id
 * @param {CollectionKind} kind
 * @returns {number[]}
 */
export function entryCountsById (graphs, id, kind) {
  return graphs.map((graph) => {
    const o = graph.findOrdinalById(id)
    return o < 0 || collectionKind(graph, o) !== kind ? 0 : entryCount(graph, o, kind)
  })
}

/** @type {WeakMap<HeapGraph, Map<string, number>>} entry counts already read, by `${ordinal} ${kind}` */
const COUNTS = new WeakMap()

/**
 * forEachEntry's count, read once per collection and snapshot: several matchers ask it of the same
 * collections (an unbounded Map, the array a middleware chain grows, the store a growth row owns),
 * and a large Map's count reads every slot of its table.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {CollectionKind} kind
 */
function entryCount (graph, ordinal, kind) {
  let known = COUNTS.get(graph)
  if (known === undefined) COUNTS.set(graph, (known = new Map()))
  const key = `${ordinal} ${kind}`
  let count = known.get(key)
  if (count === undefined) known.set(key, (count = forEachEntry(graph, ordinal, kind)))
  return count
}
