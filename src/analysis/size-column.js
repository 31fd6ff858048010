// Per-node byte counts in 4 bytes each. Most fit in 32 bits; the few that do not (the root's
// retained size on a heap past 4 GiB, one ArrayBuffer store of 5 GiB) are kept exact in a side
// map, and the column holds LARGE_SIZE for them, as the parser's self-size column does.

import { LARGE_SIZE } from '../parse/large-sizes.js'

export class SizeColumn {
  /**
   * @param {Uint32Array} column bytes per ordinal, LARGE_SIZE for those in `large`
   * @param {Map<number, number>} [large] exact bytes by ordinal, for values of LARGE_SIZE and more
   */
  constructor (column, large = new Map()) {
    /** @readonly */
    this.column = column
    /** @readonly */
    this.large = large
  }

  /** Number of nodes. */
  get length () {
    return this.column.length
  }

  /**
   * Bytes of one node, exact.
   * @param {number} ordinal
   */
  at (ordinal) {
    const value = this.column[ordinal]
    return value === LARGE_SIZE ? /** @type {number} */ (this.large.get(ordinal)) : value
  }

  /**
   * Stores `bytes` for one node.
   * @param {number} ordinal
   * @param {number} bytes
   */
  set (ordinal, bytes) {
    if (bytes < LARGE_SIZE) {
      this.column[ordinal] = bytes
    } else {
      this.column[ordinal] = LARGE_SIZE
      this.large.set(ordinal, bytes)
    }
  }
}
