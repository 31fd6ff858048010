// Retained size = a node's (adjusted) shallow size plus the retained sizes of the nodes it
// immediately dominates. Summed bottom-up by walking a preorder backwards (every node comes after
// its dominator), as DevTools does; the root ends with the total. Float64 because sums pass 2^32.

/**
 * @param {Uint32Array} dominators immediate dominator per ordinal (buildDominators)
 * @param {Uint32Array} order ordinals in DFS preorder, root first (buildDominators)
 * @param {Float64Array} shallowSizes bytes per ordinal (computeShallowSizes)
 * @param {{storage?: Float64Array}} [options] storage: memory for the result (its first
 *   shallowSizes.length entries) instead of a new array
 * @returns {Float64Array} bytes per ordinal
 */
export function computeRetainedSizes (dominators, order, shallowSizes, { storage } = {}) {
  const retained = storage && storage.length >= shallowSizes.length
    ? storage.subarray(0, shallowSizes.length)
    : new Float64Array(shallowSizes.length)
  retained.set(shallowSizes)
  for (let i = order.length - 1; i > 0; i--) {
    const ordinal = order[i]
    retained[dominators[ordinal]] += retained[ordinal]
  }
  return retained
}
