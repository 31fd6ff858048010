// The finding every shape of growing-array makes: the evidence each shows first (elements per
// snapshot, bytes per element, the elements' classes, the notes), then the shape's own fields.

import { evidenceOf, judgeCollection } from '../growth-evidence.js'
import { ID } from './array-words.js'
/** @import {CollectionGrowth} from '../collection-growth.js' */
/** @import {Match, SourceLocation} from '../finding.js' */

/**
 * @param {number} g  the growth row
 * @param {CollectionGrowth} growth  the row's array and its growth
 * @param {string[]} elementClasses  the new elements' most common classes
 * @param {{title: string, notes: string[], evidence: Record<string, unknown>, location: SourceLocation | null,
 *   fix: {summary: string, snippet: string}}} found  evidence: the shape's own fields
 * @returns {Match}
 */
export function arrayFinding (g, growth, elementClasses, { title, notes, evidence, location, fix }) {
  const { owner, path, counts, retained, share } = growth
  const added = counts[counts.length - 1] - counts[0]
  const { confidence, reasons } = judgeCollection(counts, share, growth.freshShare, 'elements')
  return {
    group: g,
    finding: {
      signature: ID,
      title,
      confidence,
      reasons,
      owner,
      path,
      evidence: {
        ...evidenceOf('elements', counts, retained, growth.ownerCount),
        bytesPerElement: Math.round((retained[retained.length - 1] - retained[0]) / added),
        elementClasses,
        notes,
        ...evidence
      },
      location,
      fix
    }
  }
}
