import test from 'ava'
import { diffSnapshots } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { markedPosition, ROOT } from '../helpers/fixture-source.js'

const ID = 'retained-sockets'
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

test('closed connections kept in a set: the set, its sockets per snapshot and the connection listener', async (t) => {
  const report = await reportOf('signatures/retained-sockets')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Set')
  t.is(finding.path.at(-1)?.edge, 'connections')
  t.is(finding.path.at(-1)?.id, finding.owner.id)

  // The heap does not record the line that adds a socket; it knows the listener that receives them.
  const expected = markedPosition('signatures/retained-sockets', '// receives every connection', '(socket)')
  t.deepEqual(finding.location, { ...expected, function: 'trackConnection' })

  const { evidence } = finding
  t.is(evidence.unit, 'sockets')
  t.deepEqual(evidence.counts, [WARMUP, WARMUP + PER_ROUND, WARMUP + 2 * PER_ROUND])
  t.is(evidence.perStep, PER_ROUND)
  t.is(evidence.ownerCount, 1)
  t.is(evidence.newSockets, 2 * PER_ROUND)
  t.is(evidence.closedSockets, 2 * PER_ROUND)
  t.true(evidence.retained[0] < evidence.retained[1] && evidence.retained[1] < evidence.retained[2])
  t.true(finding.confidence >= 0.85, String(finding.confidence))
  t.is(finding.fix.snippet, "connections.add(socket)\nsocket.once('close', () => connections.delete(socket))")
})

test('the fixed twin drops a socket when it closes: no finding', async (t) => {
  const report = await reportOf('signatures/retained-sockets-fixed')
  t.deepEqual(report.findings, [])
})
