import test from 'ava'
import { diffSnapshots } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { markedPosition, ROOT } from '../helpers/fixture-source.js'

const ID = 'growing-array'
/** @type {Map<string, ReturnType<typeof diffSnapshots>>} */
const reports = new Map()

/**
 * One report per program, shared by the tests of this file.
 * @param {string} program
 */
function reportOf (program) {
  let report = reports.get(program)
  if (!report) {
    report = captureFixture(program).then(({ files }) => diffSnapshots(files, { top: 0, cwd: ROOT }))
    reports.set(program, report)
  }
  return report
}

test('a request log that is never trimmed: the array, its length per snapshot and the code that holds it', async (t) => {
  const report = await reportOf('signatures/request-log')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Array')
  t.is(finding.path.at(-1)?.edge, 'requestLog')
  t.is(finding.path.at(-1)?.id, finding.owner.id)

  const expected = markedPosition('signatures/request-log', '// leak: log', '(req, res) =>')
  t.deepEqual(finding.location, { ...expected, function: '' })

  const { perRound } = (await captureFixture('signatures/request-log')).report
  const { counts, retained, unit } = finding.evidence
  t.is(unit, 'elements')
  t.deepEqual([counts[1] - counts[0], counts[2] - counts[1]], [perRound, perRound])
  t.true(retained[0] < retained[1] && retained[1] < retained[2])
  t.deepEqual(finding.evidence.elementClasses, ['{method, url, headers}'])
  t.true(finding.confidence >= 0.9, String(finding.confidence))
  t.regex(finding.fix.snippet, /if \(requestLog\.length > \d+\) requestLog\.shift\(\)/)
})

test('the fixed twin keeps the last records only: no finding', async (t) => {
  const report = await reportOf('signatures/request-log-fixed')
  t.deepEqual(report.findings, [])
})

test('a heap that churns hard but keeps nothing gives no finding', async (t) => {
  const report = await reportOf('diff/churn')
  t.is(report.verdict, 'clean', report.reason)
  t.deepEqual(report.findings, [])
})
