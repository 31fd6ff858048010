// Growth rows: the growth owners of the last snapshot (growth-owners.js) grouped by the shape of
// their retainer paths, with what each group holds (group-entries.js), whether it leaks
// (growth-thresholds.js) and what it shares with other leaking groups (shared-growth.js), ranked.

import { pathStep, retainerPath, retainerPathEdges } from '../analysis/retainer-paths.js'
import { shownClassName } from '../analysis/shown-names.js'
import { AGE_LEAKED, AGE_OLD } from '../query/ages.js'
import { OwnerRows } from '../query/owner-rows.js'
import { addTopClasses } from './group-entries.js'
import { findGrowthOwners } from './growth-owners.js'
import { passes, rootHeldGrowth } from './growth-thresholds.js'
import { markGcRoots } from './root-held.js'
import { addSharedWith } from './shared-growth.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {GrowthThresholds} from './growth-thresholds.js' */

/**
 * Growth held by owners whose retainer paths have one shape (design.md's `growth` rows).
 * @typedef {object} GrowthGroup
 * @property {{id: number, name: string, type: string, generatedName?: string}} owner  the group's
 *   largest owner (`generatedName`: its class's name in the code that ran, when a minifier renamed it)
 * @property {Step[]} path             that owner's retainer path
 * @property {number} ownerCount
 * @property {number} leakedObjects    allocated after the baseline (before the middle snapshot, with three) and alive in the last
 * @property {number} leakedBytes      their shallow sizes
 * @property {number} recentObjects    allocated in the last step (three snapshots; 0 with two)
 * @property {number} recentBytes
 * @property {number} retainedBefore   owners' retained sizes in the baseline
 * @property {number | null} retainedMiddle  in the middle snapshot (null with two)
 * @property {number} retainedAfter    in the last snapshot
 * @property {Array<{name: string, count: number, size: number, generatedName?: string}>} classes  leaked
 *   objects by class, largest first (`generatedName` as for ClassDelta)
 * @property {number} entries          new objects held as entries of the owners themselves: their
 *                                     elements, table slots or properties, directly or through the
 *                                     owner's backing store (what accumulation adds); an owner that
 *                                     is itself new (held straight from the GC roots) is one entry
 *                                     of the roots, and what it holds is not
 * @property {{name: string, count: number} | null} entryClass  the most common class among them
 * @property {boolean} leak            whether the group passes the thresholds
 * @property {Array<{ownerId: number, objects: number, bytes: number}>} sharedWith  for a leaking
 *   group most of whose new objects other leaking groups hold too (the URL that is both a cache
 *   key and a listener's captured variable is dominated by the scope around both): those groups,
 *   by their owner's id, with the objects and bytes shared with each. Fixing them frees this one.
 */

/** Owners grouped by path; the rest are too small to matter and cost a path walk each. */
const MAX_OWNERS = 1000
/** New owners held from the GC roots grouped by path. They come many of one kind (a socket or a
 * watcher per request), each small, so the cap of old owners would drop most of a leak; their
 * paths are short (a root category, a handle, the owner). */
const MAX_NEW_OWNERS = 50_000
/** Owners are grouped by the shape of their paths' ends: the first steps and the last, this many in
 * all. Only each group's path is made whole, once its owner is chosen. */
const SHAPE_LENGTH = 12

/**
 * Finds the growth owners of the last snapshot, groups them by path shape and ranks the groups:
 * leaking groups first, then by retained growth.
 * @param {{baseline: HeapAnalysis, middle?: HeapAnalysis, last: HeapAnalysis, ages: Uint8Array, newNodes: Uint32Array, noise: Uint8Array, names: NameResolver}} input
 *   newNodes: the nodes not AGE_OLD, ascending; names: the names people wrote, for the paths and owners
 * @param {GrowthThresholds} thresholds
 * @returns {{groups: GrowthGroup[], groupOwners: number[][], ownerRows: OwnerRows, grew: boolean[], owners: Uint32Array, leakedObjects: number, leakedBytes: number}}
 *   groupOwners: per group, the ordinals of its owners in the last snapshot (largest growth first);
 *   ownerRows: the group of each of them;
 *   grew: per group, whether what it holds grew from the first snapshot to the last (its owners'
 *   retained sizes; for new owners held from the roots, the bytes the roots hold in objects of their classes);
 *   owners: the growth owner ordinal of every node of the last snapshot
 */
export function findGrowthGroups ({ baseline, middle, last, ages, newNodes, noise, names }, thresholds) {
  const { graph, dominators } = last
  const owners = findGrowthOwners(dominators, ages, graph.rootOrdinal, { roots: markGcRoots(last), noise })
  const noiseOwner = markNoiseOwners(last)
  const grown = countGrowth(last, ages, newNodes, noise, owners, noiseOwner)
  let leakedObjects = 0
  let leakedBytes = 0
  /** @type {number[]} */
  const oldOwners = []
  /** @type {number[]} */
  const newOwners = []
  // In ordinal order, as the sort below keeps the order of owners that grew as much.
  for (const o of grown.owners.sort((a, b) => a - b)) {
    const s = grown.slotOf[o] - 1
    leakedObjects += grown.leakedCount[s]
    leakedBytes += grown.leakedSize[s]
    ;(ages[o] === AGE_OLD ? oldOwners : newOwners).push(o)
  }
  const bySize = (/** @type {number} */ a, /** @type {number} */ b) => grown.bytes(b) - grown.bytes(a)
  oldOwners.sort(bySize).length = Math.min(oldOwners.length, MAX_OWNERS)
  newOwners.sort(bySize).length = Math.min(newOwners.length, MAX_NEW_OWNERS)
  const candidates = [...oldOwners, ...newOwners].sort(bySize)

  const ownGrowth = exclusiveGrowth(candidates, baseline, last)
  const shapeOf = pathShapes(last, names)
  /** @type {Map<number, GrowthGroup & {ordinals: number[], best: number, shown: number, own: number}>} */
  const byShape = new Map()
  for (const [k, o] of candidates.entries()) {
    const shape = shapeOf(o)
    const before = retainedOf(baseline, graph.nodeIds[o])
    const middleSize = middle ? retainedOf(middle, graph.nodeIds[o]) : 0
    const after = last.retainedSizes.at(o)
    let group = byShape.get(shape)
    if (!group) {
      group = {
        owner: ownerOf(last, o, names),
        path: [],
        ownerCount: 0,
        leakedObjects: 0,
        leakedBytes: 0,
        recentObjects: 0,
        recentBytes: 0,
        retainedBefore: 0,
        retainedMiddle: middle ? 0 : null,
        retainedAfter: 0,
        classes: [],
        entries: 0,
        entryClass: null,
        leak: false,
        sharedWith: [],
        ordinals: [],
        best: after - before,
        shown: o,
        own: 0
      }
      byShape.set(shape, group)
    } else if (after - before > group.best) {
      group.owner = ownerOf(last, o, names)
      group.shown = o
      group.best = after - before
    }
    group.ownerCount++
    group.own += ownGrowth[k]
    group.ordinals.push(o)
    const slot = grown.slotOf[o] - 1
    group.leakedObjects += grown.leakedCount[slot]
    group.leakedBytes += grown.leakedSize[slot]
    group.recentObjects += grown.recentCount[slot]
    group.recentBytes += grown.recentSize[slot]
    group.retainedBefore += before
    group.retainedAfter += after
    if (group.retainedMiddle !== null) group.retainedMiddle += middleSize
  }

  const groups = [...byShape.values()]
  for (const group of groups) group.path = retainerPath(last, group.shown, { readable: true, names })
  const rowOfOwner = new OwnerRows(graph.nodeCount, groups.map((group) => group.ordinals))
  const rootEntries = addTopClasses(last, ages, newNodes, noise, owners, groups, rowOfOwner)
  const held = rootHeldGrowth(middle ? [baseline, middle, last] : [baseline, last], groups, rootEntries, { ages, grownBytes: grown.bytes })
  const ranked = groups.map((group, g) => {
    group.leak = passes(group, thresholds, held[g])
    const rootHeld = held[g]
    const grew = rootHeld === null ? group.retainedAfter > group.retainedBefore : rootHeld.bytes[rootHeld.bytes.length - 1] > rootHeld.bytes[0]
    return { group, grew }
  })
  ranked.sort(({ group: a }, { group: b }) => Number(b.leak) - Number(a.leak) || b.own - a.own || b.leakedBytes - a.leakedBytes)
  groups.splice(0, groups.length, ...ranked.map(({ group }) => group))
  rowOfOwner.renumber(groups.map((group) => group.ordinals))
  addSharedWith(last, newNodes, noise, owners, groups, rowOfOwner)
  // A row that only holds what other leaks hold too follows them: fixing those fixes it.
  groups.sort((a, b) => Number(b.leak) - Number(a.leak) || Number(a.sharedWith.length > 0) - Number(b.sharedWith.length > 0))
  const groupOwners = groups.map((group) => group.ordinals)
  rowOfOwner.renumber(groupOwners)
  return {
    groups: groups.map(({ ordinals, best, shown, own, ...group }) => group),
    groupOwners,
    ownerRows: rowOfOwner,
    grew: ranked.map(({ grew }) => grew),
    owners,
    leakedObjects,
    leakedBytes
  }
}

/**
 * What the new objects of the last snapshot add to their growth owners: per owner, the leaked
 * (in the middle snapshot too) and the recent objects, and their bytes. New objects are a small
 * share of a heap and their owners fewer still, so the tallies are kept per owner that has any
 * (`slotOf`: its slot + 1 by ordinal, 0 for none), not in arrays of a number per node.
 * @param {HeapAnalysis} last
 * @param {Uint8Array} ages
 * @param {Uint32Array} newNodes  the nodes not AGE_OLD
 * @param {Uint8Array} noise
 * @param {Uint32Array} owners  growth owner ordinal per node
 * @param {Uint8Array} noiseOwner  1 for an owner whose objects are engine bookkeeping
 */
function countGrowth (last, ages, newNodes, noise, owners, noiseOwner) {
  const { graph, shallowSizes } = last
  const slotOf = new Uint32Array(graph.nodeCount)
  /** @type {number[]} */
  const ownerList = []
  /** @type {number[]} */
  const leakedCount = []
  /** @type {number[]} */
  const leakedSize = []
  /** @type {number[]} */
  const recentCount = []
  /** @type {number[]} */
  const recentSize = []
  // Most nodes are old: their sizes (found on demand, shallow-sizes.js) are not asked.
  for (let i = 0; i < newNodes.length; i++) {
    const o = newNodes[i]
    const age = ages[o]
    if (noise[o] === 1 || noiseOwner[owners[o]] === 1) continue
    const size = shallowSizes.at(o)
    if (!(size > 0)) continue
    const owner = owners[o]
    let slot = slotOf[owner] - 1
    if (slot < 0) {
      slot = ownerList.length
      slotOf[owner] = slot + 1
      ownerList.push(owner)
      leakedCount.push(0)
      leakedSize.push(0)
      recentCount.push(0)
      recentSize.push(0)
    }
    if (age === AGE_LEAKED) {
      leakedCount[slot]++
      leakedSize[slot] += size
    } else {
      recentCount[slot]++
      recentSize[slot] += size
    }
  }
  return {
    owners: ownerList,
    slotOf,
    leakedCount,
    leakedSize,
    recentCount,
    recentSize,
    /** @param {number} o an owner's ordinal: the bytes of the new objects it owns */
    bytes: (o) => slotOf[o] === 0 ? 0 : leakedSize[slotOf[o] - 1] + recentSize[slotOf[o] - 1]
  }
}

/** Dominator steps searched above an owner for an enclosing owner (long linked lists end the search). */
const MAX_CLIMB = 10_000

/**
 * Each owner's retained growth without the growth of the owners nested inside it: a module scope
 * that dominates a growing Map would otherwise rank above the Map with the Map's own growth.
 * @param {number[]} candidates owner ordinals in the last snapshot
 * @param {HeapAnalysis} baseline
 * @param {HeapAnalysis} last
 * @returns {Float64Array} per candidate, in the same order
 */
function exclusiveGrowth (candidates, baseline, last) {
  const { graph, dominators, retainedSizes } = last
  const growth = new Float64Array(candidates.length)
  // Candidate number + 1 per owner ordinal, 0 elsewhere (no heap-sized fill).
  const index = new Uint32Array(graph.nodeCount)
  for (const [k, o] of candidates.entries()) {
    growth[k] = retainedSizes.at(o) - retainedOf(baseline, graph.nodeIds[o])
    index[o] = k + 1
  }
  const own = Float64Array.from(growth)
  for (const [k, o] of candidates.entries()) {
    let up = o
    for (let step = 0; step < MAX_CLIMB && up !== graph.rootOrdinal; step++) {
      up = dominators[up]
      const enclosing = index[up] - 1
      if (enclosing >= 0) {
        own[enclosing] -= Math.max(0, growth[k])
        break
      }
    }
  }
  return own
}

/**
 * The shapes of owners' readable paths, SHAPE_LENGTH steps at most: a path with indexes
 * abstracted (array elements, hidden slots and numbered internal slots, as a Map's hash table
 * names its edges, are one position whatever their number), as a number, the same for paths of
 * one shape. Thousands of owners' paths share all but their last few steps: each edge's part of a
 * shape is made once, a number, and a shape is found from the one a step shorter, a step at a time.
 * @param {HeapAnalysis} analysis
 * @param {NameResolver} names
 * @returns {(ordinal: number) => number}
 */
function pathShapes (analysis, names) {
  /** @type {Map<string, number>} */
  const parts = new Map()
  /** @type {Map<number, number>} */
  const byEdge = new Map()
  /** @type {Map<number, number>} */
  const byElided = new Map()
  const partOf = (/** @type {string} */ text) => {
    let part = parts.get(text)
    if (part === undefined) parts.set(text, (part = parts.size))
    return part
  }
  // A shape is a number: the shape of the path one step shorter and the step's part give the next
  // one, both small numbers, so one Map of numbers holds every shape (no object per prefix).
  /** @type {Map<number, number>} */
  const longer = new Map()
  return (ordinal) => {
    let shape = 0
    for (const edge of retainerPathEdges(analysis, ordinal, { maxLength: SHAPE_LENGTH, readable: true })) {
      let part
      if (typeof edge === 'number') {
        part = byEdge.get(edge)
        if (part === undefined) {
          // Not readable: the step's module, which readable steps look up, is no part of a shape.
          const s = pathStep(analysis, edge, { names })
          byEdge.set(edge, (part = partOf(`${s.edgeType}:${s.edgeType === 'element' || s.edgeType === 'hidden' || /^\d+$/.test(s.edge) ? '#' : s.edge}:${s.node}`)))
        }
      } else {
        part = byElided.get(edge.count)
        if (part === undefined) byElided.set(edge.count, (part = partOf(`elided:${edge.count}`)))
      }
      // Parts and shapes stay far below 2^26: the key is exact.
      const key = shape * 2 ** 26 + part
      let next = longer.get(key)
      if (next === undefined) longer.set(key, (next = longer.size + 1))
      shape = next
    }
    return shape
  }
}

/**
 * How many objects of a group's new owners' classes the roots hold in each snapshot.
 * @typedef {object} RootHeld
 * @property {number[]} counts  per snapshot, oldest first
 * @property {number[]} bytes   their retained bytes
 */

/**
 * Owners that are engine bookkeeping rather than program objects: the root, synthetic GC sub-roots
 * (interned strings, the compilation cache) and code. New objects are owned by a root only when no
 * program object below it holds them (findGrowthOwners).
 * @param {HeapAnalysis} analysis
 */
function markNoiseOwners (analysis) {
  const { graph } = analysis
  const { nodeTypes, nodeType } = graph
  const flags = new Uint8Array(graph.nodeCount)
  for (let o = 0; o < flags.length; o++) {
    const type = nodeTypes[o]
    if (type === nodeType.synthetic || type === nodeType.code || type === nodeType.objectShape) flags[o] = 1
  }
  flags[graph.rootOrdinal] = 1
  return flags
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} id
 */
function retainedOf (analysis, id) {
  const o = analysis.graph.findOrdinalById(id)
  return o < 0 ? 0 : analysis.retainedSizes.at(o)
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {NameResolver} names
 */
function ownerOf (analysis, o, names) {
  const { graph } = analysis
  /** @type {GrowthGroup['owner']} */
  const owner = { id: graph.nodeIds[o], name: shownClassName(analysis, o, names), type: graph.nodeTypeName(o) }
  const generated = analysis.classes.names[analysis.classOf[o]]
  if (owner.name !== generated) owner.generatedName = generated
  return owner
}
