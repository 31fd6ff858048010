// Who holds the growth. A leaked object's growth owner is its nearest dominator that already existed
// in the baseline snapshot: the long-lived Map, array, listener list or closure context through which
// every new object is kept alive. New intermediate objects (a Map's re-allocated table, an array's
// grown backing store) are skipped, so the owner is the thing the program named.
//
// Growth held straight from the GC roots has no such dominator: an open socket, a server, an
// fs.watch handle are held by native handles (`(Global handles)`, `(Strong roots)`, ...), and an
// object two roots reach is dominated by the root itself. There the nearest old dominator is a root,
// which owns nothing a person can fix, so the owner is the topmost new node below it instead: the
// first node under the roots that is neither engine bookkeeping nor old. Each such node owns itself
// and what it dominates.
//
//   (root) ─ (Global handles) ─ FSEvent* ─ FSWatcher* ─ listener*      * = new since the baseline
//                               └ owner of all three
//
// One pass up the dominator tree with path compression: every node's owner is found once, and each
// walk stops at the first node whose owner is already known. Iterative, on a preallocated stack.

import { AGE_OLD } from '../query/ages.js'

const UNKNOWN = 0xffffffff

/**
 * The growth owner of every node that is not old (old nodes own themselves).
 * @param {Uint32Array} dominators immediate dominator ordinal per node (the root dominates itself)
 * @param {Uint8Array} ages AGE_* per node
 * @param {number} rootOrdinal
 * @param {{roots?: Uint8Array, noise?: Uint8Array}} [options]
 *   roots: 1 for the nodes that own nothing (the GC roots); a new node whose nearest old dominator
 *   is one of them is owned by the topmost new node below it that is not `noise` (1 for engine
 *   bookkeeping); when there is none, by the root node it reached. The root node always counts as one.
 * @returns {Uint32Array} owner ordinal per node
 */
export function findGrowthOwners (dominators, ages, rootOrdinal, { roots, noise } = {}) {
  const n = dominators.length
  const owners = new Uint32Array(n).fill(UNKNOWN)
  const stack = new Uint32Array(n)
  const isRoot = (/** @type {number} */ o) => o === rootOrdinal || (roots !== undefined && roots[o] === 1)
  for (let o = 0; o < n; o++) {
    // Most nodes are old, and own themselves (the root too).
    if (ages[o] === AGE_OLD || o === rootOrdinal) {
      owners[o] = o
      continue
    }
    if (owners[o] !== UNKNOWN) continue
    let top = 0
    let current = o
    // Climb until an old node (its own owner) or a node whose owner is known.
    while (owners[current] === UNKNOWN && ages[current] !== AGE_OLD && current !== rootOrdinal) {
      stack[top++] = current
      current = dominators[current]
    }
    if (owners[current] === UNKNOWN) owners[current] = current
    const owner = owners[current]
    if (roots === undefined || !isRoot(owner)) {
      while (top > 0) owners[stack[--top]] = owner
      continue
    }
    // The stack runs from `o` (bottom) up to the node just below the root; whatever sits above
    // the topmost eligible node has nothing to own it but the root, as before.
    let topmost = top - 1
    if (noise !== undefined) while (topmost >= 0 && noise[stack[topmost]] === 1) topmost--
    while (top > topmost + 1) owners[stack[--top]] = owner
    if (topmost < 0) continue
    const own = stack[topmost]
    while (top > 0) owners[stack[--top]] = own
  }
  return owners
}
