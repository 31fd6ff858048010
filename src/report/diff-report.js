import { stat } from 'node:fs/promises'
import { HEAP_NAMES } from '../analysis/shown-names.js'
import { diffHeapsWithDetail, prepareForDiff } from '../diff/diff-heaps.js'
import { InvalidArgumentError } from '../errors.js'
import { matchSignatures } from '../signatures/index.js'
import { SourceLocator } from '../sources/source-locator.js'
import { computeGrowthRate } from './growth-rate.js'
import { analyzeSnapshots } from './analyze-in-parallel.js'
import { renderFoldedPath } from './render-path.js'
import { processDifference, readSidecar } from './sidecars.js'
import { allocationsFor } from './allocated-at.js'
import { diffReportModel } from './report-model.js'
import { splitMemory } from '../diff/memory-split.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {DiffResult} from '../diff/diff-heaps.js' */
/** @import {GrowthThresholds} from '../diff/growth-groups.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */
/** @import {Finding} from '../signatures/finding.js' */
/** @import {GrowthRate} from './growth-rate.js' */
/** @import {SnapshotMeta} from './sidecars.js' */
/** @import {SnapshotInfo, Process} from './model/snapshots.js' */
/** @import {SourceOptions} from '../sources/source-locator.js' */
/** @import {AllocationsReport} from './allocated-at.js' */
/** @import {MemorySplit} from '../diff/memory-split.js' */

/** @typedef {SnapshotInfo} DiffSnapshotInfo */
/** @typedef {Process} DiffProcess */
/** @typedef {import('./report-model.js').DiffReport} DiffReport */

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
  // Variables, classes and functions a minifier renamed read as written wherever a report names
  // them (paths, titles, fixes): the sources' names come down as an argument; the scans of the
  // code that ran keep the names it has.
  const names = locator?.names ?? HEAP_NAMES
  const { result, detail } = diffHeapsWithDetail(analyses, thresholds, { differentProcesses, names })
  for (const { warning } of sidecars) if (warning) result.warnings.push(warning)
  onProgress?.({ bytesRead: read, totalBytes: read, stage: 'matching leak signatures' })
  const matched = matchSignatures(result, detail, { cwd, names })
  // Stacks are tied to the findings by the locations the signatures found, in the code that ran;
  // then both are mapped to the original sources.
  const last = analyses[analyses.length - 1]
  /** @type {import('./allocated-at.js').MapPosition | undefined} */
  const mapPosition = locator === null ? undefined : (url, position, fn) => locator.mapPosition(url, position, last, fn)
  const allocations = await allocationsFor(sources, metas, { result, detail, findings: matched, cwd, top, mapPosition })
  const findings = locator === null ? matched : locator.mapFindings(matched, analyses[analyses.length - 1])
  if (locator !== null) nameClassRows(result, findings, locator, last, top)
  const memory = differentProcesses === null ? splitMemory(analyses.map((analysis) => analysis.graph), metas.map((meta) => meta?.memory ?? null)) : null
  return buildDiffReport(result, infos, { top, cwd, sidecars: metas, findings: memory === null ? findings : releaseFixes(findings, memory), allocations, memory })
}

/**
 * Findings whose entries hold native memory that grew (a zlib context, a stream's handle): the
 * memory is released by ending, closing or destroying each resource, not by bounding the
 * collection, so the fix says that and keeps its own as a note.
 * @param {Finding[]} findings
 * @param {MemorySplit} memory
 * @returns {Finding[]}
 */
function releaseFixes (findings, memory) {
  const holders = new Map(memory.nativeKinds.flatMap((kind) => kind.holders.flatMap((holder) => holder.name.split('/').map((name) => [name, kind]))))
  if (holders.size === 0) return findings
  return findings.map((finding) => {
    const classes = CLASS_LISTS.flatMap((key) => (Array.isArray(finding.evidence[key]) ? finding.evidence[key] : []))
    const holder = classes.find((name) => holders.has(name))
    const kind = holder === undefined ? undefined : holders.get(holder)
    if (holder === undefined || kind === undefined) return finding
    const grown = (kind.bytes.at(-1) ?? 0) - kind.bytes[0]
    const each = kind.counts.at(-1) ? Math.round((kind.bytes.at(-1) ?? 0) / /** @type {number} */ (kind.counts.at(-1))) : 0
    return {
      ...finding,
      native: { kind: kind.name, holder, bytes: grown, bytesEach: each },
      evidence: { ...finding.evidence, notes: [...finding.evidence.notes, `each ${holder} keeps native memory outside the JS heap (${kind.name}, ~${Math.round(each / 1024)} kB each): it counts against the process's memory limit, not V8's heap limit; bounding the collection alone would only cap it (${finding.fix.summary})`] },
      fix: {
        summary: `release each ${holder} when its work is done: end() it (or close() / destroy() it) and remove it from the collection; its native memory goes when it is closed.`,
        snippet: `${holder.charAt(0).toLowerCase()}${holder.slice(1)}.end()      // or .close() / .destroy()\n${finding.path.findLast((step) => step.edgeType === 'property' || step.edgeType === 'context')?.edge ?? 'collection'}.delete(key)`
      }
    }
  })
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
  const renamed = locator.renamedClasses(new Set([...rows.map((row) => row.name), ...lists.flat()]), last)
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
 * @param {DiffSnapshotInfo[]} snapshots
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
  const origin = { pid: last.pid, hostname: last.hostname, nodeVersion: last.nodeVersion, script: last.script, ...(last.thread && !last.thread.main ? { thread: last.thread } : {}) }
  if (diff.comparison !== 'aggregates') return { process: origin }
  return { process: origin, warning: `the sidecars name one process (pid ${last.pid}${last.hostname ? ` on ${last.hostname}` : ''}), but its object ids do not line up; the sidecars may belong to other snapshots` }
}
