// What a set of heap objects keeps alive on its own (their dominator subtrees), by class.

import { AGE_OLD } from './ages.js'
import { dominatedNodes } from './dominator-subtree.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

/**
 * @typedef {object} HeldClasses
 * @property {number} holders  the objects asked about
 * @property {number} objects  nodes they keep alive (themselves included)
 * @property {number} bytes    shallow bytes of those nodes
 * @property {Array<{name: string, count: number, size: number}>} classes  by count, largest first
 */

/**
 * Tallies the classes of the objects that `holders` dominate (themselves included).
 * @param {HeapAnalysis} analysis
 * @param {number[]} holders ordinals
 * @param {Uint8Array} [ages] only nodes not AGE_OLD are counted when given
 * @returns {HeldClasses}
 */
export function heldClasses (analysis, holders, ages) {
  const { shallowSizes, classOf } = analysis
  const { nodes } = dominatedNodes(analysis, holders)
  /** @type {Map<number, {count: number, size: number}>} */
  const byClass = new Map()
  let objects = 0
  let bytes = 0
  for (const o of nodes) {
    if ((ages && ages[o] === AGE_OLD) || !(shallowSizes.at(o) > 0)) continue
    objects++
    bytes += shallowSizes.at(o)
    let tally = byClass.get(classOf[o])
    if (!tally) byClass.set(classOf[o], (tally = { count: 0, size: 0 }))
    tally.count++
    tally.size += shallowSizes.at(o)
  }
  const classes = [...byClass].sort((a, b) => b[1].count - a[1].count || b[1].size - a[1].size)
    .map(([c, { count, size }]) => ({ name: analysis.classes.names[c], count, size }))
  return { holders: holders.length, objects, bytes, classes }
}

/**
 * The program classes among held objects that come about once per holder or more: the objects a
 * person recognises (IncomingMessage, ServerResponse, Socket), not engine bookkeeping, plain
 * objects, strings, arrays or functions.
 * @param {HeldClasses} held
 * @param {number} [limit]
 * @returns {string[]}
 */
export function recognisedClasses (held, limit = 3) {
  return held.classes
    .filter(({ name, count }) => count * 2 >= held.holders && isProgramClass(name))
    .sort((a, b) => b.size - a.size)
    .slice(0, limit)
    .map(({ name }) => name)
}

/**
 * The most common classes of a list of ordinals, for "keys (string), values ({body, headers})".
 * @param {HeapAnalysis} analysis
 * @param {number[]} ordinals
 * @param {number} [limit]
 * @returns {string[]}
 */
export function commonClasses (analysis, ordinals, limit = 3) {
  /** @type {Map<number, number>} */
  const counts = new Map()
  for (const o of ordinals) counts.set(analysis.classOf[o], (counts.get(analysis.classOf[o]) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([c]) => analysis.classes.names[c])
}

/** @param {string} name */
function isProgramClass (name) {
  return !name.startsWith('(') && !name.startsWith('system / ') && !name.startsWith('{') &&
    !['Object', 'Array', 'Function', 'Map', 'Set', 'Listener', 'Promise'].includes(name)
}
