// The class table's names for classes a minifier renamed, with the names people wrote: for the
// rows a report shows (the class table, the classes each growth row holds, a finding's lists).

import { IDENTIFIER } from './variable-names.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */

/**
 * The names among `shown` that stand for renamed classes, with the names people wrote: a name is
 * taken when every class of that name in the snapshot (two scripts may have an `a`) has the same
 * original, found from one object of each (NameResolver#className).
 * @param {Iterable<string>} shown the names a report shows
 * @param {HeapAnalysis} analysis
 * @param {NameResolver} names
 * @returns {Map<string, string>}
 */
export function renamedClasses (shown, analysis, names) {
  const { graph, classes, classOf, locations } = analysis
  const wanted = new Set([...shown].filter((name) => IDENTIFIER.test(name)))
  /** @type {Map<string, string>} */
  const renamed = new Map()
  if (wanted.size === 0) return renamed
  const sample = new Int32Array(classes.names.length).fill(-2)
  let missing = 0
  classes.names.forEach((name, k) => {
    if (!wanted.has(name)) return
    sample[k] = -1
    missing++
  })
  // One object of each class, with its constructor's location: a single pass that stops once
  // every class has one.
  const recordOf = locations.ascendingRecordLookup()
  for (let o = 0; o < graph.nodeCount && missing > 0; o++) {
    const k = classOf[o]
    if (sample[k] !== -1 || graph.nodeTypes[o] !== graph.nodeType.object || recordOf(o) < 0) continue
    sample[k] = o
    missing--
  }
  /** @type {Map<string, string | null>} */
  const agreed = new Map()
  classes.names.forEach((name, k) => {
    if (sample[k] === -2 || agreed.get(name) === null) return
    const original = sample[k] < 0 ? null : names.className(analysis, sample[k], name)
    const before = agreed.get(name)
    agreed.set(name, original === null || (before !== undefined && before !== original) ? null : original)
  })
  for (const [name, original] of agreed) if (original !== null) renamed.set(name, original)
  return renamed
}
