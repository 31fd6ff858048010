import { AGE_OLD } from '../query/ages.js'
import { markPresent } from './match-ids.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

/**
 * One row of the Comparison view (heapsnapshot-format.md section 5), plus the retained-size delta.
 * @typedef {object} ClassDelta
 * @property {string} name
 * @property {string} [generatedName]   the class's name in the code that ran, when a minifier
 *   renamed it (`name` is then the one its source map gives)
 * @property {number} newCount          objects of the class only in the later snapshot
 * @property {number} deletedCount      objects of the class only in the earlier snapshot
 * @property {number} countDelta
 * @property {number} sizeDelta         shallow bytes allocated minus shallow bytes freed
 * @property {number} retainedSizeDelta the class's Summary retained size, later minus earlier
 */

/**
 * DevTools' Comparison view between two snapshots of one process: per class key, objects whose id
 * is only in `after` are new, only in `before` deleted. Nodes with no shallow size never count.
 * @param {HeapAnalysis} before
 * @param {HeapAnalysis} after
 * @param {Uint8Array} [ages]  the ages of `after`'s nodes against `before` (computeNodeAges), when
 *   the caller has them: AGE_OLD is "also in before"
 * @returns {ClassDelta[]} rows with any change, largest shallow growth first
 */
export function diffClassesById (before, after, ages) {
  const table = new ClassTable(before, after)
  const beforeIds = before.graph.nodeIds
  const afterIds = after.graph.nodeIds
  const beforeInAfter = markPresent(beforeIds, after.graph.idIndex())
  const afterInBefore = ages ?? markPresent(afterIds, before.graph.idIndex())
  const present = ages === undefined ? 1 : AGE_OLD
  for (let o = 0; o < afterIds.length; o++) {
    if (afterInBefore[o] === present) continue
    const size = after.shallowSizes.at(o)
    if (!(size > 0)) continue
    const row = table.rowOf(after, o)
    row.newCount++
    row.sizeDelta += size
  }
  for (let o = 0; o < beforeIds.length; o++) {
    if (beforeInAfter[o] === 1) continue
    const size = before.shallowSizes.at(o)
    if (!(size > 0)) continue
    const row = table.rowOf(before, o)
    row.deletedCount++
    row.sizeDelta -= size
  }
  return table.finish()
}

/**
 * Snapshots of two processes share no ids, so only the class totals can be compared: new and
 * deleted are the count differences, the size delta the difference of shallow sizes.
 * @param {HeapAnalysis} before
 * @param {HeapAnalysis} after
 * @returns {ClassDelta[]}
 */
export function diffClassesByTotals (before, after) {
  const table = new ClassTable(before, after)
  for (const [side, analysis] of /** @type {const} */ ([[-1, before], [1, after]])) {
    const { keys, names, counts, selfSizes } = analysis.classes
    for (let c = 0; c < keys.length; c++) {
      const row = table.rowByKey(keys[c], names[c])
      row.countDelta += side * counts[c]
      row.sizeDelta += side * selfSizes[c]
    }
  }
  for (const row of table.rows.values()) {
    row.newCount = Math.max(0, row.countDelta)
    row.deletedCount = Math.max(0, -row.countDelta)
  }
  return table.finish()
}

// Rows keyed by class key (one entry per class, not per node).
class ClassTable {
  /** @type {Map<string, ClassDelta>} */
  rows = new Map()

  /**
   * @param {HeapAnalysis} before
   * @param {HeapAnalysis} after
   */
  constructor (before, after) {
    for (const [side, analysis] of /** @type {const} */ ([[-1, before], [1, after]])) {
      const { keys, names, retainedSizes } = analysis.classes
      for (let c = 0; c < keys.length; c++) this.rowByKey(keys[c], names[c]).retainedSizeDelta += side * retainedSizes[c]
    }
    this.beforeRows = before.classes.keys.map((key) => /** @type {ClassDelta} */ (this.rows.get(key)))
    this.afterRows = after.classes.keys.map((key) => /** @type {ClassDelta} */ (this.rows.get(key)))
    this.after = after
  }

  /**
   * @param {string} key
   * @param {string} name
   */
  rowByKey (key, name) {
    let row = this.rows.get(key)
    if (!row) {
      row = { name, newCount: 0, deletedCount: 0, countDelta: 0, sizeDelta: 0, retainedSizeDelta: 0 }
      this.rows.set(key, row)
    }
    return row
  }

  /**
   * @param {HeapAnalysis} analysis
   * @param {number} ordinal
   */
  rowOf (analysis, ordinal) {
    const rows = analysis === this.after ? this.afterRows : this.beforeRows
    return rows[analysis.classOf[ordinal]]
  }

  finish () {
    const rows = []
    for (const row of this.rows.values()) {
      if (row.newCount !== 0 || row.deletedCount !== 0) row.countDelta = row.newCount - row.deletedCount
      if (row.newCount === 0 && row.deletedCount === 0 && row.sizeDelta === 0 && row.retainedSizeDelta === 0) continue
      rows.push(row)
    }
    // Shallow growth first, as DevTools' Comparison view sorts: the classes of the new objects
    // themselves, not every container above them (whose retained sizes all grow with them).
    return rows.sort((a, b) => b.sizeDelta - a.sizeDelta || b.retainedSizeDelta - a.retainedSizeDelta || (a.name < b.name ? -1 : 1))
  }
}
