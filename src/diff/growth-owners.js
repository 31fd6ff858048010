// Who holds the growth. A leaked object's growth owner is its nearest dominator that already existed
// in the baseline snapshot: the long-lived Map, array, listener list or closure context through which
// every new object is kept alive. New intermediate objects (a Map's re-allocated table, an array's
// grown backing store) are skipped, so the owner is the thing the program named.
//
// One pass up the dominator tree with path compression: every node's owner is found once, and each
// walk stops at the first node whose owner is already known. Iterative, on a preallocated stack.

/** Node age relative to the earlier snapshots. */
export const AGE_OLD = 0 // existed in the baseline
export const AGE_LEAKED = 1 // allocated after the baseline and still alive (between a and b with three snapshots)
export const AGE_RECENT = 2 // allocated in the last step (between b and c); only with three snapshots

const UNKNOWN = 0xffffffff

/**
 * The growth owner of every node that is not old (old nodes own themselves).
 * @param {Uint32Array} dominators immediate dominator ordinal per node (the root dominates itself)
 * @param {Uint8Array} ages AGE_* per node
 * @param {number} rootOrdinal
 * @returns {Uint32Array} owner ordinal per node
 */
export function findGrowthOwners (dominators, ages, rootOrdinal) {
  const n = dominators.length
  const owners = new Uint32Array(n).fill(UNKNOWN)
  const stack = new Uint32Array(n)
  for (let o = 0; o < n; o++) {
    if (owners[o] !== UNKNOWN) continue
    let top = 0
    let current = o
    // Climb until an old node (its own owner) or a node whose owner is known.
    while (owners[current] === UNKNOWN && ages[current] !== AGE_OLD && current !== rootOrdinal) {
      stack[top++] = current
      current = dominators[current]
    }
    const owner = owners[current] !== UNKNOWN ? owners[current] : current
    if (owners[current] === UNKNOWN) owners[current] = current
    while (top > 0) owners[stack[--top]] = owner
  }
  return owners
}
