// The objects of a few classes, for a question that only they can answer (live timers, open
// sockets, what the roots hold of a class). One tight pass over the class column finds them; the
// question's own work, with its property lookups and its calls, then runs for them alone instead
// of sitting in a loop over every node of a heap that may hold millions. That loop is also the one
// V8 compiles while it runs: kept this small, it is compiled once and never thrown away when the
// first object of the class turns up.
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
  const members = new Uint32Array(count)
  for (let o = 0, k = 0; k < count; o++) if (mask[classOf[o]] === 1) members[k++] = o
  return members
}
