import { SnapshotMismatchError, InvalidArgumentError } from '../errors.js'
import { formatBytes, formatCount } from '../units.js'
import { diffClassesById, diffClassesByTotals } from './class-deltas.js'
import { findGrowthGroups } from './growth-groups.js'
import { isLarge } from './growth-thresholds.js'
import { compareIds } from './match-ids.js'
import { preparePaths } from '../analysis/retainer-paths.js'
import { HEAP_NAMES } from '../analysis/shown-names.js'
import { computeNodeAges, markEngineNoise } from './node-ages.js'
import { DEFAULT_DIFF_OPTIONS } from './default-options.js'
import { newNodesOf } from '../query/ages.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {ClassDelta} from './class-deltas.js' */
/** @import {GrowthGroup} from './growth-groups.js' */
/** @import {GrowthThresholds} from './growth-thresholds.js' */
/** @import {OwnerRows} from '../query/owner-rows.js' */

/**
 * What a diff of two or three snapshots found (plain, JSON-safe).
 * @typedef {object} DiffResult
 * @property {'ids' | 'aggregates'} comparison  objects matched by id, or class totals only (different processes)
 * @property {'leak' | 'clean' | 'inconclusive'} verdict
 * @property {string} reason
 * @property {{totalSizeDelta: number, leakedObjects: number, leakedBytes: number}} summary
 * @property {ClassDelta[]} classes   first snapshot against the last
 * @property {GrowthGroup[]} growth   ranked by retained growth
 * @property {number[]} idAgreement   per consecutive pair, the share of shared ids with the same type and name
 * @property {string[]} warnings
 */

/**
 * What the signature matchers read besides the result: the heap-side facts behind each growth row.
 * Typed arrays are indexed by ordinal of the last snapshot.
 * @typedef {object} DiffDetail
 * @property {HeapAnalysis[]} analyses  oldest first
 * @property {Uint8Array} ages          AGE_* (growth-owners.js) per node
 * @property {Uint8Array} noise         1 for engine bookkeeping never counted as growth
 * @property {Uint32Array} newNodes     the nodes made since the baseline (not AGE_OLD), ascending
 * @property {Uint32Array} owners       growth owner ordinal per node (old nodes own themselves)
 * @property {number[][]} groupOwners   per row of `result.growth`, its owners' ordinals, largest growth first
 * @property {OwnerRows} ownerRows      the row of each of those owners, by ordinal
 */

/**
 * What a diff computes from one analysis alone, made now: every snapshot's id index, and for the
 * last one the retainer index and what its paths walk over. The diff makes the same on first use;
 * a caller whose worker threads parse the other snapshots meanwhile runs this on each analysis as
 * it is made, so that the work overlaps their parsing instead of following it.
 * @param {HeapAnalysis} analysis
 * @param {{last: boolean}} which  whether it is the last (newest) snapshot of the diff
 */
export function prepareForDiff (analysis, { last }) {
  analysis.graph.idIndex()
  if (!last) return
  analysis.graph.buildRetainerIndex()
  preparePaths(analysis)
}

/**
 * Diffs analysed snapshots given oldest first.
 * @param {HeapAnalysis[]} analyses two or three
 * @param {Partial<GrowthThresholds & {minIdAgreement: number}>} [options]
 * @returns {DiffResult}
 */
export function diffHeaps (analyses, options = {}) {
  return diffHeapsWithDetail(analyses, options).result
}

/**
 * diffHeaps, with the heap-side detail the signature matchers need (null for an aggregates-only
 * comparison, where objects cannot be matched).
 * @param {HeapAnalysis[]} analyses two or three, oldest first
 * @param {Partial<GrowthThresholds & {minIdAgreement: number}>} [options]
 * @param {{differentProcesses?: string | null, names?: NameResolver}} [known] what is known from
 *   outside the heaps: differentProcesses says why the snapshots come from different processes
 *   (the agent's sidecars name two pids, say); the comparison is then by class totals whatever
 *   the ids say. names: the names people wrote (src/sources/), for the rows' paths and owners
 * @returns {{result: DiffResult, detail: DiffDetail | null}}
 */
export function diffHeapsWithDetail (analyses, options = {}, { differentProcesses = null, names = HEAP_NAMES } = {}) {
  if (analyses.length < 2 || analyses.length > 3) {
    throw new InvalidArgumentError(`Expected 2 or 3 analysed snapshots, got ${analyses.length}`)
  }
  const settings = { ...DEFAULT_DIFF_OPTIONS }
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined) settings[/** @type {keyof typeof settings} */ (name)] = value
  }
  for (const [name, value] of Object.entries(settings)) {
    if (typeof value !== 'number' || !(value >= 0)) throw new InvalidArgumentError(`Expected \`${name}\` to be a number >= 0, got \`${value}\` (${typeof value})`)
  }
  const baseline = analyses[0]
  const last = analyses[analyses.length - 1]
  const middle = analyses.length === 3 ? analyses[1] : undefined
  /** @type {string[]} */
  const warnings = []
  const totalSizeDelta = last.totalSize - baseline.totalSize

  const idAgreement = []
  for (let i = 1; i < analyses.length; i++) {
    const a = analyses[i - 1].graph
    const b = analyses[i].graph
    idAgreement.push(compareIds(a, b, b.idIndex()).ratio)
  }
  const worst = Math.min(...idAgreement)
  if (worst < settings.minIdAgreement || differentProcesses !== null) {
    if (differentProcesses !== null) {
      warnings.push(`the snapshots' sidecars name different processes (${differentProcesses}), so only class totals are compared`)
      if (worst >= settings.minIdAgreement) warnings.push(`${(worst * 100).toFixed(0)}% of the shared object ids name the same object, as in one process; the sidecars may belong to other snapshots`)
    } else {
      warnings.push(`only ${(worst * 100).toFixed(0)}% of the shared object ids name the same object: these snapshots do not come from one process, so only class totals are compared`)
    }
    /** @type {DiffResult} */
    const result = {
      comparison: 'aggregates',
      verdict: 'inconclusive',
      reason: 'the snapshots come from different processes; objects cannot be matched, compare snapshots of one process',
      summary: { totalSizeDelta, leakedObjects: 0, leakedBytes: 0 },
      classes: diffClassesByTotals(baseline, last),
      growth: [],
      idAgreement,
      warnings
    }
    return { result, detail: null }
  }
  checkTimeOrder(analyses)

  const ages = computeNodeAges(last.graph, baseline.graph, middle?.graph)
  const noise = markEngineNoise(last.graph)
  const newNodes = newNodesOf(ages)
  const { groups, groupOwners, ownerRows, grew, owners, leakedObjects, leakedBytes } = findGrowthGroups({ baseline, middle, last, ages, newNodes, noise, names }, settings)
  const leaking = groups.filter((g) => g.leak)
  /** @type {DiffResult} */
  const result = {
    comparison: 'ids',
    ...judge(leaking, groups, new Set(groups.filter((_, g) => grew[g])), settings, analyses.length),
    summary: { totalSizeDelta, leakedObjects, leakedBytes },
    classes: diffClassesById(baseline, last, ages),
    growth: groups,
    idAgreement,
    warnings
  }
  return { result, detail: { analyses, ages, newNodes, noise, owners, groupOwners, ownerRows } }
}

/**
 * New heap objects get higher (odd) ids, so a later snapshot holds a higher largest odd id. Even ids
 * belong to embedder nodes and are not ordered by time.
 * @param {HeapAnalysis[]} analyses
 */
function checkTimeOrder (analyses) {
  const maxIds = analyses.map(({ graph }) => graph.idIndex().newestObjectId())
  for (let i = 1; i < analyses.length; i++) {
    if (maxIds[i] < maxIds[i - 1]) {
      throw new SnapshotMismatchError(`Expected snapshots oldest first, but ${analyses[i].graph.label} (newest object @${maxIds[i]}) was taken before ${analyses[i - 1].graph.label} (newest object @${maxIds[i - 1]}); give them in the order they were taken`)
    }
  }
}

/**
 * A growth owner as the verdict names it. A collection's internal store (a Map's `table`, an
 * array's `elements`) is named after the collection: "sessions (Map)'s table (array)", then the id.
 * @param {GrowthGroup} group
 */
function ownerLabel (group) {
  const [holder, store] = group.path.slice(-2)
  if (holder !== undefined && store !== undefined && store.edgeType === 'internal' && group.owner.name.startsWith('(') && /^[A-Za-z_$][\w$]*$/.test(holder.edge) && /^[a-z_]+$/.test(store.edge)) {
    return `${holder.edge} (${holder.node})'s ${store.edge} ${group.owner.name} @${group.owner.id}`
  }
  return `${group.owner.name} @${group.owner.id}`
}

/**
 * @param {GrowthGroup[]} leaking
 * @param {GrowthGroup[]} groups
 * @param {Set<GrowthGroup>} grew  the groups that hold more in the last snapshot than in the first
 * @param {GrowthThresholds} settings
 * @param {number} snapshotCount
 * @returns {{verdict: 'leak' | 'clean' | 'inconclusive', reason: string}}
 */
function judge (leaking, groups, grew, settings, snapshotCount) {
  if (leaking.length > 0) {
    const top = leaking[0]
    // Owners that did not exist in the baseline are new objects held straight from the GC roots.
    const added = top.retainedBefore === 0
      ? `${formatCount(top.entryClass?.count ?? 0)} new ${top.entryClass?.name} objects held straight from the GC roots, by open handles or by several roots at once`
      : `${formatCount(top.entryClass?.count ?? 0)} new ${top.entryClass?.name} entries of a container that existed before`
    const steps = snapshotCount === 3
      ? ', and still growing in the last step'
      : `, as ${added} (a cache filled once looks the same: a third snapshot confirms)`
    return {
      verdict: 'leak',
      reason: `${leaking.length} owner group${leaking.length === 1 ? '' : 's'} kept new objects alive; the largest is ${ownerLabel(top)} (${formatCount(top.leakedObjects)} objects, ${formatBytes(top.leakedBytes)})${steps}`
    }
  }
  const big = groups.filter((g) => isLarge(g, settings))
  if (big.length > 0 && snapshotCount === 3) {
    return { verdict: 'clean', reason: `${big.length} owner group${big.length === 1 ? '' : 's'} grew once but not in the last step: a one-time initialisation, or a load that stopped before the last snapshot (a leak grows while the work that leaks goes on)` }
  }
  const grown = big.filter((g) => grew.has(g))
  if (grown.length > 0) {
    const top = grown[0]
    return {
      verdict: 'inconclusive',
      reason: `${grown.length} owner group${grown.length === 1 ? '' : 's'} grew, the largest ${top.owner.name} @${top.owner.id} (${formatCount(top.leakedObjects)} objects, ${formatBytes(top.leakedBytes)}), but not by adding many entries of one class to a container that existed before, as leaks grow: a one-time initialisation looks like this. Take a third snapshot later to tell`
    }
  }
  return { verdict: 'clean', reason: `no owner kept at least ${formatCount(settings.minObjects)} new objects and ${formatBytes(settings.minBytes)} alive` }
}
