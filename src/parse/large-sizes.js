// Self sizes live in a Uint32Array (4 bytes per node instead of 8), but V8 writes self_size with
// 48 bits: an ArrayBuffer store of 5 GiB is a single node. Sizes from LARGE_SIZE up stay exact in a
// side list, sorted by ordinal; the column holds LARGE_SIZE for them, so a reader of the column
// alone sees at least 4 GiB - 1 and never a wrapped value.
//
//   selfSizes   [ 24 | 4294967295 | 16 | ... ]     LARGE_SIZE marks "look in the side list"
//   ordinals    [ 1 | ... ]                         ascending
//   sizes       [ 5368709120 | ... ]                exact bytes, same positions

/** Column value that marks a size kept in the side list: 2^32 - 1. */
export const LARGE_SIZE = 0xffffffff

/**
 * The exact sizes of LARGE_SIZE bytes and more, by ordinal.
 * @typedef {object} LargeSizes
 * @property {Uint32Array} ordinals  ascending
 * @property {Float64Array} sizes    bytes, same positions
 */

/** @returns {LargeSizes} */
export function noLargeSizes () {
  return { ordinals: new Uint32Array(0), sizes: new Float64Array(0) }
}

/**
 * The exact size of `ordinal` from a column that marks large sizes with LARGE_SIZE.
 * @param {Uint32Array} column
 * @param {LargeSizes} large
 * @param {number} ordinal
 */
export function sizeAt (column, large, ordinal) {
  const size = column[ordinal]
  return size === LARGE_SIZE ? largeSize(large, ordinal) : size
}

/**
 * The side-list size of `ordinal` (bisection); LARGE_SIZE when it has none.
 * @param {LargeSizes} large
 * @param {number} ordinal
 */
function largeSize (large, ordinal) {
  const { ordinals, sizes } = large
  let low = 0
  let high = ordinals.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const at = ordinals[middle]
    if (at === ordinal) return sizes[middle]
    if (at < ordinal) low = middle + 1
    else high = middle - 1
  }
  return LARGE_SIZE
}

/**
 * The sizes as one Float64Array (8 bytes per node), exact.
 * @param {Uint32Array} column
 * @param {LargeSizes} large
 * @param {Float64Array} [storage] where to write them (its first column.length entries) instead of
 *   a new array
 * @returns {Float64Array}
 */
export function toFloat64Sizes (column, large, storage) {
  let sizes
  if (storage && storage.length >= column.length) {
    sizes = storage.subarray(0, column.length)
    sizes.set(column)
  } else {
    sizes = new Float64Array(column)
  }
  for (let k = 0; k < large.ordinals.length; k++) sizes[large.ordinals[k]] = large.sizes[k]
  return sizes
}
