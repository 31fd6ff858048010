// Finding cards: where to look first, then what it is, the evidence, and the fix (report-example.md).
// Cards read only the findings: the facts a signature put in `evidence` are turned into one short
// phrase here (evidenceNote), and its `notes` are printed a line each after the numbers they
// explain, so a new signature's facts need no change here; nothing is looked up in the heap.
import { formatBytes, formatCount } from './format.js'
import { insideParts, insideText, mappedLocationLines } from './render-location.js'
import { renderFoldedPath } from './render-path.js'
import { allocatedAtParts } from './render-allocated-at.js'
import { markdownCode, markdownFence, markdownText } from './escape/escape-markdown.js'
/** @import {Finding, HeldFinding} from './model/findings.js' */
/** @import {Location} from './model/locations.js' */

/**
 * @param {Location | null} location
 */
export function locationText (location) {
  if (location === null) return '(source location not in the snapshot)'
  return `${location.file}:${location.line}:${location.column}`
}

/**
 * What the code at a finding's location is: `anonymous listener`, `handle, closes over it`,
 * `module scope`.
 * @param {Finding} finding
 * @returns {string} '' when there is nothing to say
 */
export function locationRole (finding) {
  const { location, evidence } = finding
  if (location === null) return ''
  const name = location.function
  const role = typeof evidence.locationRole === 'string' ? evidence.locationRole : ''
  if (role === 'listener') return name === '' ? 'anonymous listener' : `listener ${name}`
  if (role === '' || role === 'module scope') return role === '' ? name : role
  return `${name === '' ? 'anonymous function' : name}, ${role}`
}

/**
 * The one phrase that follows the per-step counts: what each counted thing holds.
 * @param {Finding['evidence']} evidence
 * @returns {string} '' when the signature recorded nothing of the kind
 */
export function evidenceNote (evidence) {
  const parts = []
  const keeps = stringList(evidence.keepsAlive)
  const perListener = numberOr(evidence.bytesPerListener)
  if (keeps.length > 0) parts.push(`each keeps ${keeps.join(' + ')} alive${perListener > 0 ? ` (~${formatBytes(perListener)})` : ''}`)
  else if (perListener > 0) parts.push(`~${formatBytes(perListener)} per listener`)
  const perEntry = numberOr(evidence.bytesPerEntry)
  if (perEntry > 0) parts.push(`~${formatBytes(perEntry)} per entry`)
  const keys = stringList(evidence.keyClasses)
  const values = stringList(evidence.valueClasses)
  if (keys.length > 0) parts.push(`keys ${keys.join(', ')}`)
  if (values.length > 0) parts.push(`values ${values.join(', ')}`)
  const perElement = numberOr(evidence.bytesPerElement)
  if (perElement > 0) parts.push(`~${formatBytes(perElement)} per element`)
  const elements = stringList(evidence.elementClasses)
  if (elements.length > 0) parts.push(`of ${elements.join(', ')}`)
  return parts.join(', ')
}

/**
 * A finding listed under another one's card, since that one's objects hold it: what grew and what
 * holds it (`+300 timers owned by these TenantClient objects`), or what its objects point at when
 * they are an index of that one's (`+600 entries pointing at these {fulfilled, rejected} objects`).
 * The card goes on with the finding's signature, location and title.
 * @param {HeldFinding} held
 * @returns {string}
 */
export function heldText (held) {
  const { counts, unit } = held.evidence
  const grew = counts.length > 1 && counts[counts.length - 1] > counts[0] ? formatCount(counts[counts.length - 1] - counts[0], { sign: true }) : formatCount(counts[counts.length - 1] ?? 0)
  const share = held.heldBy.share < 0.995 ? ` (${Math.round(held.heldBy.share * 100)}% of its new objects)` : ''
  return held.heldBy.relation === 'indexes'
    ? `${grew} ${unit} pointing at these ${held.heldBy.holderClass} objects${share}`
    : `${grew} ${unit} owned by these ${held.heldBy.holderClass} objects${share}`
}

/**
 * Text cards, one per finding, numbered from 1.
 * @param {Finding[]} findings
 * @param {import('chalk').ChalkInstance} c
 * @param {(text: string, indent: string, first?: string) => string[]} wrap  breaks a line to the width
 * @param {number} [width] columns, for code lines that cannot break at any space
 * @returns {string[]} lines
 */
export function renderFindingCards (findings, c, wrap, width = 80) {
  /** @type {string[]} */
  const lines = []
  findings.forEach((finding, i) => {
    const { evidence, location } = finding
    lines.push(`${c.bold(String(i + 1).padEnd(3))}${c.bold.red(finding.signature)}   confidence ${finding.confidence.toFixed(2)}`)
    const role = locationRole(finding)
    lines.push(...wrap(`${c.cyan(locationText(location))}${role === '' ? '' : `   (${role})`}`, '     ', '   '))
    const mapped = mappedLocationLines(location)
    if (mapped.snippet !== null) lines.push(...breakCode(mapped.snippet, '     ', width))
    if (mapped.generated !== null) lines.push(...wrap(c.dim(mapped.generated), '     ', '   '))
    const inside = insideText(location)
    if (inside !== null) lines.push(...wrap(inside, '     ', '   '))
    lines.push(...wrap(finding.title, '   ', '   '))
    lines.push(...wrap(renderFoldedPath(finding.path), '   ', '   ').map((line) => c.dim(line)))
    const per = evidence.perStep === 0 ? '' : `   (${formatCount(Math.round(evidence.perStep), { sign: true })} per step)`
    const note = evidenceNote(evidence)
    lines.push(...wrap(`${evidence.counts.map((n) => formatCount(n)).join(' → ')}${per}${note === '' ? '' : `   ${note}`}`, '               ', `   ${evidence.unit.padEnd(11)} `))
    lines.push(`   ${'retained'.padEnd(11)} ${evidence.retained.map((n) => formatBytes(n)).join(' → ')}`)
    for (const note of evidenceNotes(evidence)) lines.push(...wrap(note, '     ', '   - '))
    for (const held of finding.also ?? []) {
      lines.push(...wrap(`${heldText(held)}: ${c.bold.red(held.signature)} at ${c.cyan(locationText(held.location))}, ${held.title}`, '               ', `   ${'also'.padEnd(11)} `))
    }
    if (finding.allocatedAt) {
      const parts = allocatedAtParts(finding.allocatedAt)
      lines.push(...wrap(`${c.cyan(parts.site)}${parts.via === '' ? '' : `  ${parts.via}`}`, '               ', `   ${'allocated'.padEnd(11)} `))
      const others = parts.basis.length > 1 ? ` (and ${parts.basis.length - 1} more)` : ''
      lines.push(...wrap(`${parts.amount}; tied as ${parts.basis[0] ?? 'the only growing stack'}${others}`, '               ', '               '))
    }
    lines.push(...wrap(`${c.green('fix')}  ${finding.fix.summary}`, '        ', '   '))
    for (const line of finding.fix.snippet.split('\n')) if (line !== '') lines.push(...breakCode(line, '          ', width))
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
    const role = locationRole(finding)
    // The findings' text may hold names from the heap: each piece is escaped for where it goes.
    lines.push(`#### ${i + 1}. ${markdownCode(finding.signature)} at ${markdownCode(locationText(location))}${role === '' ? '' : ` (${markdownText(role)})`}`, '')
    const mapped = mappedLocationLines(location)
    if (mapped.snippet !== null) lines.push(...markdownFence(mapped.snippet), '')
    if (mapped.generated !== null) lines.push(`_${markdownText(mapped.generated)}_`, '')
    const inside = insideParts(location)
    if (inside !== null) lines.push(`inside ${markdownCode(inside.package)}: ${inside.function === '' ? '' : `${markdownText(inside.function)} at `}${markdownCode(inside.at)}`, '')
    lines.push(`${markdownText(finding.title)} Confidence ${finding.confidence.toFixed(2)}: ${markdownText(finding.reasons.join('; '))}.`, '')
    lines.push(`- path: ${markdownCode(renderFoldedPath(finding.path))}`)
    const note = evidenceNote(evidence)
    lines.push(`- ${markdownText(evidence.unit)}: ${evidence.counts.map((n) => formatCount(n)).join(' → ')}${note === '' ? '' : ` (${markdownText(note)})`}`)
    lines.push(`- retained: ${evidence.retained.map((n) => formatBytes(n)).join(' → ')}`)
    for (const note of evidenceNotes(evidence)) lines.push(`- ${markdownText(note)}`)
    for (const held of finding.also ?? []) lines.push(`- also: ${markdownText(heldText(held))}: ${markdownCode(held.signature)} at ${markdownCode(locationText(held.location))}, ${markdownText(held.title)}`)
    if (finding.allocatedAt) {
      const parts = allocatedAtParts(finding.allocatedAt)
      lines.push(`- allocated at: ${markdownCode(parts.site)}${parts.via === '' ? '' : ` ${markdownText(parts.via)}`}; ${markdownText(parts.amount)}; tied by: ${markdownText(parts.basis.join('; '))}`)
    }
    lines.push('')
    lines.push(`**Fix:** ${markdownText(finding.fix.summary)}`, '')
    if (finding.fix.snippet !== '') lines.push(...markdownFence(finding.fix.snippet.replace(/\n$/, ''), 'js'), '')
  })
  return lines
}

/**
 * A code line at `indent`, broken at spaces (continuations two columns deeper) only when it does
 * not fit: a long line of code is still better read whole than cut off.
 * @param {string} code
 * @param {string} indent
 * @param {number} width
 * @returns {string[]}
 */
function breakCode (code, indent, width) {
  const lines = []
  let rest = code
  let prefix = indent
  while (prefix.length + rest.length > width) {
    const cut = rest.lastIndexOf(' ', width - prefix.length)
    if (cut <= 0) break
    lines.push(prefix + rest.slice(0, cut))
    rest = rest.slice(cut + 1)
    prefix = indent + '  '
  }
  lines.push(prefix + rest)
  return lines
}

/**
 * The signature's own facts, one short phrase each (`evidence.notes`), in its order.
 * @param {Finding['evidence']} evidence
 * @returns {string[]}
 */
export function evidenceNotes (evidence) {
  return stringList(evidence.notes).filter((note) => note !== '')
}

/** @param {unknown} value */
function stringList (value) {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []
}

/** @param {unknown} value */
function numberOr (value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}
