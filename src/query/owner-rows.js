// The growth row of each growth owner, by ordinal: one heap-sized array per diff, read by the
// comparison's passes and by every signature that asks which row a new object's owner is in. Each
// owner is in one row. A matcher that looks at some rows only reads it through a filter: a
// heap-sized array of its own would cost more than its reads, as each page of fresh memory is
// faulted in on its first use (about 2,800 for a 2.9-million-node heap, 20 ms on a VM).

/**
 * What a pass reads: the row an owner is in, -1 for a node that owns none of the rows it asks of.
 * @typedef {{rowOf: (ordinal: number) => number}} RowOfOwner
 */

/** The growth row of each owner of a diff's rows. */
export class OwnerRows {
  /** row + 1 by ordinal, 0 for a node that owns no row (no heap-sized fill with -1) */
  #rows

  /**
   * @param {number} nodeCount
   * @param {number[][]} groupOwners per row, its owners' ordinals
   */
  constructor (nodeCount, groupOwners) {
    this.#rows = new Uint32Array(nodeCount)
    this.renumber(groupOwners)
  }

  /**
   * Takes the rows' order anew, after they were sorted: the same owners, each now in the row at
   * the index its owners are listed at. The first row listed wins an owner listed twice.
   * @param {number[][]} groupOwners
   */
  renumber (groupOwners) {
    for (const owners of groupOwners) for (const o of owners) this.#rows[o] = 0
    groupOwners.forEach((owners, g) => { for (const o of owners) if (this.#rows[o] === 0) this.#rows[o] = g + 1 })
  }

  /**
   * The row `ordinal` owns, -1 for none.
   * @param {number} ordinal
   */
  rowOf (ordinal) {
    return this.#rows[ordinal] - 1
  }

  /**
   * The same answers for the given rows only, -1 for an owner of any other.
   * @param {Iterable<number>} rows
   * @returns {RowOfOwner}
   */
  only (rows) {
    const wanted = new Set(rows)
    return { rowOf: (ordinal) => { const row = this.#rows[ordinal] - 1; return row >= 0 && wanted.has(row) ? row : -1 } }
  }
}
