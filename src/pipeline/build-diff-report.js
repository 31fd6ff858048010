// The report model of a diff from what the run found: the rows worth reading, the verdict with the
// findings weighed, the process the sidecars name, and the rate of growth.

import { computeGrowthRate } from '../diff/growth-rate.js'
import { renderFoldedPath } from '../report/render-path.js'
import { diffReportModel } from '../report/report-model.js'
import { sidecarsDifference } from './sidecars.js'
/** @import {DiffResult} from '../diff/diff-heaps.js' */
/** @import {GrowthRate} from '../diff/growth-rate.js' */
/** @import {AllocationsReport} from '../diff/alloc-stacks.js' */
/** @import {MemorySplit} from '../diff/memory-split.js' */
/** @import {SnapshotMeta} from '../diff/snapshot-meta.js' */
/** @import {Finding} from '../signatures/finding.js' */
/** @import {DiffReport} from '../report/report-model.js' */
/** @import {Process, SnapshotInfo} from '../report/model/snapshots.js' */

const MIN_LISTED_BYTES = 1024

/**
 * @param {DiffResult} diff
 * @param {SnapshotInfo[]} snapshots
 * @param {{top?: number, findings?: Finding[], cwd?: string, sidecars?: Array<SnapshotMeta | null>, allocations?: AllocationsReport | null, memory?: MemorySplit | null}} [options]
 *   cwd: scripts in the rows' `pathText` are shown relative to it; sidecars: per snapshot, what
 *   its sidecar says (for the process and the rate); allocations: the growing allocation stacks
 * @returns {DiffReport}
 */
export function buildDiffReport (diff, snapshots, { top = 10, findings = [], cwd = process.cwd(), sidecars = [], allocations = null, memory = null } = {}) {
  const cut = /** @template T @param {T[]} rows */ (rows) => (top === 0 ? rows : rows.slice(0, top))
  // Owners that gained less than a kilobyte of new objects are bookkeeping, not growth worth reading.
  const growth = diff.growth.filter((g) => g.leak || g.leakedBytes + g.recentBytes >= MIN_LISTED_BYTES)
  const { process: origin, warning } = processOf(sidecars, diff)
  const judged = judgeWithFindings(diff, findings)
  // The heap looks clean but memory outside it grows: never a bare CLEAN.
  const { verdict, reason } = memory?.summary && judged.verdict !== 'leak' ? { verdict: /** @type {const} */ ('inconclusive'), reason: `${judged.reason}, but ${memory.summary}` } : judged
  return diffReportModel({
    snapshots,
    verdict,
    reason,
    comparison: diff.comparison,
    summary: diff.summary,
    classes: cut(diff.classes),
    growth: cut(growth).map((group) => ({ group, pathText: renderFoldedPath(group.path, { cwd }) })),
    findings,
    process: origin,
    rate: rateOf(diff, verdict, snapshots, sidecars, memory),
    memory,
    capture: sidecars[0]?.trigger ?? null,
    warnings: warning ? [...diff.warnings, warning] : diff.warnings,
    allocations
  })
}

/**
 * The rate of growth, and the time to the limit at that rate, where they mean something. Between
 * two processes a rate compares two heaps that never were one: none. When nothing leaks, a time to
 * the limit counts down to an end that the diff just said is not coming: the rate without it.
 * @param {DiffResult} diff
 * @param {DiffResult['verdict']} verdict  with the findings weighed
 * @param {SnapshotInfo[]} snapshots
 * @param {Array<SnapshotMeta | null>} sidecars
 * @param {MemorySplit | null} memory  each limit is projected at its own pace (the heap's, RSS's)
 * @returns {GrowthRate | null}
 */
function rateOf (diff, verdict, snapshots, sidecars, memory) {
  if (diff.comparison === 'aggregates') return null
  const rate = computeGrowthRate(
    { meta: sidecars[0] ?? null, totalSize: snapshots[0].totalSize },
    { meta: sidecars[snapshots.length - 1] ?? null, totalSize: snapshots[snapshots.length - 1].totalSize },
    memory === null ? null : memory.growth
  )
  return rate && verdict === 'clean' ? { ...rate, limit: null } : rate
}

/** Findings at least this sure make the verdict a leak, whatever the growth thresholds said. */
const CONVINCING = 0.5

/**
 * A named leak outweighs the size thresholds: forgotten timers, for one, hang off a ring that the
 * root dominates, so no growth row owns them, yet their signature counts them growing step after step.
 * @param {DiffResult} diff
 * @param {Finding[]} findings
 * @returns {{verdict: DiffResult['verdict'], reason: string}}
 */
function judgeWithFindings (diff, findings) {
  // A card is as sure as the surest finding it holds (`also`).
  const sure = findings.filter((f) => Math.max(f.confidence, ...(f.also ?? []).map((held) => held.confidence)) >= CONVINCING)
  if (sure.length === 0) return { verdict: diff.verdict, reason: diff.reason }
  const named = sure.slice(0, 3).map((f) => `${f.signature} in ${ownerText(f)}`).join(', ')
  const more = sure.length > 3 ? ` and ${sure.length - 3} more` : ''
  const reason = `${sure.length} finding${sure.length === 1 ? '' : 's'}: ${named}${more}`
  if (diff.verdict === 'leak') return { verdict: 'leak', reason: `${reason}; ${diff.reason}` }
  return { verdict: 'leak', reason: `${reason} (the size thresholds alone said: ${diff.reason})` }
}

/**
 * The owner as the code names it: the last property or variable on its path, and its class.
 * @param {Finding} finding
 */
function ownerText (finding) {
  const at = finding.path.findLastIndex((step) => step.edgeType === 'property' || step.edgeType === 'context')
  const named = finding.path[at]
  if (!named || named.id !== finding.owner.id) return `${finding.owner.name} @${finding.owner.id}`
  // A static field reads as the program writes it: `Registry.entries`.
  const holder = finding.path[at - 1]
  const prefix = named.edgeType === 'property' && holder?.nodeType === 'closure' && /^[A-Za-z_$][\w$]*$/.test(holder.edge) ? `${holder.edge}.` : ''
  return `${prefix}${named.edge} (${finding.owner.name})`
}

/**
 * The one process every sidecar names (null when a snapshot has none or they differ), and a
 * warning when the object ids disagree with the sidecars.
 * @param {Array<SnapshotMeta | null>} sidecars
 * @param {DiffResult} diff
 * @returns {{process: Process | null, warning?: string}}
 */
function processOf (sidecars, diff) {
  if (sidecars.length === 0 || sidecars.some((meta) => meta === null) || sidecarsDifference(sidecars) !== null) return { process: null }
  const last = /** @type {SnapshotMeta} */ (sidecars[sidecars.length - 1])
  const origin = { pid: last.pid, hostname: last.hostname, nodeVersion: last.nodeVersion, script: last.script, ...(last.thread && !last.thread.main ? { thread: last.thread } : {}) }
  if (diff.comparison !== 'aggregates') return { process: origin }
  return { process: origin, warning: `the sidecars name one process (pid ${last.pid}${last.hostname ? ` on ${last.hostname}` : ''}), but its object ids do not line up; the sidecars may belong to other snapshots` }
}
