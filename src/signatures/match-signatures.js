// Runs the signatures over a diff, in their order (index.js): a growth row one signature explains
// is not offered to the ones after it, and one leak found from several rows is one finding.

import { HEAP_NAMES } from '../analysis/shown-names.js'
import { SIGNATURES } from './index.js'
/** @import {Finding, Signature, SignatureInput} from './finding.js' */
/** @import {DiffResult, DiffDetail} from '../diff/diff-heaps.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */

/**
 * Runs every signature over a diff. A growth row explained by one signature is not offered to the
 * ones after it.
 * @param {DiffResult} result
 * @param {DiffDetail | null} detail  null for an aggregates-only comparison: nothing to match
 * @param {{cwd?: string, names?: NameResolver, signatures?: Signature[]}} [options] names: the
 *   names people wrote and the scripts' texts, from the sources layer (the heap's own by default)
 * @returns {Finding[]} ranked like the growth rows they explain
 */
export function matchSignatures (result, detail, { cwd = process.cwd(), names = HEAP_NAMES, signatures = SIGNATURES } = {}) {
  if (detail === null) return []
  const claimed = new Set()
  /** @type {Array<{group: number, order: number, finding: Finding}>} */
  const found = []
  // One finding per leak: rows of one collection (the collection's own, and the new records below
  // two roots that it holds) would otherwise each give the same finding. The one with the higher
  // confidence (the row whose growth is most of it) stays, ranked by the first of the rows.
  /** @type {Map<string, {group: number, order: number, finding: Finding}>} */
  const bySubject = new Map()
  for (const signature of signatures) {
    const candidates = result.growth.map((_, g) => g).filter((g) => !claimed.has(g))
    /** @type {SignatureInput} */
    const input = { result, detail, candidates, cwd, names }
    for (const { group, finding, also = [] } of signature.match(input)) {
      if (group >= 0) {
        if (claimed.has(group)) continue
        claimed.add(group)
      }
      for (const g of also) claimed.add(g)
      const entry = { group: group < 0 ? Infinity : group, order: found.length, finding }
      const key = subjectKey(finding)
      const same = key === null ? undefined : bySubject.get(key)
      if (same !== undefined) {
        if (finding.confidence > same.finding.confidence) same.finding = finding
        same.group = Math.min(same.group, entry.group)
        continue
      }
      if (key !== null) bySubject.set(key, entry)
      found.push(entry)
    }
  }
  return found.sort((a, b) => a.group - b.group || a.order - b.order).map(({ finding }) => finding)
}

/**
 * What a finding is about: its signature, the object its path ends at and its title. Null when its
 * path is empty.
 * @param {Finding} finding
 */
function subjectKey (finding) {
  const end = finding.path.at(-1)
  return end === undefined ? null : `${finding.signature}\0${end.id}\0${finding.title}`
}
