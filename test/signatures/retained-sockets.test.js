import test from 'ava'
import { isRising, markedLocation, perRoundOf, reportOf, roundCounts } from '../helpers/fixture-reports.js'

const ID = 'retained-sockets'

test('closed connections kept in a set: the set, its sockets per snapshot and the connection listener', async (t) => {
  const report = await reportOf('signatures/retained-sockets')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Set')
  t.is(finding.path.at(-1)?.edge, 'connections')
  t.is(finding.path.at(-1)?.id, finding.owner.id)

  // The heap does not record the line that adds a socket; it knows the listener that receives them.
  t.deepEqual(finding.location, markedLocation('signatures/retained-sockets', '// receives every connection', '(socket)', 'trackConnection'))

  const perRound = await perRoundOf('signatures/retained-sockets')
  const { evidence } = finding
  t.is(evidence.unit, 'sockets')
  t.deepEqual(evidence.counts, roundCounts(perRound))
  t.is(evidence.perStep, perRound)
  t.is(evidence.ownerCount, 1)
  t.is(evidence.newSockets, 2 * perRound)
  t.is(evidence.closedSockets, 2 * perRound)
  t.true(isRising(evidence.retained))
  t.true(finding.confidence >= 0.85, String(finding.confidence))
  t.is(finding.fix.snippet, "connections.add(socket)\nsocket.once('close', () => connections.delete(socket))")
})

test('the fixed twin drops a socket when it closes: no finding', async (t) => {
  const report = await reportOf('signatures/retained-sockets-fixed')
  t.deepEqual(report.findings, [])
})

test('responses never read through a shared keep-alive agent: one finding on the agent, with the unread responses and a resume() fix', async (t) => {
  const report = await reportOf('signatures/per-call-clients')
  const pooled = report.findings.filter((f) => f.signature === ID && f.owner.name === 'Agent')
  t.is(pooled.length, 1, JSON.stringify(report.findings.map((f) => f.title)))
  const [finding] = pooled
  t.regex(finding.title, /^Responses are never read, so their connections never go back to statusAgent \(Agent\)/)
  t.is(finding.path.at(-1)?.edge, 'statusAgent')
  const perRound = await perRoundOf('signatures/per-call-clients')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  t.is(finding.evidence.newSockets, 2 * perRound)
  t.is(finding.evidence.unreadResponses, 2 * perRound)
  t.regex(finding.fix.snippet, /\{ agent: statusAgent \}, \(res\) => \{\n {2}res\.resume\(\)/)
  // Node's per-call request and response objects point at the sockets too; they are not the owner.
  t.false(report.findings.some((f) => /ClientRequest|IncomingMessage/.test(f.title)))
})

test('the other ends of connections left open, accepted by a server of the same process that drops them on close, are not a finding of their own', async (t) => {
  const report = await reportOf('signatures/per-call-clients')
  t.false(report.findings.some((f) => f.path.some((step) => step.edge === 'accepted')), JSON.stringify(report.findings.map((f) => f.title)))
  t.is(report.findings.filter((f) => f.signature === ID).length, 2)
})
