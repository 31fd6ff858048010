// Sorted lookups over uint32 keys without a Map (a Map caps at 16,777,216 entries and costs ~50 B
// per entry): a permutation of positions sorted by key, searched by bisection. Used for node
// ordinal -> location record, and for the V8 ids an id table does not take (id-index.js).

const DIGIT_BITS = 16
const DIGIT_MASK = 0xffff

/** Ascending runs at least this long are merged as they are; shorter ones are radix sorted together. */
const MIN_RUN = 1024
/** Fewer positions than this are sorted by comparison rather than by digits. */
const MIN_RADIX = 1024
/** More runs than 2^this are radix sorted whole rather than merged. */
const MAX_MERGE_PASSES = 3

/**
 * Positions 0 .. keys.length-1 sorted by `keys[position]`, stable (equal keys keep their original
 * order). V8 writes nodes nearly in id order: long ascending runs (a few in a first snapshot, a
 * hundred or so later) among short ones. The long runs are kept as they are, the positions of the
 * short ones are radix sorted together (LSD on two 16-bit digits: O(n), but two scattered writes
 * per key and digit), and the runs are then merged pairwise in sequential passes. Keys in no order,
 * or in more runs than a few merge passes join, are one radix sort.
 * @param {Uint32Array} keys
 * @returns {Uint32Array}
 */
export function sortPositionsByKey (keys) {
  const n = keys.length
  let from = new Uint32Array(n)
  // The long runs' positions first, each run in place, then the others' positions sorted, in the
  // end of `from` the long runs leave free. Two arrays of n in all, as a plain radix sort takes.
  let to = new Uint32Array(n)
  const bounds = [0]
  const rest = splitRuns(keys, from, to, bounds)
  if (rest > 0) {
    radixSort(keys, to.subarray(0, rest), from.subarray(n - rest))
    bounds.push(n)
  }
  if (bounds.length <= 2) return from
  // Each merge pass reads and writes every position; past MAX_MERGE_PASSES a radix sort of all of
  // them (two passes of two scattered writes) costs less (measured on 2.5-2.9 million ids with
  // 80-130 long runs: 80-130 ms against 110-270 ms).
  if (bounds.length - 1 > 1 << MAX_MERGE_PASSES) {
    fillPositions(to, 0, 0, n)
    radixSort(keys, to, from)
    return from
  }
  let runs = bounds
  while (runs.length > 2) {
    const next = [0]
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const end = r + 2 < runs.length ? runs[r + 2] : runs[r + 1]
      mergeTwo(keys, from, to, runs[r], runs[r + 1], end)
      next.push(end)
    }
    runs = next
    const swap = from
    from = to
    to = swap
  }
  return from
}

/**
 * The positions of the long ascending runs into `long`, in order, with where each run ends pushed
 * on `bounds`; those of the short runs into `others`.
 * @param {Uint32Array} keys
 * @param {Uint32Array} long
 * @param {Uint32Array} others
 * @param {number[]} bounds
 * @returns {number} how many positions went to `others`
 */
function splitRuns (keys, long, others, bounds) {
  const n = keys.length
  let k = 0
  let rest = 0
  let start = 0
  for (let i = 1; i <= n; i++) {
    if (i < n && keys[i] >= keys[i - 1]) continue
    if (i - start >= MIN_RUN) {
      k = fillPositions(long, k, start, i)
      bounds.push(k)
    } else {
      rest = fillPositions(others, rest, start, i)
    }
    start = i
  }
  return rest
}

/**
 * positions[at ...] = start, start + 1, ... end - 1.
 * @param {Uint32Array} positions
 * @param {number} at
 * @param {number} start
 * @param {number} end
 * @returns {number} the slot after the last one filled
 */
function fillPositions (positions, at, start, end) {
  for (let i = start; i < end; i++) positions[at++] = i
  return at
}

/**
 * Merges from[start, middle) and from[middle, end), each in key order, into to[start, end); equal
 * keys in position order, which is the original order.
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
  while (i < middle && j < end) {
    const left = from[i]
    const right = from[j]
    const a = keys[left]
    const b = keys[right]
    to[k++] = b < a || (b === a && right < left) ? (j++, right) : (i++, left)
  }
  while (i < middle) to[k++] = from[i++]
  while (j < end) to[k++] = from[j++]
}

/**
 * `positions` sorted by key into `target` (as long as `positions`), equal keys in the order given;
 * `positions` is scratch. Two digits: positions -> target -> positions, then copied over.
 * @param {Uint32Array} keys
 * @param {Uint32Array} positions
 * @param {Uint32Array} target
 */
function radixSort (keys, positions, target) {
  // Each pass clears and sums 65,536 counts: for a thousand keys a comparison sort costs less.
  if (positions.length < MIN_RADIX) {
    target.set(positions)
    target.sort((a, b) => keys[a] - keys[b] || a - b)
    return
  }
  const counts = new Uint32Array(DIGIT_MASK + 2)
  let from = positions
  let to = target
  for (let shift = 0; shift < 32; shift += DIGIT_BITS) {
    countDigits(keys, from, shift, counts.fill(0))
    prefixSums(counts)
    scatter(keys, shift, counts, from, to)
    const swap = from
    from = to
    to = swap
  }
  target.set(from)
}

// One loop per function: V8 compiles a long loop while it runs (on-stack replacement) together
// with the rest of its function, which has not run yet and so is compiled to bail out.

/**
 * counts[d + 1] = how many of the positions' keys have digit d at `shift`.
 * @param {Uint32Array} keys
 * @param {Uint32Array} positions
 * @param {number} shift
 * @param {Uint32Array} counts
 */
function countDigits (keys, positions, shift, counts) {
  for (let i = 0; i < positions.length; i++) counts[((keys[positions[i]] >>> shift) & DIGIT_MASK) + 1]++
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
