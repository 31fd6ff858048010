// Finding cards: where to look first, then what it is, the evidence, and the fix (report-example.md).
import { formatBytes, formatCount } from './format.js'
import { renderPath } from './render-path.js'
/** @import {Finding, SourceLocation} from '../signatures/finding.js' */

/**
 * @param {SourceLocation | null} location
 */
export function locationText (location) {
  if (location === null) return '(source location not in the snapshot)'
  return `${location.file}:${location.line}:${location.column}`
}

/**
 * Text cards, one per finding, numbered from 1.
 * @param {Finding[]} findings
 * @param {import('chalk').ChalkInstance} c
 * @param {(text: string, indent: string, first?: string) => string[]} wrap  breaks a line to the width
 * @returns {string[]} lines
 */
export function renderFindingCards (findings, c, wrap) {
  /** @type {string[]} */
  const lines = []
  findings.forEach((finding, i) => {
    const { evidence, location } = finding
    lines.push(`${c.bold(String(i + 1).padEnd(3))}${c.bold.red(finding.signature)}   confidence ${finding.confidence.toFixed(2)}`)
    const fn = location && location.function !== '' ? `   (${location.function})` : ''
    lines.push(`   ${c.cyan(locationText(location))}${fn}`)
    lines.push(...wrap(finding.title, '   ', '   '))
    lines.push(...wrap(renderPath(finding.path), '   ', '   ').map((line) => c.dim(line)))
    const per = evidence.perStep === 0 ? '' : `   (${formatCount(Math.round(evidence.perStep), { sign: true })} per step)`
    lines.push(`   ${evidence.unit.padEnd(11)} ${evidence.counts.map((n) => formatCount(n)).join(' → ')}${per}`)
    lines.push(`   ${'retained'.padEnd(11)} ${evidence.retained.map((n) => formatBytes(n)).join(' → ')}`)
    lines.push(...wrap(`${c.green('fix')}  ${finding.fix.summary}`, '        ', '   '))
    for (const line of finding.fix.snippet.split('\n')) if (line !== '') lines.push(`          ${line}`)
    lines.push('')
  })
  return lines
}

/**
 * Markdown cards for a pull-request comment.
 * @param {Finding[]} findings
 * @returns {string[]} lines
 */
export function renderFindingCardsMarkdown (findings) {
  /** @type {string[]} */
  const lines = []
  findings.forEach((finding, i) => {
    const { evidence, location } = finding
    lines.push(`#### ${i + 1}. \`${finding.signature}\` at \`${locationText(location)}\`${location && location.function !== '' ? ` (${location.function})` : ''}`, '')
    lines.push(`${finding.title} Confidence ${finding.confidence.toFixed(2)}: ${finding.reasons.join('; ')}.`, '')
    lines.push(`- path: \`${renderPath(finding.path).replaceAll('`', "'")}\``)
    lines.push(`- ${evidence.unit}: ${evidence.counts.map((n) => formatCount(n)).join(' → ')}`)
    lines.push(`- retained: ${evidence.retained.map((n) => formatBytes(n)).join(' → ')}`, '')
    lines.push(`**Fix:** ${finding.fix.summary}`, '')
    if (finding.fix.snippet !== '') lines.push('```js', finding.fix.snippet.replace(/\n$/, ''), '```', '')
  })
  return lines
}
