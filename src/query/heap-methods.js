// The methods an object offers, read from the heap: function-valued properties of the object and
// of its prototypes. A finding uses them to speak the library's own words ("call eject()", "call
// unsubscribe()", "call removeSchema()") instead of a generic remedy, when the heap shows which of
// them exist. A package's own release call is told by its name alone (releaseMethod,
// clearMethod), whatever the package: no list of packages is kept anywhere.

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
  /** @type {Set<string>} */
  const names = new Set()
  for (const level of methodLevels(graph, ordinal)) for (const name of level) names.add(name)
  return names
}

/**
 * The names of the functions held under property names, a set per object: the object's own, then
 * each prototype's, nearest first.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {boolean} [ownFunction]  a function's own properties are its methods too (lodash's
 *   debounced function carries `cancel`); not by default, as an express app's are its routes
 * @returns {Generator<Set<string>>}
 */
function * methodLevels (graph, ordinal, ownFunction = false) {
  const { nodeTypes } = graph
  const edge = new EdgeCursor(graph)
  let o = ordinal
  for (let level = 0; o >= 0 && level <= MAX_PROTOTYPES; level++) {
    if (nodeTypes[o] !== graph.nodeType.object && !(ownFunction && level === 0 && nodeTypes[o] === graph.nodeType.closure)) break
    /** @type {Set<string>} */
    const names = new Set()
    for (edge.references(o); edge.next();) {
      if (edge.is('property') && nodeTypes[edge.target] === graph.nodeType.closure) names.add(edge.name)
    }
    yield names
    o = reference(graph, o, '__proto__')
  }
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

/**
 * The first of `wanted` that the object's own class offers, else its nearest base class, and so
 * on, or null: what a class defines for itself beats a base class's generic set (ioredis' Redis
 * defines disconnect(), while its base Commander has every Redis command, SHUTDOWN among them,
 * which stops the server).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {string[]} wanted
 * @param {{ownFunction?: boolean}} [options]  as for methodLevels
 * @returns {string | null}
 */
export function nearestMethod (graph, ordinal, wanted, { ownFunction = false } = {}) {
  if (ordinal < 0) return null
  for (const names of methodLevels(graph, ordinal, ownFunction)) {
    const found = wanted.find((name) => names.has(name))
    if (found !== undefined) return found
  }
  return null
}

/**
 * Names of methods that take one entry, or the resource an object is, back: `delete`, `remove`,
 * `removeSchema`, `deleteEntry`, `unregister`, `release`, `close`, `destroy`, `dispose`, `end`.
 * Ranked: a verb that only removes beats one that also ends (a container's `close(name)` closes
 * the entry it names; a client's `close()` closes itself).
 */
const ENDS_ITSELF = /^(?:close|destroy|dispose|end|free|terminate)(?:[A-Z]\w*)?$/
const ONE_RELEASE = [
  /^(?:delete|del|remove|unset|evict|invalidate)$/,
  /^(?:remove|delete|evict|invalidate|unregister|drop|forget)[A-Z]\w*$/,
  /^(?:release|unregister|detach)(?:[A-Z]\w*)?$/,
  ENDS_ITSELF
]
/** Names of methods that drop every entry at once: `clear`, `clearCache`, `removeAll`, `flushAll`, `purge`. */
const ALL_RELEASE = [
  /^(?:clear|reset|prune|purge|flushAll|removeAll|deleteAll)$/,
  /^(?:clear|flush|purge|removeAll|deleteAll)[A-Z]\w*$/
]
/** Names a release method never has: private by convention, or about listeners and all entries. */
const NOT_RELEASE = /^[_#]|Listener|^(?:remove|delete)All/

/**
 * The method an object (or its prototypes) offers to take one entry, or the object itself, back,
 * found by its name as the package wrote it (ONE_RELEASE); null when it offers none. An object
 * with several stores offers one such method per store (handlebars' `unregisterHelper` and
 * `unregisterPartial`): the one named after the store (`about`, the property holding it) comes first.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {string} [about] the name of the store an entry is taken out of (`partials`)
 * @returns {string | null}
 */
export function releaseMethod (graph, ordinal, about = '') {
  return rankedMethod(graph, ordinal, ONE_RELEASE, about)
}

/**
 * Whether a release method's name is one that ends what it is called on (`close`, `destroy`,
 * `dispose`, `end`): on a container of named entries it may take the name of one (winston's
 * `loggers.close(name)`), on anything else it ends the object itself.
 * @param {string} name
 */
export function endsItself (name) {
  return ENDS_ITSELF.test(name)
}

/**
 * The method an object (or its prototypes) offers to drop every entry at once, or null.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {string | null}
 */
export function clearMethod (graph, ordinal) {
  if (ordinal < 0) return null
  for (const pattern of ALL_RELEASE) {
    for (const name of methodNames(graph, ordinal)) if (pattern.test(name) && !/Listener/.test(name)) return name
  }
  return null
}

/**
 * The first method whose name the earliest pattern accepts, or null; first of all one that a
 * pattern accepts and that ends in the singular of `about` (`unregisterPartial` for `partials`).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {RegExp[]} patterns  most specific first
 * @param {string} [about]
 */
function rankedMethod (graph, ordinal, patterns, about = '') {
  if (ordinal < 0) return null
  const names = [...methodNames(graph, ordinal)].filter((name) => !NOT_RELEASE.test(name))
  const stems = singulars(about)
  if (stems.length > 0) {
    for (const pattern of patterns) {
      const found = names.find((name) => pattern.test(name) && stems.some((stem) => name.toLowerCase().endsWith(stem)))
      if (found !== undefined) return found
    }
  }
  for (const pattern of patterns) {
    const found = names.find((name) => pattern.test(name))
    if (found !== undefined) return found
  }
  return null
}

/**
 * The forms of a store's name a method named after one of its entries ends in, lower case:
 * `partials` -> partials, partial; `_caches` -> caches, cache, cach. Names under four letters say
 * too little to go by.
 * @param {string} name
 */
function singulars (name) {
  const word = name.replace(/^[_#]+/, '').toLowerCase()
  if (!/^[a-z]\w{3,}$/.test(word)) return []
  return [word, word.replace(/s$/, ''), word.replace(/es$/, '')].filter((form, i, all) => form.length >= 4 && all.indexOf(form) === i)
}
