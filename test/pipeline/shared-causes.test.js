// Findings that share a cause are one card: a finding whose new objects another finding's objects
// own is listed under that card (`also`), complete, with how it is held. Owning is read from the
// heap: the objects that hold a finding's objects by a property (a client's `heartbeat`, a
// subscription's `timer`); a callback that closes over an object does not own it.
import test from 'ava'
import { evaluateGates, renderDiffReport, renderGithubAnnotations, renderHtmlReport } from 'leakdiff'
import { foldSharedCauses } from '../../src/pipeline/shared-causes.js'
import { markedLocation, perRoundOf, reportOf, roundCounts } from '../helpers/fixture-reports.js'
import { ROOT } from '../helpers/fixture-source.js'

/** @typedef {import('../helpers/fixture-reports.js').Finding} Finding */

/**
 * The report's cards and every finding, the ones listed under a card too.
 * @param {import('../helpers/fixture-reports.js').DiffReport} report
 */
function allFindings (report) {
  return report.findings.flatMap((finding) => [finding, ...(finding.also ?? [])])
}

test('a client per call never closed: its heartbeat timers are listed on the card of its sockets, not a card of their own', async (t) => {
  const report = await reportOf('signatures/per-call-clients')
  t.false(report.findings.some((f) => f.signature === 'forgotten-timer'), report.findings.map((f) => f.title).join('\n'))
  const card = report.findings.find((f) => f.signature === 'retained-sockets' && f.evidence.holderClass === 'TenantClient')
  if (!card) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.is(card.also?.length, 1)
  const [held] = card.also ?? []
  const perRound = await perRoundOf('signatures/per-call-clients')
  t.is(held.signature, 'forgotten-timer')
  // Every new timer is a client's `heartbeat`.
  t.deepEqual(held.heldBy, { count: 2 * perRound, share: 1, holderClass: 'TenantClient', relation: 'held' })
  // The finding is whole where it is listed: its own location, counts and fix.
  t.deepEqual(held.location, markedLocation('signatures/per-call-clients', '// leak: heartbeat per client', '() =>'))
  t.deepEqual(held.evidence.counts, roundCounts(perRound))
  t.regex(held.fix.snippet, /clearInterval/)
  // The card's own fix closes the client, which ends both.
  t.regex(card.fix.summary, /close each one/)
  // The other cards of the program hold nothing of each other's.
  t.deepEqual(report.findings.map((f) => f.also?.length ?? 0).sort(), [0, 0, 1])
  t.regex(report.reason, /^3 findings: /)
})

test('the card says what it holds in every format, and a gate on the held signature still fails on it', async (t) => {
  const report = await reportOf('signatures/per-call-clients')
  const perRound = await perRoundOf('signatures/per-call-clients')
  const line = `+${2 * perRound} timers owned by these TenantClient objects`
  const text = renderDiffReport(report, { format: 'text', color: false, width: 200 })
  t.regex(text, new RegExp(`\\n {3}also {8}\\${line}: forgotten-timer at fixtures/programs/signatures/per-call-clients\\.js:\\d+:\\d+, Intervals started`))
  t.true(renderDiffReport(report, { format: 'markdown' }).includes(`- also: ${line}: \`forgotten-timer\` at`))
  t.true(renderHtmlReport(report, { cwd: ROOT }).includes(`"held":"${line}"`))
  const gates = evaluateGates(report, { failOn: ['forgotten-timer'] })
  t.false(gates.ok)
  t.deepEqual(gates.violations.map((check) => check.finding?.signature), ['retained-sockets'])
  t.regex(renderGithubAnnotations(report, gates), new RegExp(`Also \\${line}: forgotten-timer at fixtures/programs/signatures/per-call-clients\\.js:\\d+:\\d+\\. Fix: `))
})

test('timers that a Map\'s entries own go on the Map\'s card; an interval that only closes over a client it leaks stays a card of its own', async (t) => {
  const report = await reportOf('signatures/owned-timers')
  const perRound = await perRoundOf('signatures/owned-timers')
  t.deepEqual(report.findings.map((f) => f.signature), ['unbounded-collection', 'forgotten-timer', 'retained-sockets'])
  const [map, interval, sockets] = report.findings
  t.is(map.path.at(-1)?.edge, 'subscriptions')
  t.is(map.also?.length, 1)
  const [held] = map.also ?? []
  t.is(held.signature, 'forgotten-timer')
  t.deepEqual(held.heldBy, { count: 2 * perRound, share: 1, holderClass: 'Subscription', relation: 'held' })
  t.deepEqual(held.location, markedLocation('signatures/owned-timers', '// each subscription\'s timer runs this', '(symbol)', 'poll'))

  // Two mistakes beside each other: the interval's callback keeps the client, but nothing of the
  // client's holds the interval, and closing the client would leave it running.
  t.is(interval.location?.line, markedLocation('signatures/owned-timers', '// leak: interval never cleared', '() =>').line)
  t.is(sockets.evidence.holderClass, 'StatsClient')
  t.is(interval.also, undefined)
  t.is(sockets.also, undefined)
  t.deepEqual(allFindings(report).map((f) => f.evidence.counts), allFindings(report).map(() => roundCounts(perRound)))
})

test('the owned timers\' fixed twin stops and deletes each subscription, clears the interval and closes the client: no finding', async (t) => {
  const report = await reportOf('signatures/owned-timers', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

/**
 * @param {string} signature
 * @returns {Finding}
 */
function finding (signature) {
  return /** @type {Finding} */ ({ signature, title: signature, confidence: 0.9, reasons: [], owner: { id: 1, name: 'X', type: 'object' }, path: [], evidence: { unit: 'things', counts: [1, 2, 3], retained: [1, 2, 3], perStep: 1, ownerCount: 1, notes: [] }, location: null, fix: { summary: '', snippet: '' } })
}

test('folding: a chain goes under the finding that holds it all, in rank order, and a ring under its highest ranked finding', (t) => {
  const held = (/** @type {number} */ cause) => ({ cause, count: 10, share: 1, holderClass: 'Holder', relation: /** @type {const} */ ('held') })
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(finding)
  // c is held by b, b by a; d stands alone.
  const chain = foldSharedCauses([a, b, c, d], [null, held(0), held(1), null])
  t.deepEqual(chain.map((f) => f.signature), ['a', 'd'])
  t.deepEqual(chain[0].also?.map((f) => [f.signature, f.heldBy.holderClass]), [['b', 'Holder'], ['c', 'Holder']])
  t.is(chain[1].also, undefined)
  // Nothing to fold: the same array.
  const alone = [a, b]
  t.is(foldSharedCauses(alone, [null, null]), alone)
  // Each holding the next: the first stands for the ring.
  const ring = foldSharedCauses([a, b, c], [held(2), held(0), held(1)])
  t.deepEqual(ring.map((f) => [f.signature, f.also?.map((x) => x.signature)]), [['a', ['b', 'c']]])
  // A finding held by a ring goes under the ring's first.
  const into = foldSharedCauses([a, b, c, d], [held(1), held(2), held(1), null])
  t.deepEqual(into.map((f) => [f.signature, f.also?.map((x) => x.signature)]), [['b', ['a', 'c']], ['d', undefined]])
})

test('a client made per call inside a package (undici): the idle timers its sockets\' parsers hold are on the sockets\' card', async (t) => {
  const report = await reportOf('alloc/package-leaks')
  const perRound = await perRoundOf('alloc/package-leaks')
  t.false(report.findings.some((f) => f.signature === 'forgotten-timer'), report.findings.map((f) => f.title).join('\n'))
  const card = report.findings.find((f) => f.signature === 'retained-sockets')
  if (!card) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.is(card.location?.inside?.package, 'undici')
  const [held, ...more] = card.also ?? []
  t.deepEqual(more, [])
  t.is(held?.signature, 'forgotten-timer')
  // Each socket's parser holds its timer (`socket[kParser].timeout`); the parser is the socket's alone.
  t.deepEqual(held?.heldBy, { count: 2 * perRound, share: 1, holderClass: 'Socket', relation: 'held' })
  t.is(held?.location?.file, 'node_modules/undici/lib/dispatcher/client-h1.js')
})
