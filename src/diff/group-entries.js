// What a growth group holds: its new objects by class, and those that are entries of their owner
// (what accumulation adds: elements, table slots, properties, directly or through the owner's
// backing store), counted in one pass over the last snapshot for all groups.

import { AGE_OLD } from '../query/ages.js'
import { EdgeCursor } from '../query/references.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {GrowthGroup} from './growth-groups.js' */
/** @import {RowOfOwner} from '../query/owner-rows.js' */

const TOP_CLASSES = 5

/**
 * Whether node `o` is an entry of its growth owner: referenced (not weakly) by the owner itself or
 * by a backing store of it (an `array` or `hidden` node: elements, a hash table, a property
 * dictionary) that the owner immediately dominates. Objects that only share a dominator with the
 * owner, or hang below a container created since the baseline, are not entries.
 * @param {EdgeCursor} edge  a cursor of the graph, reused for every node asked about
 * @param {Uint32Array} dominators
 * @param {number} o
 * @param {number} owner
 * @param {number[]} storeTypes
 */
function isEntryOf (edge, dominators, o, owner, storeTypes) {
  const { nodeTypes } = edge.graph
  for (edge.retainers(o); edge.next();) {
    if (edge.is('weak')) continue
    const holder = edge.source
    if (holder === owner) return true
    if (storeTypes.includes(nodeTypes[holder]) && dominators[holder] === owner) return true
  }
  return false
}

/**
 * Fills each group's `classes`: its leaked objects (and, with three snapshots, the recent ones) by
 * class; and its `entries` and `entryClass`: those of them that are entries of their owner
 * (isEntryOf).
 * @param {HeapAnalysis} last
 * @param {Uint8Array} ages
 * @param {Uint32Array} newNodes  the nodes not AGE_OLD
 * @param {Uint8Array} noise
 * @param {Uint32Array} owners
 * @param {Array<GrowthGroup & {ordinals: number[]}>} groups
 * @param {RowOfOwner} rowOfOwner  the group of each owner, by its index in `groups`
 * @returns {Array<Map<string, number>>} per group, its new owners (held from the roots) by class
 *   name, which rootHeldGrowth turns into entries
 */
export function addTopClasses (last, ages, newNodes, noise, owners, groups, rowOfOwner) {
  /** @type {Array<Map<number, {count: number, size: number}>>} */
  const tallies = groups.map(() => new Map())
  /** @type {Array<Map<number, number>>} */
  const entryTallies = groups.map(() => new Map())
  /** @type {Array<Map<string, number>>} */
  const rootEntries = groups.map(() => new Map())
  const { dominators, graph } = last
  const { nodeTypes } = graph
  const storeTypes = [graph.nodeType.array, graph.nodeType.hidden]
  const edge = new EdgeCursor(graph)
  for (let i = 0; i < newNodes.length; i++) {
    const o = newNodes[i]
    const owner = owners[o]
    const g = rowOfOwner.rowOf(owner)
    if (g < 0 || noise[o] === 1 || !(last.shallowSizes.at(o) > 0)) continue
    const c = last.classOf[o]
    let tally = tallies[g].get(c)
    if (!tally) tallies[g].set(c, (tally = { count: 0, size: 0 }))
    tally.count++
    tally.size += last.shallowSizes.at(o)
    if (storeTypes.includes(nodeTypes[o])) continue
    if (ages[owner] === AGE_OLD) {
      if (isEntryOf(edge, dominators, o, owner, storeTypes)) entryTallies[g].set(c, (entryTallies[g].get(c) ?? 0) + 1)
    } else if (o === owner) {
      // A new owner did not exist to be added to: it is what was added, to the roots.
      const name = last.classes.names[c]
      rootEntries[g].set(name, (rootEntries[g].get(name) ?? 0) + 1)
    }
  }
  groups.forEach((group, g) => {
    group.classes = [...tallies[g]].sort((a, b) => b[1].size - a[1].size).slice(0, TOP_CLASSES)
      .map(([c, { count, size }]) => ({ name: last.classes.names[c], count, size }))
    let top = -1
    let topCount = 0
    for (const [c, count] of entryTallies[g]) {
      group.entries += count
      // On a tie, a named class says more than the strings that key it.
      if (count > topCount || (count === topCount && last.classes.names[top].startsWith('('))) {
        top = c
        topCount = count
      }
    }
    group.entryClass = top < 0 ? null : { name: last.classes.names[top], count: topCount }
  })
  return rootEntries
}
