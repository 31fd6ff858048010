import test from 'ava'
import { diffSnapshots } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { markedPosition, ROOT } from '../helpers/fixture-source.js'

const ID = 'closure-retention'
const WARMUP = 50
const PER_ROUND = 300

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

test('callbacks capturing req and res in a module-level list: claimed as closure retention, not as a growing array', async (t) => {
  const report = await reportOf('signatures/closure-retention')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Array')
  t.is(finding.path.at(-1)?.edge, 'auditLines')
  t.is(finding.path.at(-1)?.id, finding.owner.id)
  t.is(finding.owner.id, report.growth[0].owner.id)

  const expected = markedPosition('signatures/closure-retention', '// leak: captures req and res', '() =>')
  t.deepEqual(finding.location, { ...expected, function: '' })

  const { evidence } = finding
  t.is(evidence.unit, 'closures')
  t.deepEqual(evidence.counts, [WARMUP, WARMUP + PER_ROUND, WARMUP + 2 * PER_ROUND])
  t.is(evidence.perStep, PER_ROUND)
  t.is(evidence.ownerCount, 1)
  t.true(evidence.retained[0] < evidence.retained[1] && evidence.retained[1] < evidence.retained[2])
  const variables = /** @type {Array<{name: string, bytes: number}>} */ (evidence.capturedVariables)
  t.deepEqual(variables.map((v) => v.name).sort(), ['req', 'res'])
  // A request/response pair is kilobytes; each closure keeps one.
  t.true(/** @type {number} */ (evidence.bytesPerClosure) > 1000, `bytesPerClosure ${evidence.bytesPerClosure}`)
  t.true(/** @type {number} */ (evidence.rowShare) > 0.9)
  t.true(finding.confidence >= 0.85, String(finding.confidence))
  t.regex(finding.title, /capture (res, req|req, res) and are kept by auditLines \(Array\)/)
})

test('the fixed twin captures only a number: no finding', async (t) => {
  const report = await reportOf('signatures/closure-retention-fixed')
  t.deepEqual(report.findings, [])
})

test('one long-lived closure whose scope variable keeps growing: the scope, the variable and the function', async (t) => {
  const report = await reportOf('signatures/closure-scope')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'system / Context')
  t.is(finding.path.at(-1)?.id, finding.owner.id)
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['record', 'context'])

  const expected = markedPosition('signatures/closure-scope', '// leak: history grows', '(/**')
  t.deepEqual(finding.location, { ...expected, function: 'record' })

  const { evidence } = finding
  t.is(evidence.unit, 'objects')
  const steps = [evidence.counts[1] - evidence.counts[0], evidence.counts[2] - evidence.counts[1]]
  // A fixed number of objects per request (the entry, its headers copy and arrays), about the same
  // each round (the engine may add a few objects of its own to the subtree).
  t.true(steps[0] >= 3 * PER_ROUND, `steps ${steps}`)
  t.true(Math.abs(steps[0] - steps[1]) <= steps[0] * 0.02, `steps ${steps}`)
  t.deepEqual(/** @type {Array<{name: string}>} */ (evidence.capturedVariables).map((v) => v.name), ['history'])
  t.true(evidence.retained[0] < evidence.retained[1] && evidence.retained[1] < evidence.retained[2])
  t.true(finding.confidence >= 0.75, String(finding.confidence))
})

test('the fixed twin of the growing scope keeps a bounded window: no finding', async (t) => {
  const report = await reportOf('signatures/closure-scope-fixed')
  t.deepEqual(report.findings, [])
})
