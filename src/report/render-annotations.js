// GitHub Actions workflow commands: a finding with a source location becomes an error annotation
// on that line of the pull request's diff.
import { escapeStrings } from './escape/escape-text.js'
import { heldText, locationText } from './render-findings.js'
import { commandData as data, commandProperty as property } from './escape/escape-github.js'
import { insideText } from './render-location.js'
/** @import {DiffReport} from './report-model.js' */
/** @import {GateResult} from './gates.js' */

/**
 * One `::error file=…,line=…,col=…,title=…::message` line per finding that has a location in a
 * file of the project (not `node:` internals) and that no `allow` entry waved through, then one
 * `::error title=…::message` per violated gate that is not a finding. A finding no gate judges
 * (`--fail-on` names other signatures) is a `::warning`: the line is worth a look in the pull
 * request, but the build did not fail on it.
 * @param {DiffReport} report
 * @param {GateResult} gates
 * @returns {string} lines, each ending in a newline ('' when there is nothing to annotate)
 */
export function renderGithubAnnotations (report, gates) {
  // The annotation shows in the log and on the pull request: no terminal escapes either.
  report = escapeStrings(report)
  gates = escapeStrings(gates)
  const lines = []
  for (const check of gates.checks) {
    const finding = check.finding
    if (finding === undefined || check.allowed) continue
    const { location } = finding
    if (location === null || location.file.startsWith('node:')) continue
    const properties = `file=${property(location.file)},line=${location.line},col=${location.column},title=${property(`leakdiff: ${finding.signature}`)}`
    // The line is the program's; the package that made the growth is named in the message. The
    // findings the card holds are its evidence: named in its message, with their lines.
    const inside = insideText(location)
    const also = (finding.also ?? []).map((held) => ` Also ${heldText(held)}: ${held.signature} at ${locationText(held.location)}.`).join('')
    lines.push(`::${check.gated ? 'error' : 'warning'} ${properties}::${data(`${finding.title}${inside === null ? '' : ` Made ${inside}.`}${also} Fix: ${finding.fix.summary}`)}`)
  }
  for (const check of gates.violations) {
    if (check.gate !== 'finding') lines.push(`::error title=${property(`leakdiff: ${check.gate}`)}::${data(check.message)}`)
  }
  return lines.map((line) => line + '\n').join('')
}
