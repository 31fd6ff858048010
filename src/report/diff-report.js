import { stat } from 'node:fs/promises'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { diffHeapsWithDetail } from '../diff/diff-heaps.js'
import { InvalidArgumentError } from '../errors.js'
import { matchSignatures } from '../signatures/index.js'
import { parseSnapshots } from './parse-in-parallel.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {DiffResult} from '../diff/diff-heaps.js' */
/** @import {ClassDelta} from '../diff/class-deltas.js' */
/** @import {GrowthGroup, GrowthThresholds} from '../diff/growth-groups.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */
/** @import {Finding} from '../signatures/finding.js' */

/**
 * @typedef {object} DiffSnapshotInfo
 * @property {string} path
 * @property {number} bytes
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} totalSize
 * @property {string | null} takenAt  ISO time: the file's modification time (null for streams)
 */

/**
 * `leakdiff a b [c] --format json` (design.md, schemaVersion 1).
 * @typedef {object} DiffReport
 * @property {1} schemaVersion
 * @property {'diff'} kind
 * @property {DiffSnapshotInfo[]} snapshots
 * @property {'leak' | 'clean' | 'inconclusive'} verdict
 * @property {string} reason
 * @property {'ids' | 'aggregates'} comparison
 * @property {{totalSizeDelta: number, leakedObjects: number, leakedBytes: number}} summary
 * @property {ClassDelta[]} classes
 * @property {GrowthGroup[]} growth
 * @property {Finding[]} findings   named leaks, ranked like the growth rows they explain
 * @property {string[]} warnings
 */

/**
 * @typedef {Partial<GrowthThresholds & {minIdAgreement: number}> & {
 *   top?: number,
 *   cwd?: string,
 *   parallel?: boolean | 'auto',
 *   onProgress?: (progress: ParseProgress) => void
 * }} DiffOptions
 */

/**
 * Parses two or three snapshots (files in parallel worker threads when they are large, or as
 * `parallel` says), analyses them one after the other on this thread and diffs them.
 * @param {SnapshotSource[]} sources oldest first
 * @param {DiffOptions} [options] top: growth rows and class rows to keep (0: all); cwd: source
 *   files under it are shown relative to it; onProgress: bytes read over all inputs
 * @returns {Promise<DiffReport>}
 */
export async function diffSnapshots (sources, { top = 10, cwd = process.cwd(), parallel = 'auto', onProgress, ...thresholds } = {}) {
  if (sources.length < 2 || sources.length > 3) throw new InvalidArgumentError(`Expected 2 or 3 snapshots, got ${sources.length}`)
  /** @type {HeapAnalysis[]} */
  const analyses = []
  /** @type {DiffSnapshotInfo[]} */
  const infos = []
  const parsed = await parseSnapshots(sources, { parallel, onProgress })
  for (const [file, source] of sources.entries()) {
    const data = parsed[file]
    const stats = typeof source === 'string' ? await stat(source) : undefined
    const analysis = analyzeHeap(data)
    analyses.push(analysis)
    infos.push({
      path: data.label,
      bytes: stats ? stats.size : data.byteLength,
      nodeCount: analysis.graph.nodeCount,
      edgeCount: analysis.graph.edgeCount,
      totalSize: analysis.totalSize,
      takenAt: stats ? stats.mtime.toISOString() : null
    })
  }
  const { result, detail } = diffHeapsWithDetail(analyses, thresholds)
  return buildDiffReport(result, infos, { top, findings: matchSignatures(result, detail, { cwd }) })
}

const MIN_LISTED_BYTES = 1024

/**
 * @param {DiffResult} diff
 * @param {DiffSnapshotInfo[]} snapshots
 * @param {{top?: number, findings?: Finding[]}} [options]
 * @returns {DiffReport}
 */
export function buildDiffReport (diff, snapshots, { top = 10, findings = [] } = {}) {
  const cut = /** @template T @param {T[]} rows */ (rows) => (top === 0 ? rows : rows.slice(0, top))
  // Owners that gained less than a kilobyte of new objects are bookkeeping, not growth worth reading.
  const growth = diff.growth.filter((g) => g.leak || g.leakedBytes + g.recentBytes >= MIN_LISTED_BYTES)
  return {
    schemaVersion: 1,
    kind: 'diff',
    snapshots,
    verdict: diff.verdict,
    reason: diff.reason,
    comparison: diff.comparison,
    summary: diff.summary,
    classes: cut(diff.classes),
    growth: cut(growth),
    findings,
    warnings: diff.warnings
  }
}
