// The leak signatures in the order they are tried. Specific shapes come before general ones: a
// listener list is also an array and a timer also holds a closure, so the listener and timer
// matchers claim their growth rows before the collection and closure matchers see them.
//
// A pending promise's reactions and a set of sockets usually hold closures too, so
// pending-promises and retained-sockets come before closure-retention (retained-sockets skips
// sockets it finds under a new closure or scope: those are a closure's doing). closure-retention
// comes before unbounded-collection and growing-array: a list or map whose new entries are closures
// of one function is claimed by it only when those closures' captured variables hold most of the
// row's growth (then what the closure captures is the fix, beside the bound); closures that hold
// little (a callback capturing a number) are left to the collection matchers.
//
// middleware-accumulation comes first: a router's stack of Layer records or a client's interceptor
// records under `handlers` would also pass for an observer list, but registering once at start-up
// is their fix; it leaves bare functions under listener names and listener records to
// listener-accumulation. async-context-retention comes before pending-promises: when a promise
// created in a request's AsyncLocalStorage context is what keeps the request's store, the store is
// most of what leaks and leaving the context is the fix. open-handles comes after retained-sockets,
// which knows more about a socket than that its handle is open.

import { asyncContextRetention } from './async-context-retention.js'
import { closureRetention } from './closure-retention.js'
import { forgottenTimer } from './forgotten-timer.js'
import { growingArray } from './growing-array.js'
import { listenerAccumulation } from './listener-accumulation.js'
import { middlewareAccumulation } from './middleware-accumulation.js'
import { openHandles } from './open-handles.js'
import { pendingPromises } from './pending-promises.js'
import { retainedSockets } from './retained-sockets.js'
import { unboundedCollection } from './unbounded-collection.js'
import { HEAP_NAMES } from '../analysis/shown-names.js'
/** @import {Finding, Signature, SignatureInput} from './finding.js' */
/** @import {DiffResult, DiffDetail} from '../diff/diff-heaps.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */

/** @type {Signature[]} */
export const SIGNATURES = [
  middlewareAccumulation,
  listenerAccumulation,
  forgottenTimer,
  asyncContextRetention,
  pendingPromises,
  retainedSockets,
  openHandles,
  closureRetention,
  unboundedCollection,
  growingArray
]

/**
 * Runs every signature over a diff. A growth row explained by one signature is not offered to the
 * ones after it.
 * @param {DiffResult} result
 * @param {DiffDetail | null} detail  null for an aggregates-only comparison: nothing to match
 * @param {{cwd?: string, names?: NameResolver, signatures?: Signature[]}} [options] names: the
 *   names people wrote and the scripts' texts, from the sources layer (the heap's own by default)
 * @returns {Finding[]} ranked like the growth rows they explain
 */
export function matchSignatures (result, detail, { cwd = process.cwd(), names = HEAP_NAMES, signatures = SIGNATURES } = {}) {
  if (detail === null) return []
  const claimed = new Set()
  /** @type {Array<{group: number, order: number, finding: Finding}>} */
  const found = []
  // One finding per leak: rows of one collection (the collection's own, and the new records below
  // two roots that it holds) would otherwise each give the same finding. The one with the higher
  // confidence (the row whose growth is most of it) stays, ranked by the first of the rows.
  /** @type {Map<string, {group: number, order: number, finding: Finding}>} */
  const bySubject = new Map()
  for (const signature of signatures) {
    const candidates = result.growth.map((_, g) => g).filter((g) => !claimed.has(g))
    /** @type {SignatureInput} */
    const input = { result, detail, candidates, cwd, names }
    for (const { group, finding, also = [] } of signature.match(input)) {
      if (group >= 0) {
        if (claimed.has(group)) continue
        claimed.add(group)
      }
      for (const g of also) claimed.add(g)
      const entry = { group: group < 0 ? Infinity : group, order: found.length, finding }
      const key = subjectKey(finding)
      const same = key === null ? undefined : bySubject.get(key)
      if (same !== undefined) {
        if (finding.confidence > same.finding.confidence) same.finding = finding
        same.group = Math.min(same.group, entry.group)
        continue
      }
      if (key !== null) bySubject.set(key, entry)
      found.push(entry)
    }
  }
  return found.sort((a, b) => a.group - b.group || a.order - b.order).map(({ finding }) => finding)
}

/**
 * What a finding is about: its signature, the object its path ends at and its title. Null when its
 * path is empty.
 * @param {Finding} finding
 */
function subjectKey (finding) {
  const end = finding.path.at(-1)
  return end === undefined ? null : `${finding.signature}\0${end.id}\0${finding.title}`
}
