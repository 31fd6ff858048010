import { Chalk } from 'chalk'
import { formatBytes, formatCount, fit } from './format.js'
import { renderFoldedPath } from './render-path.js'
import { escapeStrings } from './escape/escape-text.js'
import { markdownCode, markdownText } from './escape/escape-markdown.js'
/** @import {InspectReport} from './report-model.js' */

/**
 * Renders an inspect report.
 * @param {InspectReport} report
 * @param {{format?: 'text' | 'json' | 'markdown', color?: boolean, width?: number}} [options]
 *   color: undefined follows chalk's detection (a TTY, NO_COLOR, FORCE_COLOR)
 * @returns {string}
 */
export function renderInspectReport (report, { format = 'text', color, width = 80 } = {}) {
  if (format === 'json') return JSON.stringify(report, null, 2) + '\n'
  // Control characters in names from the heap are written as escapes (escape/escape-text.js).
  report = escapeStrings(report)
  if (format === 'markdown') return renderMarkdown(report)
  const c = color === undefined ? new Chalk() : new Chalk({ level: color ? 1 : 0 })
  const { snapshot } = report
  const facts = `${formatBytes(snapshot.bytes)} on disk, ${formatCount(snapshot.nodeCount)} nodes, ${formatCount(snapshot.edgeCount)} edges`
  const lines = [
    ...(snapshot.path.length + 2 + facts.length <= width ? [c.bold(snapshot.path) + `  ${facts}`] : [c.bold(snapshot.path), `  ${facts}`]),
    `heap ${c.bold(formatBytes(snapshot.totalSize))} (total retained size, as Chrome DevTools shows it)`,
    ''
  ]
  const nameWidth = Math.max(20, width - 42)
  lines.push(c.bold(`${fit('Classes by retained size', nameWidth)} ${fit('count', 10, 'right')} ${fit('shallow', 14, 'right')} ${fit('retained', 14, 'right')}`))
  for (const row of report.classes) {
    lines.push(`${fit(row.name, nameWidth)} ${fit(formatCount(row.count), 10, 'right')} ${fit(formatBytes(row.selfSize), 14, 'right')} ${fit(formatBytes(row.retainedSize), 14, 'right')}`)
  }
  lines.push('')
  lines.push(c.bold('Largest dominators (objects that keep the most memory alive)'))
  report.dominators.forEach((d, i) => {
    lines.push(`${String(i + 1).padStart(2)}  ${c.bold(d.name)} @${d.id}  retains ${c.bold(formatBytes(d.retainedSize))} (shallow ${formatBytes(d.selfSize)})`)
    for (const line of wrapPath(d.pathText ?? renderFoldedPath(d.path), width)) lines.push(c.dim(line))
  })
  if (report.dominators.length === 0) lines.push('  (none above 0.01% of the heap)')
  if (report.warnings.length > 0) {
    lines.push('')
    for (const warning of report.warnings) {
      for (const line of wrapWords(`warning: ${warning}`, width)) lines.push(c.yellow(line))
    }
  }
  lines.push('')
  lines.push(c.dim('Chrome DevTools opens the snapshot (Memory → Load) and shows objects as @id.'))
  return lines.join('\n') + '\n'
}

/**
 * The inspect report in GitHub-flavoured Markdown (a step summary, a PR comment): the same facts,
 * classes and dominators as the text, in tables.
 * @param {InspectReport} report  with its strings escaped
 */
function renderMarkdown (report) {
  const { snapshot } = report
  const lines = [
    `## leakdiff inspect: ${markdownCode(snapshot.path)}`,
    '',
    `${formatBytes(snapshot.bytes)} on disk, ${formatCount(snapshot.nodeCount)} nodes, ${formatCount(snapshot.edgeCount)} edges; ` +
      `heap ${formatBytes(snapshot.totalSize)} (total retained size, as Chrome DevTools shows it).`,
    '',
    '### Classes by retained size',
    '',
    '| class | count | shallow | retained |',
    '| --- | ---: | ---: | ---: |'
  ]
  for (const row of report.classes) {
    lines.push(`| ${markdownCode(row.name, { cell: true })} | ${formatCount(row.count)} | ${formatBytes(row.selfSize)} | ${formatBytes(row.retainedSize)} |`)
  }
  lines.push('', '### Largest dominators (objects that keep the most memory alive)', '')
  if (report.dominators.length === 0) lines.push('None above 0.01% of the heap.')
  report.dominators.forEach((d, i) => {
    lines.push(`${i + 1}. ${markdownCode(d.name)} @${d.id} retains ${formatBytes(d.retainedSize)} (shallow ${formatBytes(d.selfSize)}): ${markdownCode(d.pathText ?? renderFoldedPath(d.path))}`)
  })
  for (const warning of report.warnings) lines.push('', `> **Warning:** ${markdownText(warning)}`)
  return lines.join('\n') + '\n'
}

/**
 * Breaks a retainer path between its hops so that each line, with the arrow that ends it, fits
 * `width` columns; a hop too long for a line of its own is broken at its spaces.
 * @param {string} text  hops joined by ' → '
 * @param {number} width
 * @returns {string[]}
 */
export function wrapPath (text, width) {
  const lines = []
  let line = '    '
  let empty = true
  for (const hop of text.split(' → ')) {
    const pieces = `    ${hop}`.length + 2 <= width ? [hop] : hop.split(' ')
    pieces.forEach((piece, i) => {
      const separator = empty ? '' : i === 0 ? ' → ' : ' '
      if (!empty && line.length + separator.length + piece.length + 2 > width) {
        lines.push(i === 0 ? `${line} →` : line)
        line = `      ${piece}`
      } else {
        line += separator + piece
      }
      empty = false
    })
  }
  lines.push(line)
  return lines
}

/**
 * Breaks text at spaces so that each line fits `width` columns; continuation lines are indented
 * by two spaces. A word longer than a line gets a line of its own.
 * @param {string} text
 * @param {number} width
 * @returns {string[]}
 */
function wrapWords (text, width) {
  const lines = []
  let line = ''
  let indent = 0
  for (const word of text.split(' ')) {
    if (line.length > indent && line.length + 1 + word.length > width) {
      lines.push(line)
      line = '  '
      indent = 2
    }
    line += (line.length > indent ? ' ' : '') + word
  }
  lines.push(line)
  return lines
}
