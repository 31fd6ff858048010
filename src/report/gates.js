// CI gates over a diff report: which findings and how much growth fail a build. Pure: a report and
// the gates in, checks out; the CLI and assertNoLeak decide what a failed check does.
import { InvalidArgumentError, describeValue } from '../errors.js'
import { formatBytes } from './format.js'
import { locationText } from './render-findings.js'
import { renderFoldedPath, renderPath } from './render-path.js'
/** @import {DiffReport} from './report-model.js' */
/** @import {Finding} from './model/findings.js' */
/** @import {GrowthRow} from './model/growth-rows.js' */
/** @import {PathStep} from './model/path-steps.js' */

/**
 * What fails. With no gate at all nothing fails; the CLI passes `{verdict: true}` then, which is
 * the diff's own judgement (exit 1 on verdict `leak`).
 * @typedef {object} Gates
 * @property {'any' | string[]} [failOn]  findings of these signature ids (or of any) fail; a finding
 *   fails on the ids of the findings it holds (`also`) as well
 * @property {number} [maxGrowth]  bytes: the report's growth (see measureGrowth) may not pass this
 * @property {string[]} [allow]    signature ids, or substrings of an owner's class name or of its
 *   retainer path as the report prints it (`(GC roots) → module src/cache.js → cache (Map)`, see
 *   renderFoldedPath) or in DevTools' notation (`(root) → global .cache → Map`, renderPath), that no gate counts
 * @property {boolean} [verdict]   the diff's verdict `leak` fails; without `failOn`, each finding
 *   not allowed fails with it, so that every failed check names what failed
 */

/**
 * One check a gate made: one per finding, one per gate given. `ok: false` is a violation.
 * @typedef {object} GateCheck
 * @property {string} name      `finding <signature> at <file:line:col>`, `max-growth`, `verdict`
 * @property {'finding' | 'max-growth' | 'verdict'} gate
 * @property {boolean} ok
 * @property {boolean} allowed  the finding or growth was waved through by `allow`
 * @property {boolean} gated    false for a finding that no gate judges (not in `failOn`, or a
 *   verdict that is not `leak`): reported, neither passed nor failed
 * @property {string} message   one line: what was found against what was allowed
 * @property {Finding} [finding]
 */

/**
 * @typedef {object} GateResult
 * @property {boolean} ok
 * @property {number} growth        bytes, as measureGrowth counts them (allowed owners left out)
 * @property {GateCheck[]} checks
 * @property {GateCheck[]} violations
 */

/** The gates of `leakdiff soak` and assertNoLeak: any finding, and any leaking owner's growth. */
export const DEFAULT_GATES = Object.freeze({ failOn: /** @type {'any'} */ ('any'), maxGrowth: 0 })

/**
 * The gates in force when a user gives some: each one given sets its own gate, and the others keep
 * their defaults, so that gates only add up. `maxGrowth` alone leaves the findings judged as before
 * (a 1 MB leak under a 5 MB limit still fails on its finding); `failOn` chooses the findings that
 * fail, in place of the verdict; `allow` adds to the defaults' list.
 * @param {Pick<Gates, 'failOn' | 'maxGrowth' | 'allow'>} given
 * @param {Gates} defaults  what fails when nothing is given: `{verdict: true}` for a diff,
 *   DEFAULT_GATES for a soak
 * @returns {Gates}
 */
export function gatesFor ({ failOn, maxGrowth, allow = [] }, defaults) {
  /** @type {Gates} */
  const gates = { ...defaults, allow: [...(defaults.allow ?? []), ...allow] }
  if (failOn !== undefined) gates.failOn = failOn
  if (failOn !== undefined && gates.verdict) gates.verdict = false
  if (maxGrowth !== undefined) gates.maxGrowth = maxGrowth
  return gates
}

/**
 * The growth that `maxGrowth` limits: the retained growth (retained size in the last snapshot less
 * in the first, never below 0) summed over the growth rows that the diff judged to be leaking,
 * that is owners whose new objects passed the thresholds (`minBytes`, `minObjects`) and, with three
 * snapshots, kept growing in the last step. One-time growth and engine bookkeeping do not count,
 * and neither does the total heap delta, which moves with code caches and GC timing. The report's
 * rows are cut to `top`, leaking rows first, so a report made with `top: 0` counts every row.
 * @param {GrowthRow[]} growth
 * @returns {number} bytes
 */
export function measureGrowth (growth) {
  let total = 0
  for (const row of growth) if (row.leak) total += Math.max(0, row.retainedAfter - row.retainedBefore)
  return total
}

/**
 * Applies gates to a diff report.
 * @param {DiffReport} report
 * @param {Gates} gates
 * @returns {GateResult}
 */
export function evaluateGates (report, { failOn, maxGrowth, allow = [], verdict = false }) {
  if (failOn !== undefined && failOn !== 'any' && !(Array.isArray(failOn) && failOn.every((id) => typeof id === 'string' && id !== ''))) {
    throw new InvalidArgumentError(`Expected \`failOn\` to be 'any' or an array of signature ids, got ${describeValue(failOn)}`)
  }
  if (maxGrowth !== undefined && !(typeof maxGrowth === 'number' && maxGrowth >= 0)) {
    throw new InvalidArgumentError(`Expected \`maxGrowth\` to be a number of bytes >= 0, got ${describeValue(maxGrowth)}`)
  }
  if (!Array.isArray(allow) || !allow.every((entry) => typeof entry === 'string' && entry !== '')) {
    throw new InvalidArgumentError(`Expected \`allow\` to be an array of signature ids or path substrings, got ${describeValue(allow)}`)
  }
  /** @type {GateCheck[]} */
  const checks = []
  const allowedOwners = new Set()
  const findingsJudged = failOn === undefined && verdict && report.verdict === 'leak'
  let unallowedFindings = 0
  for (const finding of report.findings) {
    const allowed = allows(allow, finding.signature, finding.owner.name, finding.path)
    if (allowed) allowedOwners.add(finding.owner.id)
    else unallowedFindings++
    // A card stands for the findings it holds too (`also`): failing on their signature fails on it.
    const signatures = [finding.signature, ...(finding.also ?? []).map((held) => held.signature)]
    const gated = failOn === 'any' || (Array.isArray(failOn) && signatures.some((id) => failOn.includes(id))) || findingsJudged
    const where = locationText(finding.location)
    checks.push({
      name: `finding ${finding.signature} at ${where}`,
      gate: 'finding',
      ok: allowed || !gated,
      allowed,
      gated,
      message: `${finding.signature} at ${where}: ${finding.title}${allowed ? ' (allowed)' : ''}`,
      finding
    })
  }
  const rows = report.growth.filter((row) => !allowedOwners.has(row.owner.id) && !allows(allow, undefined, row.owner.name, row.path, row.pathText))
  const growth = measureGrowth(rows)
  if (maxGrowth !== undefined) {
    const top = rows.find((row) => row.leak)
    const held = top ? ` (largest: ${top.pathText})` : ''
    checks.push({
      name: 'max-growth',
      gate: 'max-growth',
      ok: growth <= maxGrowth,
      allowed: false,
      gated: true,
      message: `retained growth of leaking owners ${formatBytes(growth)} ${growth <= maxGrowth ? 'within' : 'passes'} max-growth ${formatBytes(maxGrowth)}${held}`
    })
  }
  if (verdict) {
    // A leak verdict rests on leaking rows and on findings; when `allow` covers all of them, it passes.
    const leaking = rows.some((row) => row.leak) || unallowedFindings > 0
    checks.push({
      name: 'verdict',
      gate: 'verdict',
      ok: report.verdict !== 'leak' || !leaking,
      allowed: report.verdict === 'leak' && !leaking,
      gated: true,
      message: `verdict ${report.verdict}: ${report.reason}`
    })
  }
  const violations = checks.filter((check) => !check.ok)
  return { ok: violations.length === 0, growth, checks, violations }
}

/**
 * The one-line reason a gate result failed ('' when it did not): the first failed check, then how
 * many more findings failed and which other gates did (not the verdict a failed finding stands for).
 * @param {GateResult} result
 * @returns {string}
 */
export function summarizeViolations ({ violations }) {
  if (violations.length === 0) return ''
  const [first] = violations
  const findings = violations.filter((check) => check.gate === 'finding').length
  // A leak verdict rests on the findings that failed: it is the same leak, not one more.
  const others = violations.filter((check) => check !== first && check.gate !== 'finding' && !(check.gate === 'verdict' && findings > 0))
  const moreFindings = findings - (first.gate === 'finding' ? 1 : 0)
  const more = [
    ...(moreFindings > 0 ? [`and ${moreFindings} more finding${moreFindings === 1 ? '' : 's'}`] : []),
    ...(others.length > 0 ? [`${others.map((check) => check.gate).join(' and ')} failed too`] : [])
  ]
  return `${first.gate === 'finding' ? 'leak found: ' : ''}${first.message}${more.length > 0 ? ` (${more.join('; ')})` : ''}`
}

/**
 * What a pass rests on, when it rests on more than there being nothing to find: findings `allow`
 * waved through, findings `failOn` does not name, a leak verdict no gate judged, growth under
 * `maxGrowth`. One line; '' when the gates failed or nothing was let through.
 * @param {DiffReport} report
 * @param {GateResult} result
 * @param {Gates} gates  those `result` was evaluated with
 * @returns {string}
 */
export function summarizePass (report, result, gates) {
  if (!result.ok) return ''
  const findings = result.checks.filter((check) => check.gate === 'finding')
  const allowed = findings.filter((check) => check.allowed)
  const ungated = findings.filter((check) => !check.allowed && !check.gated)
  const parts = []
  if (allowed.length > 0) parts.push(`${countText(allowed.length, 'finding')} allowed (${signaturesOf(allowed)})`)
  if (allowed.length === 0 && result.checks.some((check) => check.gate === 'verdict' && check.allowed)) parts.push('the leaking owners allowed')
  if (ungated.length > 0 && Array.isArray(gates.failOn)) parts.push(`${countText(ungated.length, 'finding')} not in fail-on (${signaturesOf(ungated)})`)
  const judged = gates.verdict || gates.failOn !== undefined
  if (report.verdict === 'leak' && !judged && parts.length === 0) parts.push('no gate judges the findings')
  if (report.verdict === 'leak' && !gates.verdict && Array.isArray(gates.failOn) && findings.length === 0) parts.push('fail-on judges findings only, and the leak has none')
  if (gates.maxGrowth !== undefined && result.growth > 0) parts.push(`retained growth of leaking owners ${formatBytes(result.growth)} within max-growth ${formatBytes(gates.maxGrowth)}`)
  if (parts.length === 0) return ''
  return `passed${report.verdict === 'leak' ? ' on a leak verdict' : ''}: ${parts.join('; ')}`
}

/**
 * @param {number} count
 * @param {string} noun
 */
function countText (count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/**
 * `growing-array, listener-accumulation`: the signatures of these finding checks, once each.
 * @param {GateCheck[]} checks
 */
function signaturesOf (checks) {
  return [...new Set(checks.map((check) => check.finding?.signature))].join(', ')
}

/**
 * Whether an `allow` entry names the signature, or is part of the owner's class name or of its path
 * as the report prints it or in DevTools' notation.
 * @param {string[]} allow
 * @param {string | undefined} signature
 * @param {string} ownerName
 * @param {PathStep[]} path
 * @param {string} [pathText]  the path as the report prints it, when the caller has it
 */
function allows (allow, signature, ownerName, path, pathText) {
  if (allow.length === 0) return false
  if (allow.some((entry) => entry === signature || ownerName.includes(entry))) return true
  const readable = pathText ?? renderFoldedPath(path)
  const devtools = renderPath(path)
  return allow.some((entry) => readable.includes(entry) || devtools.includes(entry))
}
