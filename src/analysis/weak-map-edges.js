// WeakMap ephemeron edges. V8 reports each live WeakMap value twice, with internal edges named
//
//   "<n> / part of key (<Key> @<keyId>) -> value (<Value> @<valueId>) pair in WeakMap (table @<tableId>)"
//
// one from the table and one from the key; both halves share the text after "<n>". DevTools drops
// the table's half from the dominator graph (the value then belongs to its key) and lets distances
// take the later of the two (heapsnapshot-format.md 4.3, 4.6).

/** @import {HeapGraph} from '../graph/heap-graph.js' */

const EPHEMERON_NAME = /^\d+(?<pair> \/ part of key \(.*? @\d+\) -> value \(.*? @\d+\) pair in WeakMap \(table @(?<tableId>\d+)\))$/
// No name shorter than this can match (empty class names, one-digit ids); the escaped length in
// the string table is never less than the decoded length, so shorter names are rejected unread.
const MIN_EPHEMERON_NAME_LENGTH = '0 / part of key ( @0) -> value ( @0) pair in WeakMap (table @0)'.length

const NOT_EPHEMERON = 1
const EPHEMERON = 2

/**
 * @typedef {object} EphemeronName
 * @property {number} pairId   the same for both halves of a pair, counting up from 0
 * @property {number} tableId  V8 id of the WeakMap's table
 */

/** @type {EphemeronName} */
const NOT_AN_EPHEMERON = Object.freeze({ pairId: -1, tableId: -1 })

// The analysis asks for every internal edge, most of which are no ephemeron: those are answered
// from one byte per string, and every answer is a number, so the edge loops never handle the parsed
// names themselves.
export class WeakMapEdgeNames {
  #strings
  /** @type {Uint8Array} per string index: 0 not yet seen, NOT_EPHEMERON or EPHEMERON */
  #state
  /** @type {Map<number, EphemeronName>} string index -> parsed name, for the few that match */
  #parsed = new Map()
  /** @type {Map<string, number>} the text both halves share -> pair id */
  #pairIds = new Map()

  /** @param {HeapGraph} graph */
  constructor (graph) {
    this.#strings = graph.strings
    this.#state = new Uint8Array(graph.strings.length)
  }

  /**
   * V8 id of the WeakMap table when string `nameIndex` is an ephemeron edge name, else -1.
   * @param {number} nameIndex
   */
  tableId (nameIndex) {
    return this.#state[nameIndex] === NOT_EPHEMERON ? -1 : this.#name(nameIndex).tableId
  }

  /**
   * A number both halves of the pair share when string `nameIndex` is an ephemeron edge name, else -1.
   * @param {number} nameIndex
   */
  pairId (nameIndex) {
    return this.#state[nameIndex] === NOT_EPHEMERON ? -1 : this.#name(nameIndex).pairId
  }

  /**
   * Each string is decoded at most once.
   * @param {number} nameIndex
   * @returns {EphemeronName}
   */
  #name (nameIndex) {
    if (this.#state[nameIndex] === EPHEMERON) return /** @type {EphemeronName} */ (this.#parsed.get(nameIndex))
    if (this.#strings.rawLength(nameIndex) < MIN_EPHEMERON_NAME_LENGTH) {
      this.#state[nameIndex] = NOT_EPHEMERON
      return NOT_AN_EPHEMERON
    }
    const groups = EPHEMERON_NAME.exec(this.#strings.get(nameIndex))?.groups
    if (!groups) {
      this.#state[nameIndex] = NOT_EPHEMERON
      return NOT_AN_EPHEMERON
    }
    let pairId = this.#pairIds.get(groups.pair)
    if (pairId === undefined) {
      pairId = this.#pairIds.size
      this.#pairIds.set(groups.pair, pairId)
    }
    const parsed = { pairId, tableId: Number(groups.tableId) }
    this.#state[nameIndex] = EPHEMERON
    this.#parsed.set(nameIndex, parsed)
    return parsed
  }
}
