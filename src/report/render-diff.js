import { basename } from 'node:path'
import { Chalk } from 'chalk'
import { formatBytes, formatCount, formatDuration, fit } from './format.js'
import { renderFindingCards, renderFindingCardsMarkdown } from './render-findings.js'
import { memoryLines } from './render-memory.js'
import { escapeStrings } from './escape/escape-text.js'
import { markdownCode, markdownText } from './escape/escape-markdown.js'
/** @import {DiffReport} from './report-model.js' */

/** The class table's number columns: header, and the least width. */
const CLASS_COLUMNS = /** @type {const} */ ([['new', 8], ['deleted', 8], ['Δcount', 8], ['Δsize', 12], ['Δretained', 12]])

/**
 * Renders a diff report. Reads only the report; never prints string values from the heap (the
 * report holds class, property and variable names only).
 * @param {DiffReport} report
 * @param {{format?: 'text' | 'json' | 'markdown', color?: boolean, width?: number}} [options]
 *   color: undefined follows chalk's detection (a TTY, NO_COLOR, FORCE_COLOR)
 * @returns {string}
 */
export function renderDiffReport (report, { format = 'text', color, width = 80 } = {}) {
  if (format === 'json') return JSON.stringify(report, null, 2) + '\n'
  // Names from the heap hold whatever the program put in them: control characters are written as
  // escapes before either format sees the report (escape/escape-text.js).
  const safe = escapeStrings(report)
  if (format === 'markdown') return renderMarkdown(safe)
  return renderText(safe, color === undefined ? new Chalk() : new Chalk({ level: color ? 1 : 0 }), width)
}

/**
 * @param {DiffReport} report
 * @param {import('chalk').ChalkInstance} c
 * @param {number} width
 */
function renderText (report, c, width) {
  const { snapshots, summary } = report
  const lines = [
    ...wrap(`${c.bold('leakdiff')} ${headline(report)}`, width, '  '),
    ...wrap(`heap ${snapshots.map((s) => formatBytes(s.totalSize)).join(' → ')} (${formatBytes(summary.totalSizeDelta, { sign: true })})${jsHeapText(report)}`, width, '  '),
    ''
  ]
  const badge = report.verdict === 'leak' ? c.red.bold('LEAK') : report.verdict === 'clean' ? c.green.bold('CLEAN') : c.yellow.bold('INCONCLUSIVE')
  lines.push(...wrap(`${badge}  ${report.reason}`, width, '      '))
  for (const line of rateLines(report)) lines.push(...wrap(line, width, '      ', '      '))
  for (const line of memoryLines(report)) lines.push(...wrap(line, width, '      ', '      '))
  if (report.comparison === 'ids') {
    lines.push(`      ${formatCount(summary.leakedObjects)} new objects still alive (${formatBytes(summary.leakedBytes)}) outside engine bookkeeping`)
  }
  for (const warning of report.warnings) lines.push(...wrap(c.yellow(`warning: ${warning}`), width, '  '))
  lines.push('')
  lines.push(...renderFindingCards(report.findings, c, (text, indent, first) => wrap(text, width, indent, first), width))

  const { shown, hidden } = readableGrowth(report.growth)
  if (shown.length > 0) {
    lines.push(c.bold(`Growth by owner (top ${shown.length}, by retained growth not counting nested owners)`))
    shown.forEach((g) => {
      const mark = g.leak ? c.red('leak') : c.dim('ok')
      const owners = g.ownerCount > 1 ? ` ×${formatCount(g.ownerCount)} owners` : ''
      lines.push(`${String(rowNumber(report, g)).padStart(2)}  ${c.bold(g.owner.name)} @${g.owner.id}${owners}  ${mark}`)
      const recent = g.retainedMiddle === null ? '' : `, then +${formatCount(g.recentObjects)} (${formatBytes(g.recentBytes)})`
      lines.push(`    new objects +${formatCount(g.leakedObjects)} (${formatBytes(g.leakedBytes)})${recent}`)
      const retained = [g.retainedBefore, ...(g.retainedMiddle === null ? [] : [g.retainedMiddle]), g.retainedAfter]
      lines.push(`    retained ${retained.map((size) => formatBytes(size)).join(' → ')}`)
      lines.push(...wrap(g.pathText, width, '    ', '    ').map((line) => c.dim(line)))
      if (g.classes.length > 0) {
        lines.push(...wrap(`holds ${g.classes.map((k) => `${k.name} ×${formatCount(k.count)} (${formatBytes(k.size)})`).join(', ')}`, width, '    ', '    '))
      }
      const shared = sharedText(g, report.growth, shown)
      if (shared) lines.push(...wrap(shared, width, '    ', '    ').map((line) => c.yellow(line)))
    })
    if (hidden > 0) lines.push(c.dim(`    and ${hidden} small owner row${hidden === 1 ? '' : 's'} that ${hidden === 1 ? 'is' : 'are'} not leaking (--format json lists them)`))
    lines.push('')
  }

  if (report.classes.length === 0) {
    lines.push(c.bold('Classes'), '  no class gained or lost objects', '')
    lines.push(c.dim('Chrome DevTools opens the snapshots (Memory → Load) and shows objects as @id.'))
    return lines.join('\n') + '\n'
  }
  const cells = report.classes.map((row) => [formatCount(row.newCount), formatCount(row.deletedCount), formatCount(row.countDelta, { sign: true }), formatBytes(row.sizeDelta, { sign: true }), formatBytes(row.retainedSizeDelta, { sign: true })])
  // A number is never cut: its column widens to the widest, and the class names get what is left.
  const widths = CLASS_COLUMNS.map(([header, least], k) => Math.max(least, header.length, ...cells.map((row) => row[k].length)))
  const nameWidth = Math.max(16, width - widths.reduce((sum, w) => sum + w + 1, 0))
  const line = (/** @type {string} */ name, /** @type {string[]} */ values) => [fit(name, nameWidth), ...values.map((value, k) => fit(value, widths[k], 'right'))].join(' ')
  lines.push(c.bold(line(`Classes (top ${report.classes.length} by Δsize)`, CLASS_COLUMNS.map(([header]) => header))))
  for (const [i, row] of report.classes.entries()) lines.push(line(row.name, cells[i]))
  lines.push('')
  lines.push(c.dim('Chrome DevTools opens the snapshots (Memory → Load) and shows objects as @id.'))
  return lines.join('\n') + '\n'
}

/**
 * @param {DiffReport} report
 */
function renderMarkdown (report) {
  const { snapshots, summary } = report
  const lines = [
    `## leakdiff: ${report.verdict.toUpperCase()}`,
    '',
    markdownText(report.reason),
    '',
    ...(report.process || report.rate || report.capture ? [markdownText(headline(report)) + '.', ...rateLines(report).map((line) => `- ${markdownText(line)}`), ''] : []),
    ...memoryLines(report).map((line) => `- ${markdownText(line)}`),
    `Snapshots: ${snapshots.map((s) => `${markdownCode(basename(s.path))} (${formatBytes(s.totalSize)})`).join(' → ')}; heap ${formatBytes(summary.totalSizeDelta, { sign: true })}, ` +
      `${formatCount(summary.leakedObjects)} new objects still alive (${formatBytes(summary.leakedBytes)}).`,
    ''
  ]
  for (const warning of report.warnings) lines.push(`> **Warning:** ${markdownText(warning)}`, '')
  if (report.findings.length > 0) lines.push('### Findings', '', ...renderFindingCardsMarkdown(report.findings))
  const { shown, hidden } = readableGrowth(report.growth)
  if (shown.length > 0) {
    lines.push('### Growth by owner', '', '| # | owner | owners | new objects | new bytes | retained | leak |', '| ---: | --- | ---: | ---: | ---: | --- | --- |')
    shown.forEach((g) => {
      const retained = [g.retainedBefore, ...(g.retainedMiddle === null ? [] : [g.retainedMiddle]), g.retainedAfter].map((size) => formatBytes(size)).join(' → ')
      lines.push(`| ${rowNumber(report, g)} | ${markdownCode(g.owner.name, { cell: true })} @${g.owner.id} | ${formatCount(g.ownerCount)} | ${formatCount(g.leakedObjects)} | ${formatBytes(g.leakedBytes)} | ${retained} | ${g.leak ? 'yes' : 'no'} |`)
    })
    if (hidden > 0) lines.push('', `And ${hidden} small owner row${hidden === 1 ? '' : 's'} that ${hidden === 1 ? 'is' : 'are'} not leaking (the JSON report lists them).`)
    lines.push('')
    shown.forEach((g) => {
      const shared = sharedText(g, report.growth, shown)
      lines.push(`${rowNumber(report, g)}. ${markdownCode(g.pathText)}${shared ? ` (${markdownText(shared)})` : ''}`)
    })
    lines.push('')
  }
  if (report.classes.length === 0) return [...lines, '### Classes', '', 'No class gained or lost objects.'].join('\n') + '\n'
  lines.push('### Classes', '', '| class | new | deleted | Δcount | Δsize | Δretained |', '| --- | ---: | ---: | ---: | ---: | ---: |')
  for (const row of report.classes) {
    lines.push(`| ${markdownCode(row.name, { cell: true })} | ${formatCount(row.newCount)} | ${formatCount(row.deletedCount)} | ${formatCount(row.countDelta, { sign: true })} | ${formatBytes(row.sizeDelta, { sign: true })} | ${formatBytes(row.retainedSizeDelta, { sign: true })} |`)
  }
  return lines.join('\n') + '\n'
}

/**
 * A row's number in the report, as the JSON counts it: rows keep it when smaller rows above them
 * are hidden, so that the text and the JSON name the same row N.
 * @param {DiffReport} report
 * @param {DiffReport['growth'][number]} row
 */
function rowNumber (report, row) {
  return report.growth.indexOf(row) + 1
}

/**
 * Says which other rows hold the new objects of a row that is mostly shared: not a leak of its own.
 * @param {DiffReport['growth'][number]} row
 * @param {DiffReport['growth']} rows  all rows, numbered from 1
 * @param {DiffReport['growth']} shown  the rows printed
 */
function sharedText (row, rows, shown) {
  if (row.sharedWith.length === 0) return ''
  const numbers = row.sharedWith.map(({ ownerId }) => shown.find((g) => g.owner.id === ownerId)).flatMap((g) => (g === undefined ? [] : [rows.indexOf(g) + 1]))
  const objects = row.sharedWith.reduce((most, share) => Math.max(most, share.objects), 0)
  const others = numbers.length === 0 ? 'other owners' : `${numbers.length === 1 ? 'row' : 'rows'} ${listText(numbers.map(String))}`
  const around = numbers.length > 2 ? 'all of them' : 'both'
  return `shared: ${formatCount(objects)} of these new objects are also held by ${others}; they are counted here, with the scope around ${around}, and go when ${numbers.length > 1 ? 'those leaks are' : 'that leak is'} fixed`
}

/**
 * `1`, `1 and 2`, `1, 2 and 3`.
 * @param {string[]} items
 */
function listText (items) {
  return items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

// A row that is not leaking and gained less than this share of the largest leaking row's new bytes
// is hidden from text and markdown: next to a leak of megabytes, a kilobyte of bookkeeping is noise.
const HIDDEN_SHARE = 0.01

/**
 * The growth rows worth reading next to the leaks: every leaking row, and the others unless they
 * are small beside the largest leak. Without a leak every row is shown: then they are what grew.
 * @param {DiffReport['growth']} growth
 */
export function readableGrowth (growth) {
  const largest = Math.max(0, ...growth.filter((g) => g.leak).map((g) => g.leakedBytes + g.recentBytes))
  const shown = growth.filter((g) => g.leak || g.leakedBytes + g.recentBytes >= HIDDEN_SHARE * largest)
  return { shown, hidden: growth.length - shown.length }
}

/**
 * `2 snapshots of pid 4121 on api-1, 10:02:11 → 10:06:11 UTC, node v20.20.2` with sidecars; the
 * file names without.
 * @param {DiffReport} report
 */
function headline (report) {
  const { snapshots } = report
  const names = `${snapshots.length} snapshots: ${snapshots.map((s) => basename(s.path)).join(' → ')}`
  if (!report.process) return names
  const { pid, hostname, nodeVersion, thread } = report.process
  const threadText = thread ? ` ${threadName(thread)}` : ''
  const times = snapshots.every((s) => s.takenAtSource === 'sidecar') ? `, ${snapshots.map((s) => clock(/** @type {string} */ (s.takenAt))).join(' → ')} UTC` : ''
  return `${snapshots.length} snapshots of pid ${pid}${threadText}${hostname ? ` on ${hostname}` : ''}${times}${nodeVersion ? `, node ${nodeVersion}` : ''}`
}

/**
 * `, of which the JS heap 4.70 MB → 5.29 MB`: when memory outside V8's heap (native, ArrayBuffer
 * stores) is a large part of what the snapshots record, the heap's own share.
 * @param {DiffReport} report
 */
function jsHeapText ({ memory }) {
  if (!memory) return ''
  const outside = memory.snapshots.map((s) => s.native + s.backingStores)
  if (Math.max(...outside) < Math.max(...memory.snapshots.map((s) => s.jsHeap))) return ''
  return `, of which the JS heap ${memory.snapshots.map((s) => formatBytes(s.jsHeap)).join(' → ')}`
}

/**
 * `thread 3 (pool-worker.js)`: a worker thread as the headline names it.
 * @param {{id: number, file: string | null, name: string | null}} thread
 */
export function threadName ({ id, file, name }) {
  const label = name ?? (file === null ? null : basename(file))
  return `thread ${id}${label ? ` (${label})` : ''}`
}

/**
 * The rate of growth and the time to the limit, one line each (none without sidecars).
 * @param {DiffReport} report
 */
export function rateLines (report) {
  const { rate } = report
  const capture = captureLine(report)
  if (!rate) return capture === null ? [] : [capture]
  // Without a leak, a pace per minute from a few seconds of warm-up reads as an alarm it is not.
  const pace = report.verdict === 'leak' ? ` (${formatBytes(rate.bytesPerMinute, { sign: true })}/min)` : ', by no leaking owner'
  const lines = [...(capture === null ? [] : [capture]), `${formatBytes(rate.bytes, { sign: true })} retained in ${formatDuration(rate.minutes * 60_000)}${pace}`]
  const { limit } = rate
  if (limit) {
    const nearer = limit.nearerThan ? ', the nearer of its two limits' : ''
    const what = limit.kind === 'heap' ? `the heap reaches its ${formatBytes(limit.bytes)} limit${nearer}` : `the process reaches its ${formatBytes(limit.bytes)} memory limit (${limit.source}; RSS, not the heap)${nearer}`
    lines.push(limit.minutesToLimit === 0 ? `${what.replace('reaches', 'has reached')} already` : `at this rate ${what} in about ${formatDuration(limit.minutesToLimit * 60_000)}`)
  }
  return lines
}

/**
 * Why the agent took the series by itself: `captured automatically: heap after GC grew 14 MiB/h for
 * 5 h; heap limit in ~2 h`. Null for a series someone asked for.
 * @param {DiffReport} report
 * @returns {string | null}
 */
function captureLine ({ capture }) {
  if (!capture) return null
  const { reason, bytesPerHour, spanMinutes, heapAfterGc, limit } = capture
  const limitName = limit === null ? '' : `${limit.kind === 'heap' ? 'heap' : 'memory'} limit (${formatBytes(limit.bytes)})`
  if (reason === 'fraction' && limit !== null) {
    return `captured automatically: heap after GC reached ${formatBytes(heapAfterGc)}, ${Math.round(limit.fraction * 100)} % of its ${limitName}`
  }
  const growth = `captured automatically: ${capture.measure === 'rss' ? 'RSS' : 'heap after GC'} grew ${formatBytes(bytesPerHour)}/h for ${formatDuration(spanMinutes * 60_000)}`
  return limit === null || limit.minutesToLimit === null ? growth : `${growth}; ${limitName} in ~${formatDuration(limit.minutesToLimit * 60_000)}`
}

/**
 * `10:02:11` from an ISO time (UTC).
 * @param {string} iso
 */
function clock (iso) {
  return iso.slice(11, 19)
}

/**
 * Breaks a line at spaces so that it fits `width` columns (ANSI codes do not count).
 * @param {string} text
 * @param {number} width
 * @param {string} indent    for the continuation lines
 * @param {string} [first]   for the first line
 */
function wrap (text, width, indent, first = '') {
  const words = text.split(' ')
  const lines = []
  let line = first
  let visible = first.length
  for (const word of words) {
    const length = stripAnsi(word).length
    if (visible > indent.length && visible > first.length && visible + 1 + length > width) {
      lines.push(line)
      line = indent
      visible = indent.length
    }
    const separator = visible > (lines.length === 0 ? first.length : indent.length) ? ' ' : ''
    line += separator + word
    visible += separator.length + length
  }
  lines.push(line)
  return lines
}

/** @param {string} text */
function stripAnsi (text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '')
}
