import { stat } from 'node:fs/promises'
import { diffHeapsWithDetail, prepareForDiff } from '../diff/diff-heaps.js'
import { InvalidArgumentError } from '../errors.js'
import { matchSignatures } from '../signatures/index.js'
import { SourceLocator } from '../sources/source-locator.js'
import { computeGrowthRate } from './growth-rate.js'
import { analyzeSnapshots } from './analyze-in-parallel.js'
import { renderFoldedPath } from './render-path.js'
import { processDifference, readSidecar } from './sidecars.js'
import { allocationsFor } from './allocated-at.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {DiffResult} from '../diff/diff-heaps.js' */
/** @import {ClassDelta} from '../diff/class-deltas.js' */
/** @import {GrowthGroup, GrowthThresholds} from '../diff/growth-groups.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */
/** @import {Finding} from '../signatures/finding.js' */
/** @import {GrowthRate} from './growth-rate.js' */
/** @import {SnapshotMeta, WatchTriggerMeta} from './sidecars.js' */
/** @import {SourceOptions} from '../sources/source-locator.js' */
/** @import {AllocationsReport} from './allocated-at.js' */

/**
 * @typedef {object} DiffSnapshotInfo
 * @property {string} path
 * @property {number} bytes
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} totalSize
 * @property {string | null} takenAt  ISO time: the sidecar's capture time, else the file's
 *   modification time (null for streams)
 * @property {'sidecar' | 'mtime' | null} takenAtSource
 * @property {number | null} pid          from the sidecar (null without one)
 * @property {string | null} hostname     from the sidecar
 * @property {string | null} nodeVersion  from the sidecar
 * @property {number | null} heapUsed     bytes, from the sidecar (V8's used heap before the write)
 * @property {number | null} rss          bytes, from the sidecar
 */

/**
 * The process the snapshots come from, when their sidecars agree on it.
 * @typedef {object} DiffProcess
 * @property {number | null} pid
 * @property {string | null} hostname
 * @property {string | null} nodeVersion
 * @property {string | null} script
 */

/**
 * A growth row as the report carries it: the diff's row plus its path folded for people
 * (renderFoldedPath); `path` stays the full list of steps.
 * @typedef {GrowthGroup & {pathText: string}} ReportGrowthRow
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
 * @property {ReportGrowthRow[]} growth
 * @property {Finding[]} findings   named leaks, ranked like the growth rows they explain
 * @property {DiffProcess | null} process  from the sidecars, when every snapshot has one and they agree
 * @property {GrowthRate | null} rate      retained growth per minute and the time to the limit (no
 *   limit when the verdict is clean; no rate across processes)
 *   (needs the first and last snapshot's sidecars)
 * @property {WatchTriggerMeta | null} capture  why the agent's watch mode took the series by itself
 *   (from the first snapshot's sidecar); null when a person or a program asked for it
 * @property {AllocationsReport | null} [allocations]  the allocation stacks that grew, when the
 *   agent's allocation profiles are beside the snapshots; findings then carry `allocatedAt`
 * @property {string[]} warnings
 */

/**
 * @typedef {Partial<GrowthThresholds & {minIdAgreement: number}> & {
 *   top?: number,
 *   cwd?: string,
 *   parallel?: boolean | 'auto',
 *   onProgress?: (progress: ParseProgress) => void,
 *   readSources?: boolean
 * } & SourceOptions} DiffOptions
 */

/**
 * Parses and analyses two or three snapshots (files in parallel worker threads, one per core, when
 * they are large, or as `parallel` says) and diffs them.
 * @param {SnapshotSource[]} sources oldest first
 * @param {DiffOptions} [options] top: growth rows and class rows to keep (0: all); cwd: source
 *   files under it are shown relative to it; onProgress: bytes read over all inputs, then the
 *   stages after the analyses; sourceMaps, sourceRoots: where the scripts' source maps and files
 *   are (src/sources/); readSources: false leaves the disk alone (locations as the snapshot has them)
 * @returns {Promise<DiffReport>}
 */
export async function diffSnapshots (sources, { top = 10, cwd = process.cwd(), parallel = 'auto', onProgress, readSources = true, sourceMaps = null, sourceRoots = [], ...thresholds } = {}) {
  if (sources.length < 2 || sources.length > 3) throw new InvalidArgumentError(`Expected 2 or 3 snapshots, got ${sources.length}`)
  // Before any parsing: a malformed --source-root is bad usage, not a late surprise.
  const locator = readSources ? new SourceLocator({ sourceMaps, sourceRoots, cwd }) : null
  /** @type {HeapAnalysis[]} */
  const analyses = []
  /** @type {DiffSnapshotInfo[]} */
  const infos = []
  const sidecars = await Promise.all(sources.map((source) => (typeof source === 'string' ? readSidecar(source) : { meta: null, warning: undefined })))
  const metas = sidecars.map(({ meta }) => meta)
  const differentProcesses = differenceOf(metas)
  // Snapshots of two processes are compared by class totals only: no paths, no retainers to make.
  const prepare = differentProcesses === null ? (/** @type {HeapAnalysis} */ analysis, /** @type {number} */ i) => prepareForDiff(analysis, { last: i === sources.length - 1 }) : undefined
  const analyzed = await analyzeSnapshots(sources, { parallel, onProgress, prepare })
  for (const [file, source] of sources.entries()) {
    const analysis = analyzed[file]
    const stats = typeof source === 'string' ? await stat(source) : undefined
    analyses.push(analysis)
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
  const read = infos.reduce((sum, info) => sum + info.bytes, 0)
  onProgress?.({ bytesRead: read, totalBytes: read, stage: 'comparing the snapshots' })
  // Variables a minifier renamed read as written wherever a report names them (paths, titles,
  // fixes); the scans of the code that ran keep the names it has.
  if (locator !== null) {
    for (const analysis of analyses) {
      locator.nameVariables(analysis)
      locator.nameClasses(analysis)
      locator.nameModules(analysis)
      analysis.nameFunction = (url, name, line, column) => locator.functionName(url, name, { line, column }, analysis)
    }
  }
  const { result, detail } = diffHeapsWithDetail(analyses, thresholds, { differentProcesses })
  for (const { warning } of sidecars) if (warning) result.warnings.push(warning)
  onProgress?.({ bytesRead: read, totalBytes: read, stage: 'matching leak signatures' })
  if (locator !== null) for (const analysis of analyses) analysis.readScript = (url, text) => locator.scriptText(url, text)
  const matched = matchSignatures(result, detail, { cwd })
  // Stacks are tied to the findings by the locations the signatures found, in the code that ran;
  // then both are mapped to the original sources.
  const last = analyses[analyses.length - 1]
  /** @type {import('./allocated-at.js').MapPosition | undefined} */
  const mapPosition = locator === null
    ? undefined
    : (url, position, fn) => {
        const mapped = locator.mapPosition(url, position, last)
        if (mapped === null || fn === undefined) return mapped
        const name = locator.functionName(url, fn.name, fn, last)
        return name === null ? mapped : { ...mapped, function: name }
      }
  const allocations = await allocationsFor(sources, metas, { result, detail, findings: matched, cwd, top, mapPosition })
  const findings = locator === null ? matched : locator.mapFindings(matched, analyses[analyses.length - 1])
  if (locator !== null) nameClassRows(result, findings, locator, last, top)
  return buildDiffReport(result, infos, { top, cwd, sidecars: metas, findings, allocations })
}

/** The evidence fields that list class names (collections' keys and values, arrays' elements). */
const CLASS_LISTS = ['keyClasses', 'valueClasses', 'elementClasses']

/**
 * The class rows a report shows (the class table and the classes each growth row holds), and the
 * classes a finding's evidence lists, under the names people wrote for classes a minifier
 * renamed; a row keeps the name that ran beside.
 * @param {DiffResult} result
 * @param {Finding[]} findings
 * @param {SourceLocator} locator
 * @param {HeapAnalysis} last
 * @param {number} top
 */
function nameClassRows (result, findings, locator, last, top) {
  const rows = [...(top === 0 ? result.classes : result.classes.slice(0, top)), ...result.growth.flatMap((group) => group.classes)]
  const lists = findings.flatMap(({ evidence }) => CLASS_LISTS.map((key) => evidence[key]).filter((list) => Array.isArray(list)))
  const renamed = locator.classNames(new Set([...rows.map((row) => row.name), ...lists.flat()]), last)
  if (renamed.size === 0) return
  for (const row of rows) {
    const original = renamed.get(row.name)
    if (original === undefined) continue
    row.generatedName = row.name
    row.name = original
  }
  for (const list of lists) list.forEach((name, i) => (list[i] = renamed.get(name) ?? name))
}

/**
 * Why the sidecars say the snapshots come from different processes, or null.
 * @param {Array<SnapshotMeta | null>} metas
 */
function differenceOf (metas) {
  const known = metas.filter((meta) => meta !== null)
  for (let i = 1; i < known.length; i++) {
    const difference = processDifference(known[0], known[i])
    if (difference !== null) return difference
  }
  return null
}

const MIN_LISTED_BYTES = 1024

/**
 * @param {DiffResult} diff
 * @param {DiffSnapshotInfo[]} snapshots
 * @param {{top?: number, findings?: Finding[], cwd?: string, sidecars?: Array<SnapshotMeta | null>, allocations?: AllocationsReport | null}} [options]
 *   cwd: scripts in the rows' `pathText` are shown relative to it; sidecars: per snapshot, what
 *   its sidecar says (for the process and the rate); allocations: the growing allocation stacks
 * @returns {DiffReport}
 */
export function buildDiffReport (diff, snapshots, { top = 10, findings = [], cwd = process.cwd(), sidecars = [], allocations = null } = {}) {
  const cut = /** @template T @param {T[]} rows */ (rows) => (top === 0 ? rows : rows.slice(0, top))
  // Owners that gained less than a kilobyte of new objects are bookkeeping, not growth worth reading.
  const growth = diff.growth.filter((g) => g.leak || g.leakedBytes + g.recentBytes >= MIN_LISTED_BYTES)
    .map((g) => ({ ...g, pathText: renderFoldedPath(g.path, { cwd }) }))
  const { process: origin, warning } = processOf(sidecars, diff)
  const { verdict, reason } = judgeWithFindings(diff, findings)
  return {
    schemaVersion: 1,
    kind: 'diff',
    snapshots,
    verdict,
    reason,
    comparison: diff.comparison,
    summary: diff.summary,
    classes: cut(diff.classes),
    growth: cut(growth),
    findings,
    process: origin,
    rate: rateOf(diff, verdict, snapshots, sidecars),
    capture: sidecars[0]?.trigger ?? null,
    warnings: warning ? [...diff.warnings, warning] : diff.warnings,
    allocations
  }
}

/**
 * The rate of growth, and the time to the limit at that rate, where they mean something. Between
 * two processes a rate compares two heaps that never were one: none. When nothing leaks, a time to
 * the limit counts down to an end that the diff just said is not coming: the rate without it.
 * @param {DiffResult} diff
 * @param {DiffResult['verdict']} verdict  with the findings weighed
 * @param {DiffSnapshotInfo[]} snapshots
 * @param {Array<SnapshotMeta | null>} sidecars
 * @returns {GrowthRate | null}
 */
function rateOf (diff, verdict, snapshots, sidecars) {
  if (diff.comparison === 'aggregates') return null
  const rate = computeGrowthRate(
    { meta: sidecars[0] ?? null, totalSize: snapshots[0].totalSize },
    { meta: sidecars[snapshots.length - 1] ?? null, totalSize: snapshots[snapshots.length - 1].totalSize }
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
  const sure = findings.filter((f) => f.confidence >= CONVINCING)
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
 * @returns {{process: DiffProcess | null, warning?: string}}
 */
function processOf (sidecars, diff) {
  if (sidecars.length === 0 || sidecars.some((meta) => meta === null) || differenceOf(sidecars) !== null) return { process: null }
  const last = /** @type {SnapshotMeta} */ (sidecars[sidecars.length - 1])
  const origin = { pid: last.pid, hostname: last.hostname, nodeVersion: last.nodeVersion, script: last.script }
  if (diff.comparison !== 'aggregates') return { process: origin }
  return { process: origin, warning: `the sidecars name one process (pid ${last.pid}${last.hostname ? ` on ${last.hostname}` : ''}), but its object ids do not line up; the sidecars may belong to other snapshots` }
}
