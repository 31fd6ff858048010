// The objects of a few classes, for a question that only they can answer (live timers, open
// sockets). Two tight passes over the class column find them; the question's own work, with its
// property lookups and its calls, then runs for them alone instead of sitting in a loop over every
// node of a heap that may hold millions. Those loops are the ones V8 compiles while they run: kept
// this small and without a branch, they are compiled once and not thrown away when the first
// object of the class turns up.
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

/**
 * Per class index of an analysis, 1 when `test` holds for the class's name.
 * @param {HeapAnalysis} analysis
 * @param {(name: string, index: number) => boolean} test
 * @returns {Uint8Array}
 */
export function classMask (analysis, test) {
  return Uint8Array.from(analysis.classes.names, (name, index) => (test(name, index) ? 1 : 0))
}

/**
 * The nodes whose class `mask` marks, ascending.
 * @param {HeapAnalysis} analysis
 * @param {Uint8Array} mask  1 per class index asked (classMask)
 * @returns {Uint32Array}
 */
export function membersOf (analysis, mask) {
  if (!mask.includes(1)) return new Uint32Array(0)
  return collect(analysis.classOf, mask)
}

/**
 * @param {Uint16Array | Uint32Array} classOf
 * @param {Uint8Array} mask
 */
function collect (classOf, mask) {
  let count = 0
  for (let o = 0; o < classOf.length; o++) count += mask[classOf[o]]
  // One slot more: every node is written to the next slot, which only a member keeps.
  const members = new Uint32Array(count + 1)
  for (let o = 0, k = 0; o < classOf.length; o++) {
    members[k] = o
    k += mask[classOf[o]]
  }
  return members.subarray(0, count)
}
