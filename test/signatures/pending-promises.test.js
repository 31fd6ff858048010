import test from 'ava'
import { isRising, markedLocation, perRoundOf, reportOf, roundCounts } from '../helpers/fixture-reports.js'

const ID = 'pending-promises'

test('a reaction per request on a promise that never settles: the promise, its reactions per snapshot and the handler', async (t) => {
  const report = await reportOf('signatures/pending-promises')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Promise')
  t.is(finding.path.at(-1)?.edge, 'shuttingDown')
  t.is(finding.path.at(-1)?.id, finding.owner.id)

  t.deepEqual(finding.location, markedLocation('signatures/pending-promises', '// leak: a reaction per request', '() =>'))

  const perRound = await perRoundOf('signatures/pending-promises')
  const { evidence } = finding
  t.is(evidence.unit, 'reactions')
  t.deepEqual(evidence.counts, roundCounts(perRound))
  t.is(evidence.perStep, perRound)
  t.is(evidence.ownerCount, 1)
  t.is(evidence.newReactions, 2 * perRound)
  t.true(isRising(evidence.retained))
  // Each reaction's handler keeps its response (and the socket) alive.
  t.true(/** @type {number} */ (evidence.bytesPerReaction) > 1000, `bytesPerReaction ${evidence.bytesPerReaction}`)
  t.true(finding.reasons.some((reason) => /still pending/.test(reason)))
  t.true(finding.confidence >= 0.85, String(finding.confidence))
  t.regex(finding.fix.snippet, /removeEventListener\('abort', onAbort\)/)
})

test('Promise.race against a promise that never settles: its handlers are built-ins, so the finding points at the program\'s use of the promise', async (t) => {
  const report = await reportOf('signatures/pending-race')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.path.at(-1)?.edge, 'shutdown')
  t.deepEqual(finding.location, markedLocation('signatures/pending-race', '// leak: race', 'shutdown', 'handleRequest'))
  t.is(finding.evidence.locationRole, 'uses it')
  t.true(finding.evidence.notes.some((note) => note.endsWith('the location is where the program uses shutdown')), finding.evidence.notes.join('\n'))
})

test('the fixed twin listens on an AbortSignal and removes its listener: no finding', async (t) => {
  const report = await reportOf('signatures/pending-promises-fixed')
  t.deepEqual(report.findings, [])
})

test('waiters nobody settles: the list, the pending promises per snapshot and the async function that awaits them', async (t) => {
  const report = await reportOf('signatures/pending-waiters')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Array')
  t.is(finding.path.at(-1)?.edge, 'waiters')
  t.is(finding.path.at(-1)?.id, finding.owner.id)

  // The handler of `await` is built in; its scope holds the suspended async function, which is located.
  t.deepEqual(finding.location, markedLocation('signatures/pending-waiters', '// awaits a config that never comes', '(req, res)', 'handleRequest'))

  const perRound = await perRoundOf('signatures/pending-waiters')
  const { evidence } = finding
  t.is(evidence.unit, 'promises')
  t.deepEqual(evidence.counts, roundCounts(perRound))
  t.is(evidence.perStep, perRound)
  t.is(evidence.newPromises, 2 * perRound)
  t.true(isRising(evidence.retained))
  t.true(finding.confidence >= 0.8, String(finding.confidence))
  t.regex(finding.fix.snippet, /waiters\.splice\(0\)/)
})

test('the fixed twin rejects its waiters when the load fails: no finding', async (t) => {
  const report = await reportOf('signatures/pending-waiters-fixed')
  t.deepEqual(report.findings, [])
})

// p-limit keeps the calls that wait for a slot in a linked list, each entry one step below the one
// before it in the dominator tree, thousands of steps below the queue: every pending promise is
// counted however deep, and the finding is at the program's call, not inside p-limit.
test('signatures/limited-calls: calls waiting in p-limit\'s queue behind stuck slots, every one counted, found at the program\'s call', async (t) => {
  const report = await reportOf('signatures/limited-calls')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.evidence.library, 'p-limit')
  const counts = /** @type {number[]} */ (finding.evidence.counts)
  t.true(isRising(counts), counts.join(' → '))
  const added = counts[counts.length - 1] - counts[0]
  t.true(added > 1000, `${added} new pending promises: deeper than any fixed climb`)
  t.is(finding.evidence.newPromises, added)
  t.true(/** @type {string[]} */ (finding.evidence.notes).some((note) => note.startsWith(`${added.toLocaleString('en-US')} new pending promises`)))
  t.like(finding.location, markedLocation('signatures/limited-calls', '// leak: limited', '() => { failed++ }'))
})

test('signatures/limited-calls fixed (a deadline on every lookup): no finding', async (t) => {
  const report = await reportOf('signatures/limited-calls', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})
