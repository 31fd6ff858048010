// V8 id -> node ordinal, for matching objects between snapshots and for looking up the ids a report
// names. V8 gives each heap object it meets the next odd id, so a snapshot's odd ids are unique and
// dense: each goes straight to its slot (id >> 1) of a table, and a lookup is one read. Embedder
// nodes have even ids, anywhere: they go to a small hash table of their own. A diff looks
// up every node of the newest snapshot in the earlier ones, nearly in id order as V8 writes nodes
// nearly so: the table is read almost in sequence, with no sort of the earlier snapshots' ids and
// no merge walk. Odd ids too sparse for a table of MAX_SLOTS_PER_NODE slots per node (a heap most of
// whose objects died since ids began; 4 B per slot, so the table keeps at most 8 B per node) are
// sorted instead (sortPositionsByKey, 4 B per node): a lookup bisects, and a diff's matching
// tests a bit per slot (up to MAX_BIT_SLOTS_PER_NODE slots per node, 8 B per node at most), so that
// it stays linear. An id twice (a snapshot V8 did not write) finds its last node either way.

import { searchSortedPositions, sortPositionsByKey } from './sorted-index.js'

/** Odd ids get a table while their largest needs at most this many slots per node. */
const MAX_SLOTS_PER_NODE = 2
/** Sorted odd ids get a bit per slot for the matching while they need at most this many per node. */
const MAX_BIT_SLOTS_PER_NODE = 64

/** The ordinal of each id of one snapshot. */
export class IdIndex {
  /** ordinal + 1 by slot (odd id >> 1), 0 for an id no node has; null when the ids are sorted instead */
  #table
  /** the even ids, with a table */
  #evens
  /** without a table: the odd ids' ordinals sorted by id */
  #sorted
  /** without a table: a bit per slot (odd id >> 1), set for the ids a node has; null when too sparse */
  #present
  /** the ids, by ordinal */
  #nodeIds

  /**
   * @param {Uint32Array} nodeIds by ordinal
   */
  constructor (nodeIds) {
    const n = nodeIds.length
    const { maxOdd, evenCount } = scanIds(nodeIds)
    const slots = n === 0 ? 0 : (maxOdd >>> 1) + 1
    const evens = new Uint32Array(evenCount)
    const table = slots <= MAX_SLOTS_PER_NODE * n + 1024 ? new Uint32Array(slots) : null
    const odd = placeIds(nodeIds, table, evens)
    this.#nodeIds = nodeIds
    this.#table = table
    this.#evens = new IdHash(evens, nodeIds)
    this.#sorted = odd === null ? new Uint32Array(0) : pick(odd, sortPositionsByKey(pick(nodeIds, odd)))
    this.#present = odd !== null && slots <= MAX_BIT_SLOTS_PER_NODE * n + 8192 ? markOddIds(nodeIds, slots) : null
  }

  /**
   * The ordinal of the node with V8 id `id`, or -1 (the last in ordinal order when several have it).
   * @param {number} id
   */
  ordinalOf (id) {
    const table = this.#table
    if ((id & 1) === 0) return this.#evens.ordinalOf(id)
    if (table === null) return searchSortedPositions(this.#sorted, this.#nodeIds, id)
    const slot = id >>> 1
    return slot < table.length ? table[slot] - 1 : -1
  }

  /**
   * Writes `value` into `marks` for each node of another snapshot whose id is in this one.
   * @param {Uint32Array} nodeIds the other snapshot's ids, by ordinal
   * @param {Uint8Array} marks by the other snapshot's ordinal
   * @param {number} value
   */
  markPresent (nodeIds, marks, value) {
    const table = this.#table
    const present = this.#present
    if (table === null) {
      const bits = present === null ? 0 : 8 * present.length
      for (let o = 0; o < nodeIds.length; o++) {
        const id = nodeIds[o]
        const slot = id >>> 1
        const found = (id & 1) === 1 && present !== null
          ? slot < bits && ((present[slot >>> 3] >>> (slot & 7)) & 1) === 1
          : this.ordinalOf(id) >= 0
        if (found) marks[o] = value
      }
      return
    }
    const slots = table.length
    for (let o = 0; o < nodeIds.length; o++) {
      const id = nodeIds[o]
      if ((id & 1) === 0) {
        if (this.#evens.ordinalOf(id) >= 0) marks[o] = value
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
    return sorted.length === 0 ? 0 : this.#nodeIds[sorted[sorted.length - 1]]
  }
}

/** Ids by open addressing: ordinal + 1 by slot, linear probing, at most half the slots used. */
class IdHash {
  #ids
  #ordinals
  #mask
  #shift

  /**
   * @param {Uint32Array} ordinals  the nodes to take, in ordinal order (the last of an id twice wins)
   * @param {Uint32Array} nodeIds
   */
  constructor (ordinals, nodeIds) {
    let bits = 4
    while (1 << bits < 2 * ordinals.length) bits++
    const size = 1 << bits
    this.#mask = size - 1
    this.#shift = 32 - bits
    this.#ids = new Uint32Array(size)
    this.#ordinals = new Uint32Array(size)
    for (let k = 0; k < ordinals.length; k++) {
      const id = nodeIds[ordinals[k]]
      let slot = hash(id, this.#shift)
      while (this.#ordinals[slot] !== 0 && this.#ids[slot] !== id) slot = (slot + 1) & this.#mask
      this.#ids[slot] = id
      this.#ordinals[slot] = ordinals[k] + 1
    }
  }

  /** @param {number} id */
  ordinalOf (id) {
    for (let slot = hash(id, this.#shift); this.#ordinals[slot] !== 0; slot = (slot + 1) & this.#mask) {
      if (this.#ids[slot] === id) return this.#ordinals[slot] - 1
    }
    return -1
  }
}

/**
 * The top bits of the id times 2^32 / φ (Fibonacci hashing): ids that differ anywhere land apart.
 * @param {number} id
 * @param {number} shift  32 - the bits wanted
 */
function hash (id, shift) {
  return Math.imul(id, 0x9e3779b1) >>> shift
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
 * A bit per slot (odd id >> 1), set for each odd id the nodes have.
 * @param {Uint32Array} ids
 * @param {number} slots
 */
function markOddIds (ids, slots) {
  const bits = new Uint8Array((slots + 7) >>> 3)
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]
    if ((id & 1) === 1) bits[id >>> 4] |= 1 << ((id >>> 1) & 7)
  }
  return bits
}

/**
 * The even ids' ordinals into `evens`, in ordinal order; each odd id's ordinal + 1 into its slot
 * of `table` (the last node's, for an id twice), or, without a table, the odd ids' ordinals listed.
 * @param {Uint32Array} ids
 * @param {Uint32Array | null} table
 * @param {Uint32Array} evens
 * @returns {Uint32Array | null} the odd ids' ordinals without a table, else null
 */
function placeIds (ids, table, evens) {
  const odd = table === null ? new Uint32Array(ids.length - evens.length) : null
  let e = 0
  let k = 0
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]
    if ((id & 1) === 0) evens[e++] = i
    else if (table !== null) table[id >>> 1] = i + 1
    else /** @type {Uint32Array} */ (odd)[k++] = i
  }
  return odd
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
