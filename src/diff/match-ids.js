// Node ids are stable for the life of one V8 isolate and grow with allocation, so "the same object"
// across two snapshots of one process is "the same id". Matching is a merge walk over ids sorted
// once per snapshot (HeapGraph#ordinalsById): linear after the sort, no Map (a Map holds at most
// 16.7 M entries).

/** @import {StringTable} from '../parse/string-table.js' */

/**
 * For every node of a snapshot, whether its id occurs in another snapshot: a merge walk over both
 * snapshots' ordinals sorted by id. (V8 writes nodes nearly in id order, so the walk over the other
 * snapshot's permutation reads its ids almost in sequence.)
 * @param {Uint32Array} nodeIds the snapshot's ids, by ordinal
 * @param {Uint32Array} byId its ordinals sorted by id (HeapGraph#ordinalsById)
 * @param {Uint32Array} otherIds the other snapshot's ids, by ordinal
 * @param {Uint32Array} otherById its ordinals sorted by id
 * @returns {Uint8Array} 1 where the node's id is in the other snapshot, by ordinal
 */
export function markPresent (nodeIds, byId, otherIds, otherById) {
  const present = new Uint8Array(nodeIds.length)
  const n = byId.length
  const m = otherById.length
  let j = 0
  for (let i = 0; i < n; i++) {
    const ordinal = byId[i]
    const id = nodeIds[ordinal]
    while (j < m && otherIds[otherById[j]] < id) j++
    if (j < m && otherIds[otherById[j]] === id) present[ordinal] = 1
  }
  return present
}

/**
 * @typedef {object} IdAgreement
 * @property {number} shared    V8 heap object ids (odd) found in both snapshots
 * @property {number} checked   how many of those were compared by type and name (a sample)
 * @property {number} ratio     share of the checked ones with the same type and name in both:
 *                              ~1 within one process, ~0.3 for two processes
 */

// About this many shared ids are compared: within one process nearly all agree, across two about a
// third do, and a few thousand tell those apart to a point or two.
const SAMPLE = 5_000

/**
 * How well the ids of two snapshots line up. Within one process a surviving id keeps its type and
 * name; across processes ids are reused for unrelated objects (heapsnapshot-format.md section 5).
 * @param {{nodeIds: Uint32Array, nodeTypes: Uint8Array, nodeNames: Uint32Array, strings: StringTable}} a
 * @param {{nodeIds: Uint32Array, nodeTypes: Uint8Array, nodeNames: Uint32Array, strings: StringTable}} b
 * @param {Uint32Array} aById a's ordinals sorted by id
 * @param {Uint32Array} bById b's ordinals sorted by id
 * @returns {IdAgreement}
 */
export function compareIds (a, b, aById, bById) {
  const step = Math.max(1, Math.floor(Math.min(aById.length, bById.length) / SAMPLE))
  let shared = 0
  let checked = 0
  let same = 0
  let j = 0
  for (let i = 0; i < aById.length; i++) {
    const ao = aById[i]
    const id = a.nodeIds[ao]
    if ((id & 1) === 0) continue
    while (j < bById.length && b.nodeIds[bById[j]] < id) j++
    if (j === bById.length) break
    const bo = bById[j]
    if (b.nodeIds[bo] !== id) continue
    if (shared++ % step !== 0) continue
    checked++
    if (a.nodeTypes[ao] === b.nodeTypes[bo] && a.strings.sameText(a.nodeNames[ao], b.strings, b.nodeNames[bo])) same++
  }
  return { shared, checked, ratio: checked === 0 ? 0 : same / checked }
}
