// Turns per-snapshot counts into the evidence and confidence every finding carries. Confidence is
// built from named facts (each adds a share and a reason), so a reader sees why it is what it is.

/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

/**
 * The differences between consecutive counts.
 * @param {number[]} counts oldest first
 * @returns {number[]}
 */
export function stepsOf (counts) {
  const steps = []
  for (let i = 1; i < counts.length; i++) steps.push(counts[i] - counts[i - 1])
  return steps
}

/**
 * Average growth per step between snapshots.
 * @param {number[]} counts oldest first
 */
export function perStepOf (counts) {
  return counts.length < 2 ? 0 : (counts[counts.length - 1] - counts[0]) / (counts.length - 1)
}

/**
 * Whether the counts grew in every step.
 * @param {number[]} counts
 */
export function growsEveryStep (counts) {
  return counts.length >= 2 && stepsOf(counts).every((step) => step > 0)
}

/**
 * The retained size of the object with V8 id `id` in each snapshot (0 where it does not exist).
 * @param {HeapAnalysis[]} analyses oldest first
 * @param {number} id
 * @returns {number[]} bytes
 */
export function retainedById (analyses, id) {
  return analyses.map(({ graph, retainedSizes }) => {
    const o = graph.findOrdinalById(id)
    return o < 0 ? 0 : retainedSizes.at(o)
  })
}

/**
 * Confidence from the growth of the counts and the facts a signature adds. Three snapshots that
 * grow in both steps by similar amounts are the strongest evidence that growth is unbounded; two
 * snapshots cannot tell a one-time fill from a leak.
 * @param {number[]} counts oldest first
 * @param {Array<{weight: number, reason: string}>} facts  extra support found by the signature
 * @returns {{confidence: number, reasons: string[]}}
 */
export function judgeGrowth (counts, facts) {
  const steps = stepsOf(counts)
  const reasons = []
  let confidence = 0.4
  if (counts.length >= 3) {
    confidence += 0.2
    reasons.push(`grew in ${steps.length === 2 ? 'both' : `all ${steps.length}`} steps (${steps.map((s) => `+${s}`).join(', ')})`)
    const [low, high] = [Math.min(...steps), Math.max(...steps)]
    if (high <= 2 * low) {
      confidence += 0.1
      reasons.push('by similar amounts each step, as a per-request leak does')
    } else {
      reasons.push('by uneven amounts each step')
    }
  } else {
    confidence += 0.05
    reasons.push(`grew by ${steps[0]} between the two snapshots; only two snapshots, so a one-time fill looks the same (take a third to confirm)`)
  }
  for (const { weight, reason } of facts) {
    confidence += weight
    reasons.push(reason)
  }
  return { confidence: Math.round(Math.min(0.99, Math.max(0.05, confidence)) * 100) / 100, reasons }
}

/**
 * A share as a whole percentage for reasons: 0.953 -> '95%'.
 * @param {number} share 0..1
 */
export function percent (share) {
  return `${Math.round(share * 100)}%`
}

/**
 * judgeGrowth for a collection: how much of its row's growth the entries hold, and whether the new
 * entries hold new objects (a cache refilled with old objects looks the same in counts).
 * @param {number[]} counts oldest first
 * @param {number} share the entries' share of the row's retained growth, 0 to 1
 * @param {number} freshShare the share of new entries that hold objects allocated since the first snapshot
 * @param {string} unit 'entries', 'elements'
 */
export function judgeCollection (counts, share, freshShare, unit) {
  return judgeGrowth(counts, [
    { weight: 0.15 * share, reason: `its ${unit} hold ${percent(share)} of the growth row's retained growth` },
    { weight: freshShare >= 0.8 ? 0.1 : 0, reason: `${percent(freshShare)} of the new ${unit} hold objects allocated after the first snapshot` }
  ])
}

/**
 * The fields every finding's evidence starts with (FindingEvidence): what is counted, the counts and
 * retained bytes per snapshot, the growth per step and how many owners share it.
 * @param {string} unit
 * @param {number[]} counts oldest first
 * @param {number[]} retained oldest first
 * @param {number} ownerCount
 */
export function evidenceOf (unit, counts, retained, ownerCount) {
  return { unit, counts, retained, perStep: perStepOf(counts), ownerCount }
}
