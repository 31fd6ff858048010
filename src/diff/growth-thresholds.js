// Which growth groups leak: size thresholds, the shape of accumulation with two snapshots, growth
// that continues into the last step with three, and for groups of new owners held from the GC
// roots, the number of such objects the roots hold in each snapshot.

import { AGE_OLD } from '../query/ages.js'
import { countRootHeld } from './root-held.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {GrowthGroup} from './growth-groups.js' */

/**
 * @typedef {object} GrowthThresholds
 * @property {number} minBytes       leaked bytes a group needs to count as a leak
 * @property {number} minObjects     leaked objects a group needs
 * @property {number} minContinued   with three snapshots: objects added in the last step, as a share of the leaked objects,
 *   below which growth counts as stopped unless the last step alone passes minBytes and minObjects
 *
 * With two snapshots a group leaks only when its growth has the shape of accumulation: at least
 * `minObjects` new entries of one class added to owners that already existed. A one-time
 * initialisation creates its container anew (the owner is then the variable's scope, and the one
 * new entry is the container), so it fails this test; what passes it may still be a cache warming
 * up once, which only a third snapshot tells apart.
 *
 * A group of new owners held straight from the GC roots (open handles) is judged by their number:
 * a busy server holds hundreds of connections in every snapshot, each of them new. Its owners count
 * as entries of the roots only as far as the roots hold more objects of their class than in the
 * baseline, and with three snapshots that number must grow in each step, with the bytes they
 * retain growing by at least `minBytes`.
 */

/**
 * How many objects of a group's new owners' classes the roots hold in each snapshot.
 * @typedef {object} RootHeld
 * @property {number[]} counts  per snapshot, oldest first
 * @property {number[]} bytes   their retained bytes
 */

/** A group is judged by its root-held objects when its new owners hold more than this share of its new bytes. */
const ROOT_HELD_SHARE = 0.5

/**
 * For each group with new owners, the root-held objects of their classes per snapshot (null for
 * the other groups); and the group's entries and entryClass, counting new owners as entries of the
 * roots only as far as the roots hold more objects of their class than in the baseline.
 * @param {HeapAnalysis[]} analyses oldest first
 * @param {Array<GrowthGroup & {ordinals: number[]}>} groups
 * @param {Array<Map<string, number>>} rootEntries per group, new owners by class name
 * @param {{ages: Uint8Array, grownBytes: (owner: number) => number}} sizes  grownBytes: the bytes of the new
 *   objects an owner (by ordinal) owns
 * @returns {Array<RootHeld | null>}
 */
export function rootHeldGrowth (analyses, groups, rootEntries, { ages, grownBytes }) {
  /** @type {Set<string>} */
  const names = new Set()
  for (const entries of rootEntries) for (const name of entries.keys()) names.add(name)
  const last = analyses.length - 1
  const populations = names.size === 0
    ? []
    : analyses.map((analysis) => countRootHeld(analysis, names))
  return groups.map((group, g) => {
    const entries = rootEntries[g]
    if (entries.size === 0) return null
    const counts = analyses.map(() => 0)
    const bytes = analyses.map(() => 0)
    for (const [name, owners] of entries) {
      const per = populations.map((population) => /** @type {{count: number, bytes: number}} */ (population.get(name)))
      per.forEach(({ count, bytes: size }, i) => { counts[i] += count; bytes[i] += size })
      const added = Math.min(owners, Math.max(0, per[last].count - per[0].count))
      group.entries += added
      if (added > 0 && (group.entryClass === null || added > group.entryClass.count)) group.entryClass = { name, count: added }
    }
    let newBytes = 0
    for (const o of group.ordinals) if (ages[o] !== AGE_OLD) newBytes += grownBytes(o)
    return newBytes > ROOT_HELD_SHARE * (group.leakedBytes + group.recentBytes) ? { counts, bytes } : null
  })
}

/**
 * @param {GrowthGroup} group
 * @param {GrowthThresholds} thresholds
 * @param {RootHeld | null} held  for a group whose growth is mostly in new owners held from the roots
 */
export function passes (group, { minBytes, minObjects, minContinued }, held) {
  if (!isLarge(group, { minBytes, minObjects })) return false
  if (group.retainedMiddle === null) return group.retainedAfter > group.retainedBefore && isAccumulation(group, minObjects)
  if (held !== null) {
    const { counts, bytes } = held
    if (!(counts[0] < counts[1] && counts[1] < counts[2] && bytes[1] < bytes[2] && bytes[2] - bytes[0] >= minBytes)) return false
  }
  // A one-time jump (lazy initialisation, a warm-up) does not continue into the last step. A leak
  // continues, though not always at its first pace: a service that got a tenth of the traffic in
  // the last step still leaks when that step alone passes the size thresholds.
  const continued = group.recentObjects >= Math.max(1, minContinued * group.leakedObjects) ||
    (group.recentBytes >= minBytes && group.recentObjects >= minObjects)
  return continued && group.retainedAfter > group.retainedMiddle
}

/**
 * Whether a group's new objects reach both size thresholds.
 * @param {GrowthGroup} group
 * @param {{minBytes: number, minObjects: number}} thresholds
 */
export function isLarge (group, { minBytes, minObjects }) {
  return group.leakedBytes >= minBytes && group.leakedObjects >= minObjects
}

/**
 * Whether a group grew the way a leak grows between two snapshots: many new entries of one class
 * in owners that existed before.
 * @param {GrowthGroup} group
 * @param {number} minObjects
 */
export function isAccumulation (group, minObjects) {
  return group.entryClass !== null && group.entryClass.count >= Math.max(1, minObjects)
}
