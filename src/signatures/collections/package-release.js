// The calls a package offers to take entries out of a collection the program reaches through one of
// its objects, read from the object's methods in the heap (query/heap-methods.js).

import { CLEAR_METHODS, REMOVAL_METHODS, clearMethod, endsItself, offeredMethod, releaseMethod } from '../../query/heap-methods.js'
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
