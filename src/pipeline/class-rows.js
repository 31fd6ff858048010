// The class rows a report shows under the names people wrote, for classes a minifier renamed: the
// class table, the classes each growth row holds, and the classes a finding's evidence lists. A
// row keeps the name that ran beside.

/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {DiffResult} from '../diff/diff-heaps.js' */
/** @import {Finding} from '../signatures/finding.js' */
/** @import {SourceLocator} from '../sources/source-locator.js' */

/** The evidence fields that list class names (collections' keys and values, arrays' elements). */
export const CLASS_LISTS = ['keyClasses', 'valueClasses', 'elementClasses']

/**
 * Renames, in place, the rows of `result` a report of `top` rows shows and the findings' class
 * lists.
 * @param {DiffResult} result
 * @param {Finding[]} findings
 * @param {SourceLocator} locator
 * @param {HeapAnalysis} last
 * @param {number} top
 */
export function nameClassRows (result, findings, locator, last, top) {
  const rows = [...(top === 0 ? result.classes : result.classes.slice(0, top)), ...result.growth.flatMap((group) => group.classes)]
  const lists = findings.flatMap(({ evidence }) => CLASS_LISTS.map((key) => evidence[key]).filter((list) => Array.isArray(list)))
  const renamed = locator.renamedClasses(new Set([...rows.map((row) => row.name), ...lists.flat()]), last)
  if (renamed.size === 0) return
  for (const row of rows) {
    const original = renamed.get(row.name)
    if (original === undefined) continue
    row.generatedName = row.name
    row.name = original
  }
  for (const list of lists) list.forEach((name, i) => (list[i] = renamed.get(name) ?? name))
}
