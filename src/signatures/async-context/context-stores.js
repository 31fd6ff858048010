// AsyncLocalStorage stores as the heap holds them. Node lays them out in one of two ways:
//
//   async_hooks (Node 20, 22):  resource --<symbol kResourceStore>--> store
//   AsyncContextFrame (Node 24): resource --> frame (a Map) --table--> [AsyncLocalStorage, store]
//
// In the first, every async resource created inside `als.run(store, ...)` (a promise, a Timeout, a
// socket's handle) gets the store as a property. In the second, `als.run()` makes a frame, a Map
// from each AsyncLocalStorage to its store, and V8 keeps the current frame on what continues later
// (a promise reaction's slot, a Timeout's `Symbol(kAsyncContextFrame)`). A frame is recognised by
// its shape, a Map whose keys are AsyncLocalStorage objects.

import { collectionOfStore, forEachEntry } from '../../query/collection-entries.js'
import { dominatedNodes } from '../../query/dominator-subtree.js'
import { EdgeCursor, findReference, forEachReferenceNamed, reference } from '../../query/references.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */

/** How snapshots name the property that holds a resource's store. */
export const STORE_EDGE_NAMES = ['<symbol kResourceStore>', 'Symbol(kResourceStore)']
/** The class of the keys of an AsyncContextFrame. */
const STORAGE_CLASS = 'AsyncLocalStorage'
/** Node flags: a store, and a frame of AsyncLocalStorage -> store (storeFlags). */
export const STORE = 1
const FRAME = 2
/** Resources read per finding for their classes and the code that created them. */
const MAX_RESOURCES = 5_000

/**
 * Flags, by ordinal, the objects that some async resource holds as its store (STORE) and the
 * AsyncContextFrames (FRAME); null when the snapshot has neither (no AsyncLocalStorage in use).
 * @param {HeapAnalysis} analysis
 * @returns {Uint8Array | null}
 */
export function storeFlags (analysis) {
  const { graph } = analysis
  const storage = graph.strings.indexOf(STORAGE_CLASS)
  const { nodeTypes, nodeNames } = graph
  const object = graph.nodeType.object
  const flags = new Uint8Array(graph.nodeCount)
  let found = false
  forEachReferenceNamed(graph, STORE_EDGE_NAMES, 'property', (source, store) => {
    if (nodeTypes[source] !== object) return
    if (nodeTypes[store] === object) flags[store] |= STORE
    found = true
  })
  // A frame's keys are AsyncLocalStorage objects: without one there is no frame to look for.
  if (storage >= 0 && someObjectNamed(graph, storage)) {
    // A table with an AsyncLocalStorage among its slots: a cheap test before isFrame reads the
    // entries of every Map.
    const isStorage = (/** @type {EdgeCursor} */ slot) => nodeNames[slot.target] === storage
    for (let map = 0; map < graph.nodeCount; map++) {
      if (nodeTypes[map] !== object) continue
      const table = reference(graph, map, 'table', 'internal')
      if (table < 0 || findReference(graph, table, isStorage) < 0 || !isFrame(graph, map, storage)) continue
      flags[map] |= FRAME
      found = true
      forEachEntry(graph, map, 'Map', (key, value) => {
        if (value >= 0 && nodeTypes[value] === object && key >= 0 && nodeNames[key] === storage) flags[value] |= STORE
      })
    }
  }
  return found ? flags : null
}

/**
 * Whether some object of the heap has the name with string index `name`.
 * @param {HeapGraph} graph
 * @param {number} name
 */
function someObjectNamed (graph, name) {
  const { nodeNames, nodeTypes, nodeCount } = graph
  const object = graph.nodeType.object
  for (let o = 0; o < nodeCount; o++) if (nodeNames[o] === name && nodeTypes[o] === object) return true
  return false
}

/**
 * Whether a Map-like object is an AsyncContextFrame: it has entries, and every key with an edge
 * is an AsyncLocalStorage.
 * @param {HeapGraph} graph
 * @param {number} o
 * @param {number} storage string index of the AsyncLocalStorage class name
 */
function isFrame (graph, o, storage) {
  let keys = 0
  let others = 0
  forEachEntry(graph, o, 'Map', (key) => {
    if (key < 0) return
    if (graph.nodeNames[key] === storage && graph.nodeTypes[key] === graph.nodeType.object) keys++
    else others++
  })
  return keys > 0 && others === 0
}

/**
 * String indexes of the names the store property has in this snapshot.
 * @param {HeapGraph} graph
 */
function storeEdgeNames (graph) {
  return STORE_EDGE_NAMES.map((name) => graph.strings.indexOf(name)).filter((index) => index >= 0)
}

/**
 * Stores held by resources the owners keep alive in one snapshot, and the bytes they retain. A
 * store is counted by its resources rather than by its dominator: the store of a request still in
 * flight is also reachable from elsewhere.
 * @param {HeapAnalysis} analysis
 * @param {number[]} ownerIds
 */
export function countStores (analysis, ownerIds) {
  const { graph } = analysis
  const flags = storeFlags(analysis)
  const present = ownerIds.map((id) => graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (flags === null || present.length === 0) return { stores: 0, bytes: 0 }
  const names = storeEdgeNames(graph)
  const { nodes } = dominatedNodes(analysis, present)
  const counted = new Uint8Array(graph.nodeCount)
  const edge = new EdgeCursor(graph)
  let stores = 0
  let bytes = 0
  /** @param {number} store */
  const count = (store) => {
    if (counted[store] === 1 || (flags[store] & STORE) === 0) return
    counted[store] = 1
    stores++
    bytes += analysis.retainedSizes.at(store)
  }
  /** @type {(key: number, value: number) => void} */
  const countValue = (_, value) => { if (value >= 0) count(value) }
  for (const o of nodes) {
    for (edge.references(o); edge.next();) {
      const target = edge.target
      if (edge.is('property') && names.includes(edge.nameIndex)) count(target)
      else if ((flags[target] & FRAME) !== 0 && !edge.is('weak')) forEachEntry(graph, target, 'Map', countValue)
    }
  }
  return { stores, bytes }
}

/**
 * The async resources that hold the stores (the sources of their store edges, or what holds the
 * frames they are in), sampled.
 * @param {HeapAnalysis} analysis
 * @param {number[]} stores
 * @param {Uint8Array} flags as storeFlags gives them
 * @returns {{resources: number[], throughFrames: boolean}} throughFrames: most were reached through frames
 */
export function resourcesOf (analysis, stores, flags) {
  const { graph } = analysis
  const names = storeEdgeNames(graph)
  /** @type {number[]} */
  const resources = []
  let direct = 0
  let framed = 0
  const edge = new EdgeCursor(graph)
  const holder = new EdgeCursor(graph)
  for (const store of stores) {
    for (edge.retainers(store); edge.next();) {
      if (edge.is('property') && names.includes(edge.nameIndex)) {
        resources.push(edge.source)
        direct++
        continue
      }
      const frame = collectionOfStore(graph, edge.source)
      if (frame === edge.source || (flags[frame] & FRAME) === 0) continue
      framed++
      for (holder.retainers(frame); holder.next();) if (!holder.is('weak')) resources.push(holder.source)
    }
    if (resources.length >= MAX_RESOURCES) break
  }
  return { resources, throughFrames: framed > direct }
}
