// V8 id -> node ordinal, for matching objects between snapshots and for looking up the ids a report
// names. V8 gives each heap object it meets the next odd id, so a snapshot's odd ids are unique and
// dense: each goes straight to its slot (id >> 1) of a table, and a lookup is one read. Embedder
// nodes have even ids, few and anywhere: they are sorted apart and found by bisection. A diff looks
// up every node of the newest snapshot in the earlier ones, nearly in id order as V8 writes nodes
// nearly so: the table is read almost in sequence, with no sort of the earlier snapshots' ids and
// no merge walk. Odd ids too sparse for a table of MAX_SLOTS_PER_NODE slots per node (a heap most of
// whose objects died since ids began: 4 B per slot) are all sorted instead (sortPositionsByKey),
// and every lookup bisects. An id twice (a snapshot V8 did not write) finds its last node either way.

import { searchSortedPositions, sortPositionsByKey } from './sorted-index.js'

/** Odd ids get a table while their largest needs at most this many slots per node. */
const MAX_SLOTS_PER_NODE = 4

/** The ordinal of each id of one snapshot. */
export class IdIndex {
  /** ordinal + 1 by slot (odd id >> 1), 0 for an id no node has; null when the ids are sorted instead */
  #table
  /** ordinals sorted by id: the even ids' alone with a table, every one without */
  #sorted
  /** the ids, by ordinal */
  #nodeIds

  /**
   * @param {Uint32Array} nodeIds by ordinal
   */
  constructor (nodeIds) {
    const n = nodeIds.length
    const { maxOdd, evenCount } = scanIds(nodeIds)
    const slots = n === 0 ? 0 : (maxOdd >>> 1) + 1
    const table = slots <= MAX_SLOTS_PER_NODE * n + 1024 ? placeIds(nodeIds, slots, evenCount) : null
    this.#nodeIds = nodeIds
    this.#table = table === null ? null : table.odd
    this.#sorted = table === null ? sortPositionsByKey(nodeIds) : pick(table.evens, sortPositionsByKey(pick(nodeIds, table.evens)))
  }

  /**
   * The ordinal of the node with V8 id `id`, or -1 (the last in ordinal order when several have it).
   * @param {number} id
   */
  ordinalOf (id) {
    const table = this.#table
    if (table !== null && (id & 1) === 1) {
      const slot = id >>> 1
      return slot < table.length ? table[slot] - 1 : -1
    }
    return searchSortedPositions(this.#sorted, this.#nodeIds, id)
  }

  /**
   * Writes `value` into `marks` for each node of another snapshot whose id is in this one.
   * @param {Uint32Array} nodeIds the other snapshot's ids, by ordinal
   * @param {Uint8Array} marks by the other snapshot's ordinal
   * @param {number} value
   */
  markPresent (nodeIds, marks, value) {
    const table = this.#table
    if (table === null) {
      for (let o = 0; o < nodeIds.length; o++) if (this.ordinalOf(nodeIds[o]) >= 0) marks[o] = value
      return
    }
    const slots = table.length
    for (let o = 0; o < nodeIds.length; o++) {
      const id = nodeIds[o]
      if ((id & 1) === 0) {
        if (searchSortedPositions(this.#sorted, this.#nodeIds, id) >= 0) marks[o] = value
      } else if ((id >>> 1) < slots && table[id >>> 1] !== 0) {
        marks[o] = value
      }
    }
  }

  /** The largest odd id (the newest object's), 0 when there is none. */
  newestObjectId () {
    const table = this.#table
    if (table !== null) {
      for (let slot = table.length - 1; slot >= 0; slot--) if (table[slot] !== 0) return 2 * slot + 1
      return 0
    }
    const sorted = this.#sorted
    for (let k = sorted.length - 1; k >= 0; k--) {
      const id = this.#nodeIds[sorted[k]]
      if ((id & 1) === 1) return id
    }
    return 0
  }
}

/**
 * The largest odd id and how many are even.
 * @param {Uint32Array} ids
 */
function scanIds (ids) {
  let maxOdd = 0
  let evenCount = 0
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]
    if ((id & 1) === 0) evenCount++
    else if (id > maxOdd) maxOdd = id
  }
  return { maxOdd, evenCount }
}

/**
 * Each odd id's ordinal + 1 into its slot of a table (the last node's, for an id twice), the even
 * ids' ordinals listed in ordinal order.
 * @param {Uint32Array} ids
 * @param {number} slots
 * @param {number} evenCount
 */
function placeIds (ids, slots, evenCount) {
  const odd = new Uint32Array(slots)
  const evens = new Uint32Array(evenCount)
  let e = 0
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]
    if ((id & 1) === 0) {
      evens[e++] = i
      continue
    }
    odd[id >>> 1] = i + 1
  }
  return { odd, evens }
}

/**
 * values[positions[k]] for each k.
 * @param {Uint32Array} values
 * @param {Uint32Array} positions
 */
function pick (values, positions) {
  const picked = new Uint32Array(positions.length)
  for (let k = 0; k < positions.length; k++) picked[k] = values[positions[k]]
  return picked
}
