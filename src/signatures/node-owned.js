// Collections that Node itself owns: its ES module loader's caches, its list of enabled async
// hooks, a module's children. The program cannot bound, clear or swap them, so "use an LRU" or
// "shift()" is no remedy: the card has to say what the program does that makes Node add an entry,
// from what the heap shows (the new entries' keys and classes, and the program's functions they
// hold).
//
// A collection is Node's when the nearest code-located object above it on its retainer path is
// Node's (a `node:` constructor or closure) and reaches it through Node's own links (a closure's
// scope, a private or internal field, a Map entry), or when the collection's own constructor is
// Node's. A property the program sets on a Node object (`server.sessions = new Map()`) is the
// program's, and stays with the ordinary remedies. This module tells; one module per shape in
// node-owned/ reads what each is:
//
//   module-cache.js    the module loader's caches, one module per URL imported
//   node-records.js    Node's lists of records it makes for the program (async hooks)
//   module-reloads.js  a module's children, copies of one module required again after it was
//                      deleted from require.cache
//   node-words.js      the cards' words for each of them, and for any other Node-owned collection

import { isWeakRef, weakRefTarget } from '../query/heap-values.js'
import { sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */

/** Path steps looked back from the collection for the code that owns it. */
const MAX_STEPS = 6

/**
 * @typedef {object} NodeOwner
 * @property {string} module      Node's module the owning code is in (`node:internal/async_hooks`)
 * @property {string} className   the class (or function) of that object
 * @property {number[]} ids       ids of Node objects on the path near the collection, for telling
 *                                collections of one Node object apart from others
 */

/**
 * Who owns the collection at the end of `path`, when it is Node: null for the program's and a
 * library's collections.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path ends at the collection
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {number[]} [entries]  ordinals of the collection's new keys and values: a collection a
 *   Node object keeps under a symbol is Node's when Node made them (nodeMadeEntries)
 * @returns {NodeOwner | null}
 */
export function nodeOwner (analysis, path, cwd, names, entries = []) {
  const { graph } = analysis
  /** @type {NodeOwner | null} */
  let owner = null
  for (let i = path.length - 1; i >= Math.max(1, path.length - MAX_STEPS); i--) {
    const o = graph.findOrdinalById(path[i].id)
    if (o < 0) return null
    const type = graph.nodeTypes[o]
    if (type !== graph.nodeType.object && type !== graph.nodeType.closure) continue
    const location = sourceLocation(analysis, o, cwd, names)
    if (location === null) continue
    if (!location.file.startsWith('node:')) return null
    // The collection itself, or a Node object holding it through a link only Node's code makes:
    // a scope variable, a private field, a Map entry. Node keeps what a program hands it under
    // plain and symbol keys (an AsyncLocalStorage store, a property set on a request), and its own
    // bookkeeping under symbols too (an AbortSignal's dependants): the entries tell which.
    const link = i + 1 < path.length ? path[i + 1] : null
    const nodeSymbol = link !== null && link.edge.startsWith('<symbol ') && nodeMadeEntries(analysis, entries, cwd, names)
    if (link !== null && (link.edgeType === 'property' || link.edgeType === 'element') && !link.edge.startsWith('#') && !nodeSymbol) return null
    owner = { module: location.file, className: location.function === '' ? path[i].node : location.function, ids: [] }
    break
  }
  if (owner === null) return null
  for (let i = path.length - 2; i >= Math.max(1, path.length - MAX_STEPS); i--) {
    const o = graph.findOrdinalById(path[i].id)
    const location = o < 0 ? null : sourceLocation(analysis, o, cwd, names)
    if (location !== null && location.file.startsWith('node:') && graph.nodeTypes[o] === graph.nodeType.object) owner.ids.push(path[i].id)
  }
  return owner
}

/** New entries read to tell whether Node made them. */
const MAX_ENTRY_SAMPLES = 50

/**
 * Whether a collection's new entries are Node's own objects (or WeakRefs to them): then a
 * collection a Node object keeps under a symbol is Node's bookkeeping (an AbortSignal's dependants,
 * WeakRefs to the signals AbortSignal.any() made), not a value the program handed Node there (an
 * AsyncLocalStorage store, whose entries are the program's). None given: not Node's.
 * @param {HeapAnalysis} analysis
 * @param {number[]} entries  ordinals of new keys and values
 * @param {string} cwd
 * @param {NameResolver} names
 */
function nodeMadeEntries (analysis, entries, cwd, names) {
  const { graph } = analysis
  let decided = 0
  for (const entry of entries.slice(0, MAX_ENTRY_SAMPLES)) {
    const o = isWeakRef(graph, entry) ? weakRefTarget(graph, entry) : entry
    if (o < 0) continue
    if (graph.nodeTypes[o] !== graph.nodeType.object) return false
    const location = sourceLocation(analysis, o, cwd, names)
    if (location === null || !location.file.startsWith('node:')) return false
    decided++
  }
  return decided > 0
}
