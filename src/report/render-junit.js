// JUnit XML for CI systems that read test reports (GitLab, Jenkins, Azure, CircleCI): one test
// suite, one test case per gate check. A failed check carries its finding card as the failure text.
// The cases agree with the exit code: a finding fails unless `allow` covers it (then it is skipped,
// "allowed") or no gate judges it (skipped, "not gated": not in --fail-on, or a verdict that is not
// a leak); a finding never shows as a passing case.
import { Chalk } from 'chalk'
import { renderFindingCards } from './render-findings.js'
import { escapeStrings } from './escape/escape-text.js'
import { escapeXml as xml } from './escape/escape-xml.js'
/** @import {DiffReport} from './report-model.js' */
/** @import {GateResult} from './gates.js' */

const plain = new Chalk({ level: 0 })

/**
 * @param {DiffReport} report
 * @param {GateResult} gates  what evaluateGates made of the report
 * @param {{name?: string}} [options]  name: the test suite's name
 * @returns {string} an XML document
 */
export function renderJunitReport (report, gates, { name = 'leakdiff' } = {}) {
  // Control characters from heap names are shown as escapes rather than dropped (escape-text.js);
  // what XML cannot hold at all is dropped by xml().
  report = escapeStrings(report)
  gates = escapeStrings(gates)
  const failures = gates.violations.length
  const cases = gates.checks.map((check) => {
    const open = `  <testcase classname="${xml(`${name}.${check.gate}`)}" name="${xml(check.name)}">`
    if (check.ok) {
      const skip = check.allowed ? check.message : check.gate === 'finding' && !check.gated ? `not gated: ${check.message}` : null
      return skip === null ? `${open}</testcase>` : `${open}\n    <skipped message="${xml(skip)}"/>\n  </testcase>`
    }
    const body = check.finding
      ? renderFindingCards([check.finding], plain, (text, indent, first = '') => [first + text]).join('\n')
      : `${check.message}\n\n${report.reason}`
    return `${open}\n    <failure message="${xml(check.message)}" type="${xml(check.gate)}">${xml(body)}</failure>\n  </testcase>`
  })
  if (cases.length === 0) cases.push(`  <testcase classname="${xml(`${name}.verdict`)}" name="${xml(`verdict ${report.verdict}`)}"></testcase>`)
  const skipped = gates.checks.filter((check) => check.ok && (check.allowed || !check.gated)).length
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" tests="${cases.length}" failures="${failures}">`,
    `<testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <properties><property name="verdict" value="${xml(report.verdict)}"/><property name="growth" value="${gates.growth}"/></properties>`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    ''
  ].join('\n')
}
