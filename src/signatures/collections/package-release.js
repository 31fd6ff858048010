// The calls a package offers to take entries out of a collection, read from an object's methods in
// the heap (query/heap-methods.js): the object the program reaches the collection through, or the
// one whose methods share the scope the collection is a variable of.

import { CLEAR_METHODS, REMOVAL_METHODS, clearMethod, endsItself, offeredMethod, releaseMethod } from '../../query/heap-methods.js'
import { EdgeCursor, propertyTarget } from '../../query/references.js'
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */

/**
 * Whether an object on a package collection's path offers to remove entries (the handle moves down
 * the path to the first that does): a memoized function's `.cache` with its `delete`.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 */
export function offersRemoval (graph, ordinal) {
  return offeredMethod(graph, ordinal, [...REMOVAL_METHODS, ...CLEAR_METHODS]) !== null
}

/**
 * The package's own calls that take one entry, or all of them, out of the collection the program
 * reaches through `handle`, as the heap shows them on its prototype chain. A method that ends what
 * it is called on (`close`) takes an entry out only when the object is the collection's own
 * holder (a container of named loggers); on an object further up (a client that keeps a cache)
 * it would end the object.
 * @param {HeapGraph} graph
 * @param {number} handle
 * @param {Step[]} path ends at the collection
 */
export function packageRelease (graph, handle, path) {
  const release = releaseMethod(graph, handle, path.at(-1)?.edge)
  const holder = path.length >= 2 ? graph.findOrdinalById(path[path.length - 2].id) : -1
  return { release: release !== null && endsItself(release) && holder !== handle ? null : release, clear: clearMethod(graph, handle) }
}

/** Closures sharing a collection's scope looked at for the object they are methods of. */
const MAX_SCOPE_CLOSURES = 64

/**
 * The object a package exports whose methods close over the scope that holds its collection, when
 * it offers a call that takes entries out of it: memory-cache exports an object whose put(),
 * del(key) and clear() all close over its `_cache`, so the program that puts can delete. Null when
 * the collection is not a scope's variable, or no exported object's method shares its scope (an
 * internal registry's remove() is not the program's to call).
 * @param {HeapGraph} graph
 * @param {Step[]} path ends at the collection
 * @returns {{object: number, release: string | null, clear: string | null} | null}
 */
export function scopeRelease (graph, path) {
  const last = path.at(-1)
  if (path.length < 2 || last?.edgeType !== 'context') return null
  const scope = graph.findOrdinalById(path[path.length - 2].id)
  if (scope < 0) return null
  const shares = (/** @type {number} */ object, /** @type {string | null} */ method) => method !== null && propertyTarget(graph, propertyTarget(graph, object, method), 'context') === scope
  const closures = new EdgeCursor(graph)
  const holders = new EdgeCursor(graph)
  let looked = 0
  for (closures.retainers(scope); closures.next() && looked < MAX_SCOPE_CLOSURES;) {
    if (!closures.is('internal', 'context') || graph.nodeTypes[closures.source] !== graph.nodeType.closure) continue
    looked++
    for (holders.retainers(closures.source); holders.next();) {
      const object = holders.source
      if (!holders.is('property') || graph.nodeTypes[object] !== graph.nodeType.object || !isExported(graph, object)) continue
      const release = releaseMethod(graph, object, last.edge)
      const clear = clearMethod(graph, object)
      const shared = { object, release: shares(object, release) ? release : null, clear: shares(object, clear) ? clear : null }
      if (shared.release !== null || shared.clear !== null) return shared
    }
  }
  return null
}

/**
 * Whether an object is what a module gives its importers: a CommonJS module's `exports`, or an ES
 * module's default export.
 * @param {HeapGraph} graph
 * @param {number} object
 */
function isExported (graph, object) {
  for (const edge = new EdgeCursor(graph).retainers(object); edge.next();) {
    if ((edge.is('property', 'exports') || edge.is('property', 'default')) && graph.nodeName(edge.source) === 'Module') return true
  }
  return false
}
