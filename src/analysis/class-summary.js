// The Summary view: per class, the count, shallow size and retained size DevTools shows
// (buildAggregates + calculateClassesRetainedSize, heapsnapshot-format.md 4.7). Only nodes with a
// shallow size > 0 (after 4.5 reassignment) count. The retained sizes per class come from the walk
// of the dominator tree that sums the retained sizes (retained-sizes.js).

/** @import {ClassNames} from './class-names.js' */
/** @import {SizeColumn} from './size-column.js' */

/**
 * @typedef {object} ClassSummary
 * @property {string[]} names             display name per class
 * @property {string[]} keys              class key per class
 * @property {Uint32Array} counts         objects with shallow size > 0
 * @property {Float64Array} selfSizes     sum of their shallow sizes, bytes
 * @property {Float64Array} retainedSizes bytes, without double counting nested same-class nodes
 * @property {Int32Array} minDistances    smallest distance among the counted nodes
 */

/**
 * One Summary row (the JSON report's `classes` entries).
 * @typedef {object} ClassRow
 * @property {string} name
 * @property {string} key
 * @property {number} count
 * @property {number} selfSize
 * @property {number} retainedSize
 */

/**
 * The Summary: per class, the count, shallow size and smallest distance of its counted objects.
 * The retained sizes are zero until computeRetainedSizes gives them.
 * @param {ClassNames} classNames
 * @param {SizeColumn} shallowSizes every node's shallow size
 * @param {Int32Array | null} distances  null: no smallest distances (they stay 0x7fffffff)
 * @returns {ClassSummary}
 */
export function summarizeClasses (classNames, shallowSizes, distances) {
  const { classOf, names, keys } = classNames
  const classCount = names.length
  const nodeCount = classOf.length
  const counts = new Uint32Array(classCount)
  const selfSizes = new Float64Array(classCount)
  const minDistances = new Int32Array(classCount).fill(0x7fffffff)
  for (let o = 0; o < nodeCount; o++) {
    if (shallowSizes.column[o] === 0) continue
    const size = shallowSizes.at(o)
    const c = classOf[o]
    counts[c]++
    selfSizes[c] += size
    if (distances !== null && distances[o] < minDistances[c]) minDistances[c] = distances[o]
  }
  return { names, keys, counts, selfSizes, retainedSizes: new Float64Array(classCount), minDistances }
}

/**
 * Summary rows for classes with at least one counted object, largest retained size first.
 * @param {ClassSummary} summary
 * @returns {ClassRow[]}
 */
export function classRows (summary) {
  /** @type {ClassRow[]} */
  const rows = []
  for (let c = 0; c < summary.names.length; c++) {
    if (summary.counts[c] === 0) continue
    rows.push({
      name: summary.names[c],
      key: summary.keys[c],
      count: summary.counts[c],
      selfSize: summary.selfSizes[c],
      retainedSize: summary.retainedSizes[c]
    })
  }
  return rows.sort((a, b) => b.retainedSize - a.retainedSize || b.selfSize - a.selfSize)
}
