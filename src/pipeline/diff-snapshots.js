// The run of a diff, in the order its data needs:
//
//   options        the sources are opened first: a malformed --source-root is bad usage, not a
//                  surprise after minutes of parsing
//   files          each snapshot's sidecar (which process, when), then the snapshots parsed (in
//                  worker threads when they are large) and analysed (analyze-in-parallel.js)
//   diff           growth owners, rows and their paths, with the names people wrote (the sources'
//                  NameResolver, handed down as an argument)
//   signatures     findings, with the same names and the scripts' whole texts from disk; which
//                  of them share a cause (one finding's objects hold another's: one card)
//   allocations    the profiles' growing stacks, tied to the findings by the locations the
//                  signatures found in the code that ran, their frames mapped to the sources; a
//                  finding whose growth a package made moves to the program's call (user-line.js)
//   sources        then the findings' locations mapped to the sources people wrote, and the
//                  class rows (and the findings' class lists) named as written
//   memory         the split of the growth between the heap, backing stores and native memory
//   report model   the findings that share a cause folded into one card each, then the
//                  verdict with the findings weighed (build-diff-report.js)
//
// The sources layer sits above the signatures in the imports (it reads their findings), yet its
// names are needed from the diff on: so the run opens it before the diff and passes its answers
// down, and maps the findings after the signatures.

import { stat } from 'node:fs/promises'
import { HEAP_NAMES } from '../analysis/shown-names.js'
import { diffHeapsWithDetail, prepareForDiff } from '../diff/diff-heaps.js'
import { splitMemory } from '../diff/memory-split.js'
import { InvalidArgumentError, describeValue } from '../errors.js'
import { matchSignatures } from '../signatures/match-signatures.js'
import { SourceLocator } from '../sources/source-locator.js'
import { allocationsFor } from './allocated-at.js'
import { analyzeSnapshots } from './analyze-in-parallel.js'
import { buildDiffReport } from './build-diff-report.js'
import { nameClassRows } from './class-rows.js'
import { releaseFixes } from './native-fixes.js'
import { sharedCauses, foldSharedCauses } from './shared-causes.js'
import { readSidecar, sidecarsDifference } from './sidecars.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {GrowthThresholds} from '../diff/growth-thresholds.js' */
/** @import {SnapshotMeta} from '../diff/snapshot-meta.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */
/** @import {DiffReport} from '../report/report-model.js' */
/** @import {SnapshotInfo} from '../report/model/snapshots.js' */
/** @import {SourceOptions} from '../sources/source-locator.js' */
/** @import {MapPosition} from './allocated-at.js' */

/**
 * @typedef {Partial<GrowthThresholds & {minIdAgreement: number}> & {
 *   top?: number,
 *   cwd?: string,
 *   parallel?: boolean | 'auto',
 *   onProgress?: (progress: ParseProgress) => void,
 *   readSources?: boolean,
 *   lowMemory?: boolean
 * } & SourceOptions} DiffOptions
 */

/**
 * Parses and analyses two or three snapshots (files in parallel worker threads, one per core, when
 * they are large, or as `parallel` says) and diffs them.
 * @param {SnapshotSource[]} sources oldest first
 * @param {DiffOptions} [options] top: growth rows and class rows to keep (0: all); cwd: source
 *   files under it are shown relative to it; onProgress: bytes read over all inputs, then the
 *   stages after the analyses; sourceMaps, sourceRoots: where the scripts' source maps and files
 *   are (src/sources/); readSources: false leaves the disk alone (locations as the snapshot has them);
 *   lowMemory: the slower dominator algorithm where the faster needs more memory (analyzeHeap)
 * @returns {Promise<DiffReport>}
 */
export async function diffSnapshots (sources, { top = 10, cwd = process.cwd(), parallel = 'auto', onProgress, readSources = true, lowMemory = false, sourceMaps = null, sourceRoots = [], ...thresholds } = {}) {
  if (!Array.isArray(sources)) throw new InvalidArgumentError(`Expected an array of 2 or 3 snapshots, got ${describeValue(sources)}`)
  if (sources.length < 2 || sources.length > 3) throw new InvalidArgumentError(`Expected 2 or 3 snapshots, got ${sources.length}`)
  const locator = readSources ? new SourceLocator({ sourceMaps, sourceRoots, cwd }) : null
  const sidecars = await Promise.all(sources.map((source) => (typeof source === 'string' ? readSidecar(source) : { meta: null, warning: undefined })))
  const metas = sidecars.map(({ meta }) => meta)
  const differentProcesses = sidecarsDifference(metas)
  // Snapshots of two processes are compared by class totals only: no paths, no retainers to make.
  const prepare = differentProcesses === null ? (/** @type {HeapAnalysis} */ analysis, /** @type {number} */ i) => prepareForDiff(analysis, { last: i === sources.length - 1 }) : undefined
  // Paths are the newest snapshot's: the earlier ones are counted, sized and matched.
  const analyses = await analyzeSnapshots(sources, { parallel, onProgress, prepare, paths: (i) => i === sources.length - 1, lowMemory })
  const infos = await snapshotInfos(sources, analyses, metas)
  const read = infos.reduce((sum, info) => sum + info.bytes, 0)
  const onStage = (/** @type {string} */ stage) => onProgress?.({ bytesRead: read, totalBytes: read, stage })
  onStage('comparing the snapshots')
  const warnings = sidecars.flatMap(({ warning }) => (warning ? [warning] : []))
  return reportDiff(analyses, { sources, metas, infos, warnings, locator, thresholds, top, cwd, onStage })
}

/**
 * The stages of a diff after the analyses, to the report model.
 * @param {HeapAnalysis[]} analyses oldest first
 * @param {{sources: SnapshotSource[], metas: Array<SnapshotMeta | null>, infos: SnapshotInfo[], warnings?: string[],
 *   locator: SourceLocator | null, thresholds?: Partial<GrowthThresholds & {minIdAgreement: number}>, top: number, cwd: string,
 *   onStage?: (stage: string) => void}} run
 *   metas: the sidecars; infos: the report's snapshot rows; warnings: the sidecars' own;
 *   locator: the run's sources (null leaves the disk alone); thresholds: the growth thresholds
 * @returns {Promise<DiffReport>}
 */
export async function reportDiff (analyses, { sources, metas, infos, warnings = [], locator, thresholds = {}, top, cwd, onStage }) {
  const names = locator?.names ?? HEAP_NAMES
  const differentProcesses = sidecarsDifference(metas)
  const { result, detail } = diffHeapsWithDetail(analyses, thresholds, { differentProcesses, names })
  result.warnings.push(...warnings)
  onStage?.('matching leak signatures')
  const matched = matchSignatures(result, detail, { cwd, names })
  const causes = sharedCauses(matched, detail, names)
  const last = analyses[analyses.length - 1]
  /** @type {MapPosition | undefined} */
  const mapPosition = locator === null ? undefined : (url, position, fn) => locator.mapPosition(url, position, last, fn)
  const allocations = await allocationsFor(sources, metas, { result, detail, findings: matched, cwd, top, mapPosition })
  const findings = locator === null ? matched : locator.mapFindings(matched, last)
  if (locator !== null) nameClassRows(result, findings, locator, last, top)
  const memory = differentProcesses === null ? splitMemory(analyses.map((analysis) => analysis.graph), metas.map((meta) => meta?.memory ?? null)) : null
  const complete = memory === null ? findings : releaseFixes(findings, memory)
  return buildDiffReport(result, infos, { top, cwd, sidecars: metas, findings: foldSharedCauses(complete, causes), allocations, memory })
}

/**
 * The report's row of each snapshot: the file's size and time, the sidecar's process and memory.
 * @param {SnapshotSource[]} sources
 * @param {HeapAnalysis[]} analyses
 * @param {Array<SnapshotMeta | null>} metas
 * @returns {Promise<SnapshotInfo[]>}
 */
async function snapshotInfos (sources, analyses, metas) {
  /** @type {SnapshotInfo[]} */
  const infos = []
  for (const [file, source] of sources.entries()) {
    const analysis = analyses[file]
    const stats = typeof source === 'string' ? await stat(source) : undefined
    const meta = metas[file]
    infos.push({
      path: analysis.graph.label,
      bytes: stats ? stats.size : analysis.graph.byteLength,
      nodeCount: analysis.graph.nodeCount,
      edgeCount: analysis.graph.edgeCount,
      totalSize: analysis.totalSize,
      takenAt: meta ? meta.takenAt : stats ? stats.mtime.toISOString() : null,
      takenAtSource: meta ? 'sidecar' : stats ? 'mtime' : null,
      pid: meta?.pid ?? null,
      hostname: meta?.hostname ?? null,
      nodeVersion: meta?.nodeVersion ?? null,
      heapUsed: meta?.heapUsed ?? null,
      rss: meta?.rss ?? null
    })
  }
  return infos
}
