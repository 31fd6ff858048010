// prototype-chain on a request-context namespace built as cls-hooked builds its own: each context
// made with Object.create(the active one), entered per request and never left; and the twin that
// leaves each context when its request is done.
import test from 'ava'
import { markedLocation, perRoundOf, reportOf, stepsOf } from '../helpers/fixture-reports.js'

const ID = 'prototype-chain'
const PROGRAM = 'signatures/context-chain'

test('contexts each made from the one before, the newest kept as the namespace\'s active one: the chain is counted from active in every snapshot', async (t) => {
  const report = await reportOf(PROGRAM)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['requests', 'active'])
  t.is(finding.evidence.link, '__proto__')
  t.regex(finding.title, /^\{user\} objects are chained by their prototypes, each made from the one before, and requests\.active keeps the newest, so it keeps them all: /)
  const perRound = await perRoundOf(PROGRAM)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.true(finding.evidence.bytesPerObject > 0)
  // The namespace is the program's own here: the request handler that makes a context the active
  // one, and the fix that puts the one before back.
  t.deepEqual(finding.location, markedLocation(PROGRAM, 'await runHttpRounds(outDir, (req, res) =>', '(req'))
  t.regex(finding.fix.summary, /Make each from a fixed base instead, or put the one before back/)
  t.regex(finding.fix.snippet, /finally \{ current = previous \}/)
  t.true(finding.confidence >= 0.8, String(finding.confidence))
})

test('each context left when its request is done: no finding', async (t) => {
  const report = await reportOf(PROGRAM, { args: ['fixed'] })
  t.deepEqual(report.findings, [])
  t.is(report.verdict, 'clean')
})
