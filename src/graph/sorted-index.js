// Sorted lookups over uint32 keys without a Map (a Map caps at 16,777,216 entries and costs ~50 B
// per entry): a permutation of positions sorted by key, searched by bisection. Used for V8 id ->
// ordinal and for node ordinal -> location record.

const DIGIT_BITS = 16
const DIGIT_MASK = 0xffff

/**
 * Positions 0 .. keys.length-1 sorted by `keys[position]`: LSD radix sort on two 16-bit digits
 * (O(n), stable, so equal keys keep their original order).
 * @param {Uint32Array} keys
 * @returns {Uint32Array}
 */
export function sortPositionsByKey (keys) {
  const n = keys.length
  let from = new Uint32Array(n)
  let to = new Uint32Array(n)
  identity(from)
  const counts = new Uint32Array(DIGIT_MASK + 2)
  for (let shift = 0; shift < 32; shift += DIGIT_BITS) {
    countDigits(keys, shift, counts.fill(0))
    prefixSums(counts)
    scatter(keys, shift, counts, from, to)
    const swap = from
    from = to
    to = swap
  }
  return from
}

// One loop per function: V8 compiles a long loop while it runs (on-stack replacement) together
// with the rest of its function, which has not run yet and so is compiled to bail out.

/** @param {Uint32Array} positions */
function identity (positions) {
  for (let i = 0; i < positions.length; i++) positions[i] = i
}

/**
 * counts[d + 1] = how many keys have digit d at `shift`.
 * @param {Uint32Array} keys
 * @param {number} shift
 * @param {Uint32Array} counts
 */
function countDigits (keys, shift, counts) {
  for (let i = 0; i < keys.length; i++) counts[((keys[i] >>> shift) & DIGIT_MASK) + 1]++
}

/** @param {Uint32Array} counts */
function prefixSums (counts) {
  for (let d = 1; d < counts.length; d++) counts[d] += counts[d - 1]
}

/**
 * @param {Uint32Array} keys
 * @param {number} shift
 * @param {Uint32Array} counts each digit's first slot in `to`
 * @param {Uint32Array} from
 * @param {Uint32Array} to
 */
function scatter (keys, shift, counts, from, to) {
  for (let i = 0; i < from.length; i++) {
    const position = from[i]
    to[counts[(keys[position] >>> shift) & DIGIT_MASK]++] = position
  }
}

/**
 * The position whose key equals `key` (the last one in `sorted` order when several do), or -1.
 * @param {Uint32Array} sorted positions sorted by key (from sortPositionsByKey)
 * @param {Uint32Array} keys
 * @param {number} key
 * @returns {number}
 */
export function searchSortedPositions (sorted, keys, key) {
  let low = 0
  let high = sorted.length
  // Upper bound: the first entry whose key is greater than `key`.
  while (low < high) {
    const middle = (low + high) >>> 1
    if (keys[sorted[middle]] <= key) low = middle + 1
    else high = middle
  }
  return low > 0 && keys[sorted[low - 1]] === key ? sorted[low - 1] : -1
}
