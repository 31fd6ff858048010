// Node ids are stable for the life of one V8 isolate and grow with allocation, so "the same object"
// across two snapshots of one process is "the same id". Each id is looked up in the other
// snapshot's id index (HeapGraph#idIndex): one read of a table per object, no Map (a Map holds at
// most 16.7 M entries).

/** @import {IdIndex} from '../graph/id-index.js' */
/** @import {StringTable} from '../parse/string-table.js' */

/**
 * For every node of a snapshot, whether its id occurs in another snapshot. (V8 writes nodes nearly
 * in id order, so the other snapshot's table is read almost in sequence.)
 * @param {Uint32Array} nodeIds the snapshot's ids, by ordinal
 * @param {IdIndex} other the other snapshot's id index
 * @param {{marks?: Uint8Array, value?: number}} [into]  marks: the array to write (a new one by
 *   default, 0 elsewhere), value: what to write there (1)
 * @returns {Uint8Array} `value` where the node's id is in the other snapshot, by ordinal
 */
export function markPresent (nodeIds, other, { marks, value = 1 } = {}) {
  const present = marks ?? new Uint8Array(nodeIds.length)
  other.markPresent(nodeIds, present, value)
  return present
}

/**
 * @typedef {object} IdAgreement
 * @property {number} checked   how many ids of `a`, a sample, were found in `b` and compared by type and name
 * @property {number} ratio     share of the checked ones with the same type and name in both:
 *                              ~1 within one process, ~0.3 for two processes
 */

// About this many of a's ids are looked up in b: within one process nearly all that are found agree,
// across two about a third do, and a few thousand tell those apart to a point or two.
const SAMPLE = 5_000
const MIN_CHECKED = 500

/**
 * How well the ids of two snapshots line up. Within one process a surviving id keeps its type and
 * name; across processes ids are reused for unrelated objects (heapsnapshot-format.md section 5).
 * A sample of a's object ids, spread evenly over its nodes, is looked up in b: no walk over every
 * id of both.
 * @param {{nodeIds: Uint32Array, nodeTypes: Uint8Array, nodeNames: Uint32Array, strings: StringTable}} a
 * @param {{nodeIds: Uint32Array, nodeTypes: Uint8Array, nodeNames: Uint32Array, strings: StringTable}} b
 * @param {IdIndex} bIndex b's id index
 * @returns {IdAgreement}
 */
export function compareIds (a, b, bIndex) {
  const sampled = compareSample(a, b, bIndex, Math.max(1, Math.floor(a.nodeIds.length / SAMPLE)))
  // Few of a's objects left in b (a heap that turned over): the sample may have missed them, so
  // every id is looked up.
  return sampled.checked >= MIN_CHECKED ? sampled : compareSample(a, b, bIndex, 1)
}

/**
 * @param {Parameters<typeof compareIds>[0]} a
 * @param {Parameters<typeof compareIds>[1]} b
 * @param {IdIndex} bIndex
 * @param {number} step  every step-th of a's nodes in ordinal order
 * @returns {IdAgreement}
 */
function compareSample (a, b, bIndex, step) {
  const { nodeIds } = a
  let checked = 0
  let same = 0
  for (let i = 0; i < nodeIds.length;) {
    // The first object id (odd: V8's ids of synthetic nodes are even) at or after the sample point.
    let ao = i
    while (ao < nodeIds.length && (nodeIds[ao] & 1) === 0) ao++
    if (ao === nodeIds.length) break
    i = Math.max(i + step, ao + 1)
    const bo = bIndex.ordinalOf(nodeIds[ao])
    if (bo < 0) continue
    checked++
    if (a.nodeTypes[ao] === b.nodeTypes[bo] && a.strings.sameText(a.nodeNames[ao], b.strings, b.nodeNames[bo])) same++
  }
  return { checked, ratio: checked === 0 ? 0 : same / checked }
}
