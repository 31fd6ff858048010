// Growth two leaking groups share: a new object both groups' owners reach is dominated by neither,
// and lands in the group of a container around both, which then looks like a leak of its own.

import { EdgeCursor } from '../query/references.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {GrowthGroup} from './growth-groups.js' */
/** @import {RowOfOwner} from '../query/owner-rows.js' */

/** Dominator steps climbed from a retainer to the group that holds it. */
const MAX_SHARE_CLIMB = 32
/** A leaking group is "shared" when other groups also hold at least this share of its new bytes. */
const MIN_SHARED = 0.5

/**
 * Fills `sharedWith` of the leaking groups. A new object that two groups' owners both reach is
 * dominated by neither: it lands in the group of a container around both (often the module scope),
 * which then looks like a third leak. Each retainer of such an object is followed up the dominator
 * tree to the first group owner; objects held from other groups count as shared with them.
 * @param {HeapAnalysis} last
 * @param {Uint32Array} newNodes  the nodes not AGE_OLD
 * @param {Uint8Array} noise
 * @param {Uint32Array} owners
 * @param {Array<GrowthGroup & {ordinals: number[]}>} groups  sorted, leaking first
 * @param {RowOfOwner} rowOfOwner  the group of each owner, by its index in `groups`
 */
export function addSharedWith (last, newNodes, noise, owners, groups, rowOfOwner) {
  const leaking = groups.filter((group) => group.leak).length
  if (leaking < 2) return
  const { graph, dominators, retainedSizes } = last
  const root = graph.rootOrdinal
  const leakingGroupOf = (/** @type {number} */ node) => {
    const g = rowOfOwner.rowOf(node)
    return g < leaking ? g : -1
  }
  const groupAbove = (/** @type {number} */ node) => {
    let u = owners[node]
    for (let step = 0; step < MAX_SHARE_CLIMB && u !== root; step++) {
      const g = leakingGroupOf(u)
      if (g >= 0) return g
      u = dominators[u]
    }
    return -1
  }
  /** @type {Array<Map<number, {objects: number, bytes: number}>>} */
  const shares = groups.slice(0, leaking).map(() => new Map())
  const sharedBytes = new Float64Array(leaking)
  /** @type {Set<number>} */
  const holders = new Set()
  const edge = new EdgeCursor(graph)
  for (let i = 0; i < newNodes.length; i++) {
    const o = newNodes[i]
    const g = leakingGroupOf(owners[o])
    // The new objects right below the owner: each keeps what it dominates (the parts of a
    // concatenated string, a record's fields), so the question is asked of them, with their
    // retained size.
    if (g < 0 || dominators[o] !== owners[o] || noise[o] === 1) continue
    holders.clear()
    for (edge.retainers(o); edge.next();) {
      if (edge.is('weak')) continue
      const h = groupAbove(edge.source)
      if (h >= 0 && h !== g) holders.add(h)
    }
    if (holders.size === 0) continue
    sharedBytes[g] += retainedSizes.at(o)
    for (const h of holders) {
      let share = shares[g].get(h)
      if (!share) shares[g].set(h, (share = { objects: 0, bytes: 0 }))
      share.objects++
      share.bytes += retainedSizes.at(o)
    }
  }
  for (let g = 0; g < leaking; g++) {
    const group = groups[g]
    if (sharedBytes[g] < MIN_SHARED * (group.leakedBytes + group.recentBytes)) continue
    group.sharedWith = [...shares[g]].sort((a, b) => a[0] - b[0])
      .map(([h, { objects, bytes }]) => ({ ownerId: groups[h].owner.id, objects, bytes }))
  }
}
