// Sorted lookups over uint32 keys without a Map (a Map caps at 16,777,216 entries and costs ~50 B
// per entry): a permutation of positions sorted by key, searched by bisection. Used for V8 id ->
// ordinal and for node ordinal -> location record.

const DIGIT_BITS = 16
const DIGIT_MASK = 0xffff

/** Past this many ascending runs, the keys are sorted by radix instead of merged. */
const MAX_RUNS = 64

/**
 * Positions 0 .. keys.length-1 sorted by `keys[position]`, stable (equal keys keep their original
 * order). V8 writes nodes nearly in id order (a handful of ascending runs: a 200 MB heap has five),
 * and those runs are merged, in a few sequential passes; other keys get an LSD radix sort on two
 * 16-bit digits (O(n), but two scattered writes per key and digit).
 * @param {Uint32Array} keys
 * @returns {Uint32Array}
 */
export function sortPositionsByKey (keys) {
  const runs = ascendingRuns(keys)
  return runs === null ? radixSort(keys) : mergeRuns(keys, runs)
}

/**
 * Where each ascending (non-decreasing) run of `keys` starts, with keys.length at the end; null
 * when there are more than MAX_RUNS.
 * @param {Uint32Array} keys
 * @returns {number[] | null}
 */
function ascendingRuns (keys) {
  const starts = [0]
  for (let i = 1; i < keys.length; i++) {
    if (keys[i] >= keys[i - 1]) continue
    if (starts.length === MAX_RUNS) return null
    starts.push(i)
  }
  starts.push(keys.length)
  return starts
}

/**
 * Positions sorted by key from runs already in order: pairs of neighbouring runs merged, pass
 * after pass, the left one first on equal keys.
 * @param {Uint32Array} keys
 * @param {number[]} runs  starts of the runs, keys.length last
 * @returns {Uint32Array}
 */
function mergeRuns (keys, runs) {
  const n = keys.length
  let from = new Uint32Array(n)
  identity(from)
  if (runs.length <= 2) return from
  let to = new Uint32Array(n)
  let bounds = runs
  while (bounds.length > 2) {
    const next = [0]
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const end = r + 2 < bounds.length ? bounds[r + 2] : bounds[r + 1]
      mergeTwo(keys, from, to, bounds[r], bounds[r + 1], end)
      next.push(end)
    }
    bounds = next
    const swap = from
    from = to
    to = swap
  }
  return from
}

/**
 * Merges from[start, middle) and from[middle, end), each in key order, into to[start, end).
 * @param {Uint32Array} keys
 * @param {Uint32Array} from
 * @param {Uint32Array} to
 * @param {number} start
 * @param {number} middle
 * @param {number} end
 */
function mergeTwo (keys, from, to, start, middle, end) {
  let i = start
  let j = middle
  let k = start
  while (i < middle && j < end) to[k++] = keys[from[j]] < keys[from[i]] ? from[j++] : from[i++]
  while (i < middle) to[k++] = from[i++]
  while (j < end) to[k++] = from[j++]
}

/**
 * @param {Uint32Array} keys
 * @returns {Uint32Array}
 */
function radixSort (keys) {
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
