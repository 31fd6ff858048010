import test from 'ava'
import { markedLocation, perRoundOf, reportOf } from '../helpers/fixture-reports.js'

// Shapes that popular libraries give their registries (mitt's Map of handler arrays, nanoevents',
// emittery's and pubsub-js' registries, rxjs' Subscriber records, a class indexing records in two
// private Maps), rebuilt with builtins, and rxjs itself.

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
  // The line in the class's method that adds to that Map; the class stays in the evidence.
  const byId = finding.path.at(-1)?.edge === '#byId'
  t.deepEqual(finding.location, markedLocation('signatures/twin-index', byId ? '// adds: index by id' : '// leak: index', byId ? 'this.#byId.set(' : 'this.#byUrl.set(', 'lookup'))
  t.is(finding.evidence.locationRole, 'adds to it')
  t.is(/** @type {{function?: string} | null} */ (finding.evidence.holderLocation)?.function, 'Repository')
  t.regex(finding.fix.snippet, /^#by(Id|Url) = new LRUCache/m)
})

// Client libraries' shapes (a client per call left open, a task queue behind work that never
// finishes), rebuilt with builtins in one program: one capture for the leaky run, one for the fixed.

test('a client per call that is never closed: its open sockets are counted by the class that holds them, with a close() fix', async (t) => {
  const report = await reportOf('signatures/per-call-clients')
  const finding = report.findings.find((f) => f.signature === 'retained-sockets' && f.evidence.holderClass !== undefined)
  if (!finding) return t.fail(JSON.stringify(report.findings.map((f) => f.title)))
  // Open sockets are held by their native handles (GC roots): no growth row owns them.
  t.is(finding.owner.name, 'TenantClient')
  t.is(finding.evidence.holderClass, 'TenantClient')
  const perRound = await perRoundOf('signatures/per-call-clients')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  t.is(finding.evidence.newSockets, 2 * perRound)
  t.regex(finding.title, /^Outgoing connections are left open: .* held by TenantClient objects/)
  t.deepEqual(finding.location, markedLocation('signatures/per-call-clients', '// opens a connection per client', '(tenant)', 'TenantClient'))
  // The variable is the last name on the path to the newest client: a request still in flight at
  // the snapshot holds it as `client`.
  t.regex(finding.fix.snippet, /\b(tenantClient|client)\.close\(\)/)
  // Both ends' idle timeouts put the open sockets in a timer list (on Node 24 the list
  // dominates the accepted ones): open connections, not sockets kept in a collection.
  // The upstream's own set of accepted connections holds their other ends: no finding of its own.
  t.deepEqual(report.findings.filter((f) => f.signature === 'retained-sockets').map((f) => f.owner.name).sort(), ['Agent', 'TenantClient'])
})

test('the client\'s heartbeat interval: an anonymous callback is named as such, not after V8\'s shared function info', async (t) => {
  const report = await reportOf('signatures/per-call-clients')
  // The clients hold their intervals: the finding is listed on the clients' card (shared-causes.test.js).
  const all = report.findings.flatMap((f) => [f, ...(f.also ?? [])])
  const finding = all.find((f) => f.signature === 'forgotten-timer')
  if (!finding) return t.fail(JSON.stringify(report.findings.map((f) => f.title)))
  t.regex(finding.title, /^Intervals started with an anonymous callback are never cleared/)
  t.deepEqual(finding.location, markedLocation('signatures/per-call-clients', '// leak: heartbeat per client', '() =>'))
  t.notRegex(finding.fix.snippet, /shared function info/)
  // The sockets' own idle timers are Node's, run for the sockets: not a forgotten timer.
  t.is(all.filter((f) => f.signature === 'forgotten-timer').length, 1)
})

test('a task queue behind work that never finishes: the queued closures hold the callers\' promises, and the awaiting function is named', async (t) => {
  const report = await reportOf('signatures/per-call-clients')
  const finding = report.findings.find((f) => f.signature === 'pending-promises')
  if (!finding) return t.fail(JSON.stringify(report.findings.map((f) => f.title)))
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['audits', 'queue'])
  const perRound = await perRoundOf('signatures/per-call-clients')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  t.deepEqual(finding.location, markedLocation('signatures/per-call-clients', '// awaits its audit write', '(req, res)', 'handleRequest'))
  t.false(report.findings.some((f) => f.signature === 'closure-retention'))
})

test('the per-call clients\' fixed twin closes each client and gives every task a deadline: no finding', async (t) => {
  const report = await reportOf('signatures/per-call-clients', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

test('an emitter reached through a getter on the global (Node 24\'s process): named after the getter, not the variable in its scope', async (t) => {
  const report = await reportOf('signatures/accessor-emitter')
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  t.deepEqual(finding.path.slice(-3).map((step) => step.edge), ['_hub', '_events', 'message'])
  t.regex(finding.title, /'message' listener is added to hub \(EventEmitter\)/)
  t.regex(finding.fix.snippet, /^hub\.on\('message', onEvent\)$/m)
  t.regex(finding.fix.snippet, /^res\.once\('close', \(\) => hub\.off\('message', onEvent\)\)$/m, 'the response the listener closes over ends its work')
  t.deepEqual(finding.location, markedLocation('signatures/accessor-emitter', '// leak: listener on the hub', '() =>', 'onMessage'))
})

test('a listener per connection: the fix removes it when the connection it closes over ends, on the event the program already handles', async (t) => {
  const report = await reportOf('signatures/connection-listeners')
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  t.regex(finding.fix.snippet, /^bus\.on\('news', onEvent\)$/m)
  t.regex(finding.fix.snippet, /^connection\.once\('disconnect', \(\) => bus\.off\('news', onEvent\)\)$/m)
  t.deepEqual(finding.location, markedLocation('signatures/connection-listeners', '// leak: listener per connection', '(', 'onNews'))
})

test('a node:readline Interface per request on a long-lived stream: the Interface is named as what is left open, with its close()', async (t) => {
  const report = await reportOf('signatures/unclosed-subscribers')
  const finding = report.findings.find((f) => f.evidence.madeBy !== undefined)
  if (!finding) return t.fail(JSON.stringify(report.findings.map((f) => f.title)))
  t.is(finding.signature, 'listener-accumulation')
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['control', '_events'])
  t.deepEqual(finding.evidence.madeBy, { className: 'Interface', from: 'node:readline', method: 'close' })
  t.regex(finding.title, /^Interface objects \(node:readline\) are made over and over and never closed: each adds an? '\w+' listener on control \(PassThrough\)\.$/)
  const perRound = await perRoundOf('signatures/unclosed-subscribers')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  // The Interface's own listener: the program wrote none it could remove, so the fix closes the
  // Interface; the card names the program line that hands the stream to it (found in the file on
  // disk: the snapshot's copy of the script ends at 1,024 characters).
  t.deepEqual(finding.location, markedLocation('signatures/unclosed-subscribers', '// leak: interface per request', 'control'))
  t.regex(finding.fix.snippet, /^res\.once\('close', \(\) => theInterface\.close\(\)\)$/m)
  t.notRegex(finding.fix.snippet, /\.off\(/)
})

test('a pub/sub engine that keeps its emitter in a field beside a table of subscriptions: the listener list under the field is found and named', async (t) => {
  const report = await reportOf('signatures/unclosed-subscribers')
  const finding = report.findings.find((f) => f.evidence.event === 'price')
  if (!finding) return t.fail(JSON.stringify(report.findings.map((f) => f.title)))
  t.is(finding.signature, 'listener-accumulation')
  t.is(finding.path.at(-1)?.edge, 'pubsub')
  t.regex(finding.title, /'price' listener is added to pubsub\.ee \(EventEmitter\)/)
  const perRound = await perRoundOf('signatures/unclosed-subscribers')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  // A bound method has no code of its own: the method it wraps is the listener's location.
  t.deepEqual(finding.location, markedLocation('signatures/unclosed-subscribers', '// the listener', '(payload)', 'push'))
  t.regex(finding.fix.snippet, /pubsub\.ee\.off\('price', onEvent\)/)
  t.is(finding.evidence.madeBy, undefined, 'a listener the program wrote is removed by the program')
})

test('records held by two old collections in different places (a scheduler\'s queue and its job registry): the queue that holds them is found above the records', async (t) => {
  const report = await reportOf('signatures/unclosed-subscribers')
  // No old object below the GC roots dominates an invocation: each is an owner of its own.
  const row = report.growth.find((g) => g.path.at(-2)?.edge === 'invocations')
  t.true(row !== undefined && row.leak && row.ownerCount > 1, JSON.stringify(row?.owner))
  const finding = report.findings.find((f) => f.signature === 'growing-array')
  if (!finding) return t.fail(JSON.stringify(report.findings.map((f) => f.title)))
  t.is(finding.path.at(-1)?.edge, 'invocations')
  t.regex(finding.title, /^invocations \(Array\) only grows/)
  const perRound = await perRoundOf('signatures/unclosed-subscribers')
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
  t.is(finding.location?.file, 'fixtures/programs/signatures/unclosed-subscribers.js')
})

test('the unclosed subscribers\' fixed twin closes each Interface, unsubscribes each feed and cancels each reminder: no finding', async (t) => {
  const report = await reportOf('signatures/unclosed-subscribers', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

// rxjs itself (a dev dependency for this case): fromEvent() adds rxjs's own listener to the
// emitter, and the program holds the Subscription it got back, whose unsubscribe() takes the
// listener off. The card names the rxjs objects and that method, at the subscribe call.
test('rxjs fromEvent() subscribed per request and never unsubscribed: the subscriber objects are named, with unsubscribe()', async (t) => {
  const program = 'signatures/rx-subscriptions'
  const report = await reportOf(program, { args: ['event'] })
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  t.is(finding.evidence.madeBy?.from, 'rxjs')
  t.is(finding.evidence.madeBy?.method, 'unsubscribe')
  t.regex(finding.title, /^\w+ objects \(rxjs\) are made over and over and never unsubscribed: each adds a 'price' listener on prices \(EventEmitter\)\.$/)
  t.deepEqual(finding.location, markedLocation(program, '// leak: event subscription', 'prices'))
  t.regex(finding.fix.snippet, /\.unsubscribe\(\)\)$/m)
  t.notRegex(finding.fix.snippet, /\.off\(|removeListener/)
  const perRound = await perRoundOf(program, { args: ['event'] })
  const [a, b, c] = finding.evidence.counts
  t.deepEqual([b - a, c - b], [perRound, perRound])
})

test('rxjs subscriptions unsubscribed when their response closes: no finding', async (t) => {
  for (const kind of ['event', 'interval']) {
    const report = await reportOf('signatures/rx-subscriptions', { args: [kind, 'fixed'] })
    t.deepEqual(report.findings, [], kind)
    t.is(report.verdict, 'clean', kind)
  }
})

// Registries keyed by event name beside mitt's Map of arrays: a plain object of arrays
// (nanoevents), a Set per event in a Map a WeakMap keeps for each emitter (emittery), an object of
// handlers by token per topic (pubsub-js). Each is a listener list under its event, not closures
// some collection happens to keep.
for (const shape of ['object-lists', 'weak-keyed-sets', 'token-objects']) {
  test(`an event registry of ${shape}: a 'reload' listener finding at the handler`, async (t) => {
    const program = 'signatures/event-registries'
    const report = await reportOf(program, { args: [shape] })
    t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
    const [finding] = report.findings
    t.is(finding.evidence.listKind, 'event map')
    t.is(finding.evidence.event, 'reload')
    t.deepEqual(finding.location, markedLocation(program, '// leak: handler', '() =>', 'onReload'))
    const perRound = await perRoundOf(program, { args: [shape] })
    const [a, b, c] = finding.evidence.counts
    t.deepEqual([b - a, c - b], [perRound, perRound])
    if (shape === 'weak-keyed-sets') {
      // The Map is kept for the emitter in a WeakMap: the emitter is named, and its off().
      t.regex(finding.title, /^A 'reload' listener is added to emitter \(Emitter\) /)
      t.regex(finding.fix.snippet, /emitter\.off\('reload', onEvent\)/)
    } else {
      t.regex(finding.fix.snippet, /res\.once\('close', unsubscribe\)/)
    }
  })
}

// EventEmitter2 with wildcards keeps a pattern's handlers under `_listeners` in a tree of plain
// objects: a list under a listener-like name is an observer list, and `_listeners` no event.
test('a tree of plain objects with each pattern\'s handlers under _listeners: an observer list, not an event named _listeners', async (t) => {
  const program = 'signatures/event-registries'
  const report = await reportOf(program, { args: ['listener-tree'] })
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  t.is(finding.evidence.listKind, 'observer list')
  t.deepEqual(finding.path.slice(-3).map((step) => step.edge), ['reload', '*', '_listeners'])
  t.notRegex(finding.title, /'_listeners' listener/)
  t.deepEqual(finding.location, markedLocation(program, '// leak: handler', '() =>', 'onReload'))
})

test('an event registry of object lists, each handler taken out when its response closes: no finding', async (t) => {
  const report = await reportOf('signatures/event-registries', { args: ['object-lists', 'fixed'] })
  t.deepEqual(report.findings, [])
  t.is(report.verdict, 'clean')
})
