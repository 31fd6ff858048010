// The methods an object offers, read from the heap: function-valued properties of the object and
// of its prototypes. A finding uses them to speak the library's own words ("call eject()", "call
// unsubscribe()") instead of a generic remedy, when the heap shows which of them exist.

import { EdgeCursor, reference } from './references.js'
/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** Prototype links followed: class hierarchies of libraries are shallow. */
const MAX_PROTOTYPES = 4

/** Names of methods that take one listener or subscription back, most specific first. */
export const UNSUBSCRIBE_METHODS = ['unsubscribe', 'eject', 'off', 'removeListener', 'removeEventListener', 'unregister',
  'unwatch', 'detach', 'dispose']

/** Names of methods that drop one entry of a store. */
export const REMOVAL_METHODS = ['delete', 'del', 'remove', 'destroy', 'evict', 'invalidate', 'unset']

/** Names of methods that give a borrowed resource back to a pool. */
export const RELEASE_METHODS = ['release', 'releaseLock', 'unlock']

/** Names of methods that end a client's connections, most specific first. */
export const CLOSE_METHODS = ['quit', 'close', 'destroy', 'disconnect', 'end']

/** Names of methods that drop every entry at once. */
export const CLEAR_METHODS = ['clear', 'reset', 'flushAll', 'removeAll', 'prune', 'purge']

/**
 * The names of the functions an object and its prototypes hold under property names.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {Set<string>}
 */
export function methodNames (graph, ordinal) {
  const { nodeTypes } = graph
  /** @type {Set<string>} */
  const names = new Set()
  const edge = new EdgeCursor(graph)
  let o = ordinal
  for (let level = 0; o >= 0 && level <= MAX_PROTOTYPES; level++) {
    if (nodeTypes[o] !== graph.nodeType.object) break
    for (edge.references(o); edge.next();) {
      if (edge.is('property') && nodeTypes[edge.target] === graph.nodeType.closure) names.add(edge.name)
    }
    o = reference(graph, o, '__proto__')
  }
  return names
}

/**
 * The first of `wanted` that the object offers, or null.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {string[]} wanted
 * @returns {string | null}
 */
export function offeredMethod (graph, ordinal, wanted) {
  if (ordinal < 0) return null
  const names = methodNames(graph, ordinal)
  return wanted.find((name) => names.has(name)) ?? null
}
