import { retainerPath } from '../analysis/retainer-paths.js'
import { shownClassName } from '../analysis/shown-names.js'
import { AGE_LEAKED, AGE_OLD, AGE_RECENT } from '../query/ages.js'
import { findGrowthOwners } from './growth-owners.js'
import { markEngineNoise } from './node-ages.js'
import { countRootHeld, markGcRoots } from './root-held.js'
import { EdgeCursor } from '../query/references.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */

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

/** Owners grouped by path; the rest are too small to matter and cost a path walk each. */
const MAX_OWNERS = 1000
/** New owners held from the GC roots grouped by path. They come many of one kind (a socket or a
 * watcher per request), each small, so the cap of old owners would drop most of a leak; their
 * paths are short (a root category, a handle, the owner). */
const MAX_NEW_OWNERS = 50_000
const PATH_LENGTH = 12
const TOP_CLASSES = 5

/**
 * Finds the growth owners of the last snapshot, groups them by path shape and ranks the groups:
 * leaking groups first, then by retained growth.
 * @param {{baseline: HeapAnalysis, middle?: HeapAnalysis, last: HeapAnalysis, ages: Uint8Array, noise: Uint8Array, names: NameResolver}} input
 *   names: the names people wrote, for the paths and owners
 * @param {GrowthThresholds} thresholds
 * @returns {{groups: GrowthGroup[], groupOwners: number[][], grew: boolean[], owners: Uint32Array, leakedObjects: number, leakedBytes: number}}
 *   groupOwners: per group, the ordinals of its owners in the last snapshot (largest growth first);
 *   grew: per group, whether what it holds grew from the first snapshot to the last (its owners'
 *   retained sizes; for new owners held from the roots, the bytes the roots hold in objects of their classes);
 *   owners: the growth owner ordinal of every node of the last snapshot
 */
export function findGrowthGroups ({ baseline, middle, last, ages, noise, names }, thresholds) {
  const { graph, shallowSizes, dominators } = last
  const n = graph.nodeCount
  const owners = findGrowthOwners(dominators, ages, graph.rootOrdinal, { roots: markGcRoots(last), noise })
  const noiseOwner = markNoiseOwners(last)
  const leakedCount = new Uint32Array(n)
  const leakedSize = new Float64Array(n)
  const recentCount = new Uint32Array(n)
  const recentSize = new Float64Array(n)
  let leakedObjects = 0
  let leakedBytes = 0
  for (let o = 0; o < n; o++) {
    const age = ages[o]
    const size = shallowSizes.at(o)
    if (noise[o] === 1 || !(size > 0) || noiseOwner[owners[o]] === 1) continue
    if (age === AGE_LEAKED) {
      leakedCount[owners[o]]++
      leakedSize[owners[o]] += size
      leakedObjects++
      leakedBytes += size
    } else if (age === AGE_RECENT) {
      recentCount[owners[o]]++
      recentSize[owners[o]] += size
    }
  }

  /** @type {number[]} */
  const oldOwners = []
  /** @type {number[]} */
  const newOwners = []
  for (let o = 0; o < n; o++) {
    if (leakedCount[o] > 0 || recentCount[o] > 0) (ages[o] === AGE_OLD ? oldOwners : newOwners).push(o)
  }
  const bySize = (/** @type {number} */ a, /** @type {number} */ b) => (leakedSize[b] + recentSize[b]) - (leakedSize[a] + recentSize[a])
  oldOwners.sort(bySize).length = Math.min(oldOwners.length, MAX_OWNERS)
  newOwners.sort(bySize).length = Math.min(newOwners.length, MAX_NEW_OWNERS)
  const candidates = [...oldOwners, ...newOwners].sort(bySize)

  const ownGrowth = exclusiveGrowth(candidates, baseline, last)
  /** @type {Map<string, GrowthGroup & {ordinals: number[], best: number, own: number}>} */
  const byShape = new Map()
  for (const [k, o] of candidates.entries()) {
    const path = retainerPath(last, o, { maxLength: PATH_LENGTH, readable: true, names })
    const shape = pathShape(path)
    const before = retainedOf(baseline, graph.nodeIds[o])
    const middleSize = middle ? retainedOf(middle, graph.nodeIds[o]) : 0
    const after = last.retainedSizes.at(o)
    let group = byShape.get(shape)
    if (!group) {
      group = {
        owner: ownerOf(last, o, names),
        path,
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
        own: 0
      }
      byShape.set(shape, group)
    } else if (after - before > group.best) {
      group.owner = ownerOf(last, o, names)
      group.path = path
      group.best = after - before
    }
    group.ownerCount++
    group.own += ownGrowth[k]
    group.ordinals.push(o)
    group.leakedObjects += leakedCount[o]
    group.leakedBytes += leakedSize[o]
    group.recentObjects += recentCount[o]
    group.recentBytes += recentSize[o]
    group.retainedBefore += before
    group.retainedAfter += after
    if (group.retainedMiddle !== null) group.retainedMiddle += middleSize
  }

  const groups = [...byShape.values()]
  const rootEntries = addTopClasses(last, ages, noise, owners, groups)
  const held = rootHeldGrowth(middle ? [baseline, middle, last] : [baseline, last], noise, groups, rootEntries, { ages, leakedSize, recentSize })
  const ranked = groups.map((group, g) => {
    group.leak = passes(group, thresholds, held[g])
    const rootHeld = held[g]
    const grew = rootHeld === null ? group.retainedAfter > group.retainedBefore : rootHeld.bytes[rootHeld.bytes.length - 1] > rootHeld.bytes[0]
    return { group, grew }
  })
  ranked.sort(({ group: a }, { group: b }) => Number(b.leak) - Number(a.leak) || b.own - a.own || b.leakedBytes - a.leakedBytes)
  groups.splice(0, groups.length, ...ranked.map(({ group }) => group))
  addSharedWith(last, ages, noise, owners, groups)
  // A row that only holds what other leaks hold too follows them: fixing those fixes it.
  groups.sort((a, b) => Number(b.leak) - Number(a.leak) || Number(a.sharedWith.length > 0) - Number(b.sharedWith.length > 0))
  return {
    groups: groups.map(({ ordinals, best, own, ...group }) => group),
    groupOwners: groups.map((group) => group.ordinals),
    grew: ranked.map(({ grew }) => grew),
    owners,
    leakedObjects,
    leakedBytes
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
  // Candidate number per owner ordinal, -1 elsewhere.
  const index = new Int32Array(graph.nodeCount).fill(-1)
  for (const [k, o] of candidates.entries()) {
    growth[k] = retainedSizes.at(o) - retainedOf(baseline, graph.nodeIds[o])
    index[o] = k
  }
  const own = Float64Array.from(growth)
  for (const [k, o] of candidates.entries()) {
    let up = o
    for (let step = 0; step < MAX_CLIMB && up !== graph.rootOrdinal; step++) {
      up = dominators[up]
      const enclosing = index[up]
      if (enclosing >= 0) {
        own[enclosing] -= Math.max(0, growth[k])
        break
      }
    }
  }
  return own
}

/**
 * A path with indexes abstracted: array elements, hidden slots and numbered internal slots (a Map's
 * hash table names its edges by slot) are one position whatever their number.
 * @param {Step[]} path
 */
function pathShape (path) {
  return path.map((s) => `${s.edgeType}:${s.edgeType === 'element' || s.edgeType === 'hidden' || /^\d+$/.test(s.edge) ? '#' : s.edge}:${s.node}`).join('/')
}

/**
 * @param {GrowthGroup} group
 * @param {GrowthThresholds} thresholds
 * @param {RootHeld | null} held  for a group whose growth is mostly in new owners held from the roots
 */
function passes (group, { minBytes, minObjects, minContinued }, held) {
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
 * @param {Uint8Array} noise of the last snapshot
 * @param {Array<GrowthGroup & {ordinals: number[]}>} groups
 * @param {Array<Map<string, number>>} rootEntries per group, new owners by class name
 * @param {{ages: Uint8Array, leakedSize: Float64Array, recentSize: Float64Array}} sizes
 * @returns {Array<RootHeld | null>}
 */
function rootHeldGrowth (analyses, noise, groups, rootEntries, { ages, leakedSize, recentSize }) {
  /** @type {Set<string>} */
  const names = new Set()
  for (const entries of rootEntries) for (const name of entries.keys()) names.add(name)
  const last = analyses.length - 1
  const populations = names.size === 0
    ? []
    : analyses.map((analysis, i) => countRootHeld(analysis, i === last ? noise : markEngineNoise(analysis.graph), names))
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
    for (const o of group.ordinals) if (ages[o] !== AGE_OLD) newBytes += leakedSize[o] + recentSize[o]
    return newBytes > ROOT_HELD_SHARE * (group.leakedBytes + group.recentBytes) ? { counts, bytes } : null
  })
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
 * @param {Uint8Array} noise
 * @param {Uint32Array} owners
 * @param {Array<GrowthGroup & {ordinals: number[]}>} groups
 * @returns {Array<Map<string, number>>} per group, its new owners (held from the roots) by class
 *   name, which rootHeldGrowth turns into entries
 */
function addTopClasses (last, ages, noise, owners, groups) {
  const groupOf = new Int32Array(last.graph.nodeCount).fill(-1)
  groups.forEach((group, g) => { for (const o of group.ordinals) groupOf[o] = g })
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
  for (let o = 0; o < groupOf.length; o++) {
    const owner = owners[o]
    const g = groupOf[owner]
    if (g < 0 || noise[o] === 1 || !(last.shallowSizes.at(o) > 0) || (ages[o] !== AGE_LEAKED && ages[o] !== AGE_RECENT)) continue
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
 * @param {Uint8Array} ages
 * @param {Uint8Array} noise
 * @param {Uint32Array} owners
 * @param {Array<GrowthGroup & {ordinals: number[]}>} groups  sorted, leaking first
 */
function addSharedWith (last, ages, noise, owners, groups) {
  const leaking = groups.filter((group) => group.leak).length
  if (leaking < 2) return
  const { graph, dominators, retainedSizes } = last
  const root = graph.rootOrdinal
  const groupOf = new Int32Array(graph.nodeCount).fill(-1)
  for (let g = 0; g < leaking; g++) for (const o of groups[g].ordinals) groupOf[o] = g
  const groupAbove = (/** @type {number} */ node) => {
    let u = owners[node]
    for (let step = 0; step < MAX_SHARE_CLIMB && u !== root; step++) {
      if (groupOf[u] >= 0) return groupOf[u]
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
  for (let o = 0; o < groupOf.length; o++) {
    const g = groupOf[owners[o]]
    // The new objects right below the owner: each keeps what it dominates (the parts of a
    // concatenated string, a record's fields), so the question is asked of them, with their
    // retained size.
    if (g < 0 || dominators[o] !== owners[o] || noise[o] === 1 || (ages[o] !== AGE_LEAKED && ages[o] !== AGE_RECENT)) continue
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
