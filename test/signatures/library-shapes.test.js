import test from 'ava'
import { markedLocation, perRoundOf, reportOf } from '../helpers/fixture-reports.js'

// Shapes that popular libraries give their registries (mitt's Map of handler arrays, rxjs'
// Subscriber records, a class indexing records in two private Maps), rebuilt with builtins.

test('a Map of handler arrays (mitt): a listener finding on bus.all with the event, the handler line and the bus\'s own off()', async (t) => {
  const report = await reportOf('signatures/event-registry')
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  t.is(finding.evidence.listKind, 'event map')
  t.is(finding.evidence.event, 'reload')
  t.deepEqual(finding.path.slice(-4, -2).map((step) => step.edge), ['bus', 'all'])
  t.regex(finding.title, /'reload' listener is added to bus\.all \(Map\)/)
  const perRound = await perRoundOf('signatures/event-registry')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  t.deepEqual(finding.location, markedLocation('signatures/event-registry', '// leak: handler', '() =>', 'onReload'))
  t.regex(finding.fix.snippet, /bus\.off\('reload', onEvent\)/)
})

test('the event registry\'s fixed twin takes its handler out on close: no finding', async (t) => {
  const report = await reportOf('signatures/event-registry', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

test('Subscriber records under observers (rxjs): the callback three steps down is the listener, and the fix calls the record\'s unsubscribe()', async (t) => {
  const report = await reportOf('signatures/subscriber-records')
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  t.is(finding.evidence.listKind, 'observer list')
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['config$', 'observers'])
  const perRound = await perRoundOf('signatures/subscriber-records')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  // The program's arrow, not the Subscriber class or the Subject's methods.
  t.deepEqual(finding.location, markedLocation('signatures/subscriber-records', '// leak: subscriber', '(value) =>'))
  t.regex(finding.fix.snippet, /\.unsubscribe\(\)/)
})

test('the subscriber fixed twin unsubscribes on close: no finding', async (t) => {
  const report = await reportOf('signatures/subscriber-records', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

test('records kept in two private Maps of one object: the growing Map under the owner is named, with its class', async (t) => {
  const report = await reportOf('signatures/twin-index')
  t.deepEqual(report.findings.map((f) => f.signature), ['unbounded-collection'])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Map')
  t.is(finding.path.at(-2)?.node, 'Repository')
  t.true(['#byId', '#byUrl'].includes(finding.path.at(-1)?.edge ?? ''), finding.path.at(-1)?.edge)
  const perRound = await perRoundOf('signatures/twin-index')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  t.is(finding.location?.function, 'Repository')
  t.regex(finding.fix.snippet, /^#by(Id|Url) = new LRUCache/m)
})
