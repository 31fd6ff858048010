// The HTML report: one self-contained page (inline CSS and script, no network) for a diff or an
// inspect report. Node turns the Report model into a view of plain strings and numbers (the same
// formatting as the text report); the page's script builds the DOM from that view with
// textContent only. The view travels as JSON in a <script type="application/json"> whose `<`, `>`
// and `&` are escaped, so no name from the heap can close it or become markup, and a
// Content-Security-Policy lets only the page's own script and style run, whatever a name holds.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { formatBytes, formatCount, formatDuration } from '../format.js'
import { evidenceNote, evidenceNotes, heldText, locationRole, locationText } from '../render-findings.js'
import { rateLines, readableGrowth } from '../render-diff.js'
import { insideText, mappedLocationLines } from '../render-location.js'
import { allocatedAtParts } from '../render-allocated-at.js'
import { edgeText, foldPath } from '../render-path.js'
import { readableScriptName } from '../../signatures/source-location.js'
import { buildChart } from './chart.js'
/** @import {DiffReport, InspectReport} from '../report-model.js' */
/** @import {Finding} from '../model/findings.js' */
/** @import {Location, SourceLines} from '../model/locations.js' */
/** @import {PathStep as Step} from '../model/path-steps.js' */

/** @type {{template: string, style: string, script: string, policy: string} | undefined} */
let assets

function loadAssets () {
  if (assets) return assets
  const read = (/** @type {string} */ name) => readFileSync(new URL(name, import.meta.url), 'utf8')
  const style = read('style.css')
  const script = read('page.js')
  const hash = (/** @type {string} */ text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  // Only this script and this style may run: nothing from the network, no other inline code.
  const policy = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; base-uri 'none'; form-action 'none'`
  assets = { template: read('template.html'), style, script, policy }
  return assets
}

/**
 * Renders a diff or inspect report as one HTML page.
 * @param {DiffReport | InspectReport} report
 * @param {{cwd?: string}} [options] cwd: scripts in retainer paths are shown relative to it
 * @returns {string}
 */
export function renderHtmlReport (report, { cwd = process.cwd() } = {}) {
  const view = report.kind === 'diff' ? diffView(report, cwd) : inspectView(report, cwd)
  const { template, style, script, policy } = loadAssets()
  const title = report.kind === 'diff' ? `leakdiff: ${report.verdict}` : 'leakdiff: inspect'
  const values = { policy, title, style, script, data: embedJson(view) }
  return template.replace(/\{\{(\w+)\}\}/g, (whole, /** @type {keyof typeof values} */ name) => values[name] ?? whole)
}

/**
 * JSON that cannot end the <script> element it sits in, nor start markup or an entity in it.
 * @param {unknown} value
 */
function embedJson (value) {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029')
}

/**
 * @param {DiffReport} report
 * @param {string} cwd
 */
function diffView (report, cwd) {
  const { snapshots, summary } = report
  const sidecarTimes = snapshots.every((s) => s.takenAtSource === 'sidecar')
  const first = snapshots[0].takenAt
  const last = snapshots[snapshots.length - 1].takenAt
  const span = first !== null && last !== null ? Date.parse(last) - Date.parse(first) : null
  return {
    kind: 'diff',
    verdict: report.verdict,
    reason: report.reason,
    comparison: report.comparison,
    process: report.process && { ...report.process, script: report.process.script === null ? null : readableScriptName(report.process.script, cwd) },
    span: {
      from: first === null ? null : `${first.slice(0, 10)} ${first.slice(11, 19)}`,
      to: last === null ? null : `${last.slice(0, 10) === first?.slice(0, 10) ? '' : `${last.slice(0, 10)} `}${last.slice(11, 19)} UTC`,
      duration: span !== null && span > 0 ? formatDuration(span) : null,
      source: sidecarTimes ? 'the agent\'s sidecars' : snapshots.every((s) => s.takenAtSource === 'mtime') ? 'file modification times' : null
    },
    snapshots: snapshots.map((s) => ({
      name: basename(s.path),
      takenAt: s.takenAt,
      totalSize: formatBytes(s.totalSize),
      bytes: formatBytes(s.bytes),
      nodes: formatCount(s.nodeCount)
    })),
    heap: `${snapshots.map((s) => formatBytes(s.totalSize)).join(' → ')} (${formatBytes(summary.totalSizeDelta, { sign: true })})`,
    leaked: report.comparison === 'ids' ? `${formatCount(summary.leakedObjects)} new objects still alive (${formatBytes(summary.leakedBytes)}) outside engine bookkeeping` : null,
    rate: rateLines(report),
    warnings: report.warnings,
    chart: buildChart(report),
    findings: report.findings.map((finding) => findingView(finding, cwd)),
    // The rows the text report shows, numbered as there; the small ones that are not leaking are
    // counted, and the JSON report lists them.
    growth: readableGrowth(report.growth).shown.map((g) => ({
      number: report.growth.indexOf(g) + 1,
      owner: `${g.owner.name} @${g.owner.id}`,
      owners: g.ownerCount,
      leak: g.leak,
      newObjects: cell(g.leakedObjects + g.recentObjects, formatCount(g.leakedObjects + g.recentObjects, { sign: true })),
      newBytes: cell(g.leakedBytes + g.recentBytes, formatBytes(g.leakedBytes + g.recentBytes, { sign: true })),
      retained: [g.retainedBefore, ...(g.retainedMiddle === null ? [] : [g.retainedMiddle]), g.retainedAfter].map((size) => formatBytes(size)).join(' → '),
      holds: g.classes.map((k) => `${k.name} ×${formatCount(k.count)} (${formatBytes(k.size)})`).join(', '),
      path: pathView(g.path, cwd)
    })),
    growthHidden: readableGrowth(report.growth).hidden,
    classes: classTable(report.classes, 'sizeDelta', [
      ['newCount', 'New', count], ['deletedCount', 'Deleted', count], ['countDelta', 'Δcount', signedCount],
      ['sizeDelta', 'Δsize', signedBytes], ['retainedSizeDelta', 'Δretained', signedBytes]
    ])
  }
}

/**
 * @param {InspectReport} report
 * @param {string} cwd
 */
function inspectView (report, cwd) {
  const { snapshot } = report
  return {
    kind: 'inspect',
    snapshot: {
      name: basename(snapshot.path),
      facts: `${formatBytes(snapshot.bytes)} on disk, ${formatCount(snapshot.nodeCount)} nodes, ${formatCount(snapshot.edgeCount)} edges`,
      totalSize: formatBytes(snapshot.totalSize)
    },
    warnings: report.warnings,
    classes: classTable(report.classes, 'retainedSize', [
      ['count', 'Count', count], ['selfSize', 'Shallow size', bytes], ['retainedSize', 'Retained size', bytes]
    ]),
    dominators: report.dominators.map((d, i) => ({
      number: i + 1,
      name: d.name,
      id: d.id,
      type: d.type,
      retained: formatBytes(d.retainedSize),
      share: snapshot.totalSize > 0 ? d.retainedSize / snapshot.totalSize : 0,
      shallow: formatBytes(d.selfSize),
      path: pathView(d.path, cwd)
    }))
  }
}

const count = (/** @type {number} */ n) => formatCount(n)
const signedCount = (/** @type {number} */ n) => formatCount(n, { sign: true })
const bytes = (/** @type {number} */ n) => formatBytes(n)
const signedBytes = (/** @type {number} */ n) => formatBytes(n, { sign: true })

/**
 * A class table for the page: the name column, then numeric columns sortable by value.
 * @template {{name: string}} Row
 * @param {Row[]} rows
 * @param {string} sortedBy  the column the rows come sorted by (descending)
 * @param {Array<[keyof Row & string, string, (n: number) => string]>} columns  key, heading, format
 */
function classTable (rows, sortedBy, columns) {
  return {
    columns: [{ key: 'name', label: 'Class', numeric: false }, ...columns.map(([key, label]) => ({ key, label, numeric: true }))],
    sortedBy,
    rows: rows.map((row) => Object.fromEntries([
      ['name', cell(row.name, row.name)],
      ...columns.map(([key, , format]) => [key, cell(/** @type {number} */ (row[key]), format(/** @type {number} */ (row[key])))])
    ]))
  }
}

/**
 * A table cell: the value it sorts by and the text it shows.
 * @param {number | string} value
 * @param {string} text
 */
function cell (value, text) {
  return { value, text }
}

/**
 * @param {Finding} finding
 * @param {string} cwd
 */
function findingView (finding, cwd) {
  const { evidence, location } = finding
  const role = locationRole(finding)
  const inside = insideText(location)
  return {
    signature: finding.signature,
    title: finding.title,
    confidence: finding.confidence.toFixed(2),
    reasons: finding.reasons,
    owner: `${finding.owner.name} @${finding.owner.id}`,
    location: locationText(location),
    ranAs: mappedLocationLines(location).generated ?? '',
    // Only where a package made the growth: the page reads it when it is there.
    ...(inside === null ? {} : { inside }),
    role,
    path: pathView(finding.path, cwd),
    unit: evidence.unit,
    counts: evidence.counts.map((n) => formatCount(n)),
    perStep: evidence.perStep === 0 ? '' : `${formatCount(Math.round(evidence.perStep), { sign: true })} per step`,
    retained: evidence.retained.map((n) => formatBytes(n)),
    retainedPerStep: evidence.retained.length > 1 ? `${formatBytes((evidence.retained[evidence.retained.length - 1] - evidence.retained[0]) / (evidence.retained.length - 1), { sign: true })} per step` : '',
    note: evidenceNote(evidence),
    notes: evidenceNotes(evidence),
    source: sourceView(location, finding.source ?? null),
    allocated: finding.allocatedAt ? allocatedAtParts(finding.allocatedAt) : null,
    also: (finding.also ?? []).map((held) => ({
      held: heldText(held),
      signature: held.signature,
      location: locationText(held.location),
      title: held.title,
      path: pathView(held.path, cwd)
    })),
    fix: { summary: finding.fix.summary, snippet: finding.fix.snippet.replace(/\n+$/, '') }
  }
}

/**
 * The source lines around a location, with the location's line marked: the finding's lines of the
 * script that ran (an unmapped location), else the original line a source map led to; null when
 * the report has neither.
 * @param {Location | null} location
 * @param {SourceLines | null} around
 */
function sourceView (location, around) {
  if (location === null) return null
  if (around !== null && around.lines.length > 0) {
    return { file: around.file, lines: around.lines.map((text, i) => ({ number: around.start + i, text, marked: around.start + i === location.line })) }
  }
  const { original } = location
  if (original === undefined || original.snippet === null) return null
  return { file: original.file, lines: [{ number: original.line, text: original.snippet, marked: true }] }
}

/**
 * A retainer path as the text report folds it, each fold with the steps it hides.
 * @param {Step[]} path
 * @param {string} cwd
 */
function pathView (path, cwd) {
  if (path.length === 0) return []
  return foldPath(path, { cwd }).map((hop) => ({
    text: hop.text,
    folded: hop.folded,
    steps: hop.folded ? hop.steps.map(stepText) : []
  }))
}

/**
 * One step in DevTools' notation, with the object's id: `{context} → system / Context`.
 * @param {Step} step
 */
function stepText (step) {
  return `${edgeText(step)} → ${step.node}${step.id > 0 ? ` @${step.id}` : ''}`
}
