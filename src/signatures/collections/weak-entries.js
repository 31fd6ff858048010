// Entries that hold their objects through WeakRefs: the WeakRef lets its object go, but the
// entry (its key and the WeakRef itself) stays until something deletes it. A collection of them
// that only grows is pruned by nothing; the heap shows how many of the WeakRefs point at nothing.

import { isWeakRef, weakRefTarget } from '../../query/heap-values.js'
/** @import {HeapGraph} from '../../graph/heap-graph.js' */

/** New values looked at. */
const SAMPLE = 500

/**
 * @typedef {object} WeakEntries
 * @property {number} sampled   new values looked at
 * @property {number} weakRefs  of them, WeakRefs
 * @property {number} cleared   of those, WeakRefs whose object was collected
 */

/**
 * Whether most new values are WeakRefs, and how many of those point at nothing; null when they
 * are not WeakRefs.
 * @param {HeapGraph} graph the last snapshot's
 * @param {number[]} values new values (ordinals)
 * @returns {WeakEntries | null}
 */
export function weakEntries (graph, values) {
  let sampled = 0
  let weakRefs = 0
  let cleared = 0
  for (const o of values) {
    if (sampled === SAMPLE) break
    sampled++
    if (!isWeakRef(graph, o)) continue
    weakRefs++
    if (weakRefTarget(graph, o) < 0) cleared++
  }
  return weakRefs === 0 || weakRefs < sampled / 2 ? null : { sampled, weakRefs, cleared }
}
