// A node's age in the last snapshot of a diff, relative to the earlier snapshots, one byte per node
// (diff/node-ages.js computes them; growth owners, the matchers and the helpers they share read them).

/** Existed in the baseline. */
export const AGE_OLD = 0
/** Allocated after the baseline and still alive (between a and b with three snapshots). */
export const AGE_LEAKED = 1
/** Allocated in the last step (between b and c); only with three snapshots. */
export const AGE_RECENT = 2

/**
 * The nodes made since the baseline (any age but AGE_OLD), ascending. A leak's new objects are a
 * share of the heap: a pass over them alone reads that share, not every node of a heap that may
 * hold millions.
 * @param {Uint8Array} ages  AGE_* by ordinal
 * @returns {Uint32Array}
 */
export function newNodesOf (ages) {
  let count = 0
  for (let o = 0; o < ages.length; o++) if (ages[o] !== AGE_OLD) count++
  const nodes = new Uint32Array(count)
  for (let o = 0, k = 0; o < ages.length; o++) if (ages[o] !== AGE_OLD) nodes[k++] = o
  return nodes
}
