// The growth rows a matcher is offered that leak, with their owner in the last snapshot: where
// most matchers start.
/** @import {GrowthGroup} from '../diff/growth-groups.js' */
/** @import {SignatureInput} from './finding.js' */

/**
 * @param {SignatureInput} input
 * @returns {Generator<{group: number, row: GrowthGroup, owner: number}>}  group: the row's index;
 *   owner: its owner's ordinal in the last snapshot
 */
export function * leakingRows ({ result, detail, candidates }) {
  const { graph } = detail.analyses[detail.analyses.length - 1]
  for (const group of candidates) {
    const row = result.growth[group]
    if (!row.leak) continue
    const owner = graph.findOrdinalById(row.owner.id)
    if (owner >= 0) yield { group, row, owner }
  }
}
