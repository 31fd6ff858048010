// Where in the program the listeners come from: the function most of them are, or, for listeners a
// library adds, the line that subscribes to the emitter or hands it to the library.

import { unwrapBound } from '../../query/heap-values.js'
import { HOLDER_ROLES, holderLocation } from '../holder-location.js'
import { packageOf } from '../library-handle.js'
import { sourceLocation } from '../source-location.js'
import { useOffsets, writeSites } from '../write-sites.js'
import { SUBSCRIBE_ROLE, USE_ROLE } from './listener-words.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */
/** @import {SourceLocation} from '../finding.js' */

/**
 * The source location most of the listeners come from, and how many come from it.
 * @param {HeapAnalysis} analysis
 * @param {number[]} closures
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, fromLocation: number}}
 */
export function dominantLocation (analysis, closures, cwd, names) {
  /** @type {Map<string, {ordinal: number, count: number}>} */
  const byPlace = new Map()
  for (const bound of closures) {
    // A bound function has no code of its own: the function it wraps says where it comes from.
    const o = analysis.locations.locationOf(bound) === null ? unwrapBound(analysis.graph, bound) : bound
    const place = analysis.locations.locationOf(o)
    if (place === null) continue
    const key = `${place.scriptId}:${place.line}:${place.column}`
    const entry = byPlace.get(key)
    if (entry) entry.count++
    else byPlace.set(key, { ordinal: o, count: 1 })
  }
  let best = null
  for (const entry of byPlace.values()) if (best === null || entry.count > best.count) best = entry
  if (best === null) return { location: null, fromLocation: 0 }
  const location = sourceLocation(analysis, best.ordinal, cwd, names)
  return { location, fromLocation: location === null ? 0 : best.count }
}

/**
 * The program's line for listeners it did not write: where it subscribes to the emitter (a
 * library's listener, falling back on the function that holds the emitter), or where it hands
 * the emitter to the library object that subscribes (`handedOver`).
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path the row's path, through the emitter
 * @param {number} emitter
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {boolean} handedOver  a library object the program made added the listeners
 * @returns {{location: SourceLocation, role: string} | null}
 */
export function programSite (analysis, path, emitter, cwd, names, handedOver) {
  return handedOver
    ? subscribeSite(analysis, path, emitter, cwd, names, useOffsets, USE_ROLE, false)
    : subscribeSite(analysis, path, emitter, cwd, names, subscribeOffsets, SUBSCRIBE_ROLE, true)
}

/** Calls that subscribe with the emitter as their first argument (`on(emitter, ...)`), or as their receiver. */
const SUBSCRIBING = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'addEventListener', 'subscribe'])

/**
 * Offsets where `name` is handed to a call that subscribes to it; a `for ... of` over the
 * subscription is not one, since leaving the loop ends it.
 * @type {import('../write-sites.js').SiteFinder}
 */
function subscribeOffsets (syntax, name, member) {
  return syntax.usesOf(name, member).filter(({ call, method }) => {
    if (call !== null && call.argument === 0 && SUBSCRIBING.has(call.callee)) return !call.iterated
    return method !== null && SUBSCRIBING.has(method)
  }).map((use) => use.offset)
}

/**
 * Where the program subscribes to the emitter: a call handing the emitter's variable to a
 * subscribing call in the script that holds it (or any use of it, for a library object that
 * subscribes), else the program function that holds it; null when neither is the program's.
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path the row's path, through the emitter
 * @param {number} emitter
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {import('../write-sites.js').SiteFinder} offsetsOf
 * @param {string} role
 * @param {boolean} orHolder  fall back on the function that holds the emitter
 * @returns {{location: SourceLocation, role: string} | null}
 */
function subscribeSite (analysis, path, emitter, cwd, names, offsetsOf, role, orHolder) {
  const at = path.findIndex((step) => step.id === analysis.graph.nodeIds[emitter])
  if (at < 1) return null
  const toEmitter = path.slice(0, at + 1)
  const holder = holderLocation(analysis, toEmitter, cwd, names)
  if (holder === null || holder.location.file.startsWith('node:') || packageOf(holder.location.file) !== null) return null
  const sites = writeSites(analysis, toEmitter, holder, { offsetsOf, role, names })
  // A use at the top level of a module runs once: it is not what repeats.
  if (sites !== null && (sites.role === role || orHolder)) return { location: sites.location, role: sites.role }
  return orHolder ? { location: holder.location, role: HOLDER_ROLES[holder.how] } : null
}
