import test from 'ava'
import { checkCleanTwin, isRising, markedLocation, perRoundOf, reportOf, stepsOf } from '../helpers/fixture-reports.js'
import { markedPosition } from '../helpers/fixture-source.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { libraryFix, looksLikeRandomIds } from '../../src/signatures/collections/collection-words.js'

const ID = 'unbounded-collection'

const LEAKS = [
  { program: 'signatures/response-cache', marker: '// leak: cache', write: ['// adds: cache', 'responseCache.set('], name: 'Map', edge: 'responseCache', kind: 'Map', values: '{body, headers}' },
  { program: 'signatures/user-sessions', marker: '// leak: sessions', write: ['// adds: sessions', 'sessionsByUser[user] ??='], name: 'Object', edge: 'sessionsByUser', kind: 'object', values: '{user, agent, pages}' }
]

for (const { program, marker, write, name, edge, kind, values } of LEAKS) {
  test(`${program}: the ${kind} is named, with the line that adds to it, the function that closes over it and its entries per snapshot`, async (t) => {
    const report = await reportOf(program)
    // Only this signature explains the row: the listener matcher, tried first, leaves it alone.
    t.deepEqual(report.findings.map((f) => f.signature), [ID])
    const [finding] = report.findings
    t.is(finding.owner.name, name)
    t.is(finding.path.at(-1)?.edge, edge)
    t.is(finding.path.at(-1)?.id, finding.owner.id)
    t.is(finding.evidence.kind, kind)

    t.deepEqual(finding.location, markedLocation(program, write[0], write[1]))
    t.is(finding.evidence.locationRole, 'adds to it')
    t.deepEqual(finding.evidence.holderLocation, markedLocation(program, marker, '(req, res) =>'))

    const perRound = await perRoundOf(program)
    const { counts, retained } = finding.evidence
    t.deepEqual(stepsOf(counts), [perRound, perRound])
    t.true(isRising(retained))
    const perEntry = /** @type {number} */ (finding.evidence.bytesPerEntry)
    t.is(perEntry, Math.round((retained[2] - retained[0]) / (counts[2] - counts[0])))
    t.true(perEntry > 100 && perEntry < 2000, String(perEntry))
    t.deepEqual(finding.evidence.keyClasses, ['(string)'])
    t.is(/** @type {string[]} */ (finding.evidence.valueClasses)[0], values)

    t.true(finding.confidence >= 0.9, String(finding.confidence))
    t.regex(finding.fix.snippet, /^import \{ LRUCache \} from 'lru-cache'\n/)
    t.regex(finding.fix.snippet, new RegExp(`const ${edge} = new LRUCache\\(\\{ max: \\d+, ttl: `))
  })

  test(`${program}-fixed: no finding`, async (t) => {
    const report = await reportOf(`${program}-fixed`)
    t.deepEqual(report.findings, [])
  })
}

// A package's own registry that no object of the program's reaches (node-cron keeps every task it
// scheduled in a Map of its module): the program cannot bound it, so the card is the call into the
// package, placed at the program's callback each task keeps, and ended with the tasks' destroy().
test('signatures/scheduled-tasks: node-cron\'s own registry of tasks is node-cron\'s, at the program\'s callback each task keeps, ended with destroy()', async (t) => {
  const program = 'signatures/scheduled-tasks'
  const report = await reportOf(program)
  const finding = report.findings.find((f) => f.signature === ID)
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.regex(finding.title, /^tasks \(node-cron's own\) gains entries that are never removed/)
  t.is(finding.evidence.library, 'node-cron')
  t.deepEqual(finding.evidence.valueClasses.slice(0, 1), ['InlineScheduledTask'])
  t.deepEqual(finding.location, markedLocation(program, '// leak: schedule', '() =>'))
  t.is(finding.evidence.locationRole, 'kept by each entry')
  const perRound = await perRoundOf(program)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.summary, /the program cannot bound or clear it/)
  t.regex(finding.fix.summary, /InlineScheduledTask's destroy\(\)/)
  t.notRegex(finding.fix.snippet, /LRUCache/)
})

test('signatures/scheduled-tasks fixed (each task destroyed when its request is done): no finding', async (t) => {
  const report = await reportOf('signatures/scheduled-tasks', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

// Node keeps, under a symbol of an AbortSignal, WeakRefs to the signals AbortSignal.any() made from
// it: Node's bookkeeping, though a symbol of a Node object can hold a value of the program's too (an
// AsyncLocalStorage store). The entries tell: Node made them. So no "hold them in a WeakSet".
test('signatures/signal-dependants: Node\'s own sets behind AbortSignal.any() are Node\'s, the one under a symbol of the program\'s signal too, placed at the listener each signal keeps', async (t) => {
  const report = await reportOf('signatures/signal-dependants')
  const collections = report.findings.filter((f) => f.signature === ID)
  const dependants = collections.find((f) => f.path.at(-1)?.edge === '<symbol kDependantSignals>')
  if (dependants === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.is(dependants.evidence.nodeModule, 'node:internal/event_target')
  t.regex(dependants.title, /\(Node's own, in /)
  t.notRegex(dependants.fix.summary + dependants.fix.snippet, /WeakSet|LRUCache/)
  t.true(collections.every((f) => typeof f.evidence.nodeModule === 'string'), collections.map((f) => f.title).join('\n'))
  // Each signal Node keeps holds the listener the program added to it, written beside the call
  // that made the signal: both cards are placed there.
  const listener = markedLocation('signatures/signal-dependants', "signal.addEventListener('abort'", '() =>')
  for (const finding of collections) {
    t.like(finding.location, listener, finding.title)
    t.is(finding.evidence.locationRole, 'kept by each entry')
  }
})

// Keys composed per request are concatenated strings in the heap, named "(concatenated string)":
// the keys a card shows are their text, joined from the pieces the snapshot records.
test('signatures/composed-keys: keys V8 keeps as concatenated strings are shown as their text', async (t) => {
  const report = await reportOf('signatures/composed-keys')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.deepEqual(finding.evidence.keyClasses, ['(concatenated string)'])
  const keys = /** @type {string[]} */ (finding.evidence.sampleKeys)
  t.true(keys.length > 0 && keys.every((key) => /^tenant-\d:user-\d+:profile$/.test(key)), keys.join(', '))
  t.deepEqual(finding.location, markedLocation('signatures/composed-keys', '// leak: profiles', 'profiles.set('))
})

// A real library's store, held only through Node's server object: the card names the library's
// class (not Node's Server), and its keys, random session ids, get an expiry, not a release in a
// finally. express-session's MemoryStore keeps every session until it is read after it expires.
test('signatures/session-store: express-session\'s MemoryStore is named as the library\'s object reached through the program\'s server, and its session ids get an expiry', async (t) => {
  const program = 'signatures/session-store'
  const report = await reportOf(program)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.path.at(-1)?.edge, 'sessions')
  t.is(finding.path.at(-2)?.node, 'MemoryStore')
  t.is(finding.evidence.library, 'express-session')
  t.regex(finding.title, /^sessions of MemoryStore \(from express-session, reached through server\) gains entries/)
  t.is(finding.evidence.locationRole, 'holds the library object')
  t.deepEqual(finding.location, markedLocation(program, '// holds: server', '() => server'))
  const perRound = await perRoundOf(program)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.true(/** @type {string[]} */ (finding.evidence.sampleKeys).every((key) => /^[\w-]{32}$/.test(key)))
  t.regex(finding.fix.summary, /^MemoryStore from express-session keeps one entry per id .* random ids, one per client or session/)
  t.regex(finding.fix.summary, /expire on their own/)
  t.notRegex(finding.fix.summary, /finally|route pattern/)
})

test('random ids are told from other keys: session ids and UUIDs are; hashes of content, numbered names and label sets are not', (t) => {
  t.true(looksLikeRandomIds(['y8Gfe0bLvkvpKxIxbhwkutGsuNAcn_O8', '-bqrEnw9FgHwCL1OkQGKbbM9evrPqInw']))
  t.true(looksLikeRandomIds(['3b241101-e2bb-4255-8caf-4136c566a962', '9c4f1e2a-0b7d-4e8f-9a61-2f0d3c5b7e19']))
  t.false(looksLikeRandomIds(['9f86d081884c7d659a2feaa0c55ad015', '8f14e45fceea167a5a36dedd4bea2543']))
  t.false(looksLikeRandomIds(['user-1234', 'user-1235']))
  t.false(looksLikeRandomIds(['method:GET,route:/users/4549/profile,status:200,']))
  t.false(looksLikeRandomIds(['y8Gfe0bLvkvpKxIxbhwkutGsuNAcn_O8']), 'one key says nothing')
})

test('signatures/session-store fixed (saveUninitialized: false, nothing written for an anonymous client): no finding', async (t) => {
  const report = await reportOf('signatures/session-store', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

// A memoized function a package made (memoizee, no `max`): its cache of results and the arrays it
// keeps each call's arguments in grow for the same calls. One card, the package's, names the
// arrays; growing-array gives them none of their own (no location, a ring buffer for a fix).
test('signatures/memoized-calls: memoizee\'s cache and its argument arrays are one finding, the function named by the program\'s name for it', async (t) => {
  const report = await reportOf('signatures/memoized-calls')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.evidence.library, 'memoizee')
  t.true(finding.path.some((step) => step.edge === 'price'), finding.path.map((step) => step.edge).join(' → '))
  const notes = /** @type {string[]} */ (finding.evidence.notes)
  t.true(notes.some((note) => /^the same calls grow price\.[\w.]*map\[1\] \(Array\) too: [\d,]+ → [\d,]+ elements$/.test(note)), notes.join('\n'))
  t.regex(finding.fix.summary, /^price \(a function from memoizee\) keeps one entry per distinct key it is given\..* use its own size limit or expiry/)
  // The arrays' row is the largest: claimed by the finding, not left as a leak without one.
  const arrays = report.growth.find((row) => row.path.at(-2)?.edge === 'map')
  t.truthy(arrays?.leak, 'the argument arrays are a leaking row')
  t.is(report.findings.length, 1)
})

// A package's function or plain object has no class worth naming: the card names it by how the
// program reaches it (mustache's exported templateCache, lodash's memoized function's `.cache`).
test('a package\'s function or plain object is named by how it is reached, never as "Object from …"', (t) => {
  /** @param {string} accessor @param {string} className @param {string} library */
  const summaryOf = (accessor, className, library) => libraryFix({ library, name: accessor.split('.')[0], accessor, ordinal: 0, className, through: false, location: null }, { release: null, clear: 'clear' }, ['a', 'b'], ['(string)'], ['Array']).summary
  t.regex(summaryOf('templateCache', 'Object', 'mustache'), /^templateCache \(an object from mustache\) keeps one entry per distinct key/)
  t.regex(summaryOf('price', 'Function', 'memoizee'), /^price \(a function from memoizee\) keeps/)
  t.regex(summaryOf('priceOf.cache', 'Function', 'lodash'), /^priceOf\.cache \(from lodash\) keeps/)
  t.regex(summaryOf('store', 'MemoryStore', 'express-session'), /^MemoryStore from express-session keeps/)
})

test('signatures/memoized-calls fixed (memoize with max: 100): no finding', async (t) => {
  const report = await reportOf('signatures/memoized-calls', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

// Node itself holds these collections: its module loader's caches. The program can only stop
// adding to them, so the card names what it does and never offers to bound Node's map.
test('signatures/node-owned: an import() under a new URL per request is one finding at the import, with the module URLs and no LRU', async (t) => {
  const report = await reportOf('signatures/node-owned')
  const loaders = report.findings.filter((f) => f.signature === ID && f.evidence.nodeModule !== undefined)
  t.is(loaders.length, 1, loaders.map((f) => f.title).join('\n'))
  const [finding] = loaders
  t.regex(finding.title, /^The program imports a module under a new URL each time/)
  t.regex(String(finding.evidence.nodeModule), /^node:internal\/modules\//)
  t.deepEqual(finding.location, markedLocation('signatures/node-owned', '// leak: import', 'import('))
  t.is(finding.evidence.locationRole, 'imports it')
  const keys = /** @type {string[]} */ (finding.evidence.sampleKeys)
  t.true(keys.length > 0 && keys.every((key) => /node-owned-page\.js\?v=\d+$/.test(key)), keys.join(', '))
  const perRound = await perRoundOf('signatures/node-owned')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.summary, /ES modules are never unloaded/)
  t.regex(finding.fix.snippet, /await import\('\.\/node-owned-page\.js'\)/)
  t.notRegex(finding.fix.snippet, /LRUCache|shift\(\)/)
})

test('signatures/node-owned: a cache of small views names the big buffer each one keeps and the write that takes the view', async (t) => {
  const report = await reportOf('signatures/node-owned')
  const finding = report.findings.find((f) => f.signature === ID && f.path.at(-1)?.edge === 'fingerprints')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.deepEqual(finding.location, markedLocation('signatures/node-owned', '// leak: slice', 'fingerprints.set('))
  const stores = /** @type {{viewClass: string, storeBytes: number, viewBytes: number, share: number}} */ (finding.evidence.backingStore)
  // The program allocates 64 KiB bodies and keeps a 16-byte subarray of each.
  t.is(stores.viewClass, 'Buffer')
  t.is(stores.storeBytes, 64 * 1024)
  t.true(stores.viewBytes < 200, String(stores.viewBytes))
  t.true(stores.share > 0.9, String(stores.share))
  t.true(finding.evidence.notes.some((note) => note.includes('stores body.subarray(0, 16)')), finding.evidence.notes.join('\n'))
  // The copy is written into the program's own write, with its key.
  t.is(finding.fix.snippet.split('\n').at(-1), 'fingerprints.set(req.url, Buffer.from(body.subarray(0, 16)))')
})

test('signatures/node-owned-fixed: one import, one require, one hook and copies in a bounded map: no finding', async (t) => {
  const report = await reportOf('signatures/node-owned-fixed')
  t.deepEqual(report.findings, [])
})

test('signatures/string-slices: a Map of short slices of big strings names the string each one keeps, the slice that keeps it and a copy', async (t) => {
  const report = await reportOf('signatures/string-slices')
  const finding = report.findings.find((f) => f.signature === ID && f.path.at(-1)?.edge === 'tokens')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.deepEqual(finding.location, markedLocation('signatures/string-slices', '// leak: slice', 'tokens.set('))
  const stores = /** @type {{kind: string, viewClass: string, storeBytes: number, viewBytes: number, share: number}} */ (finding.evidence.backingStore)
  // Each body is a JSON text of about 21 kB; the Map keeps 32 characters of each.
  t.is(stores.kind, 'string')
  t.is(stores.viewClass, '(sliced string)')
  t.true(stores.storeBytes > 15_000 && stores.storeBytes < 30_000, String(stores.storeBytes))
  t.true(stores.viewBytes < 100, String(stores.viewBytes))
  t.true(stores.share > 0.9, String(stores.share))
  t.true(finding.evidence.notes.some((note) => note.includes('stores body.slice(8, 40): a slice that keeps the whole string')), finding.evidence.notes.join('\n'))
  t.is(finding.fix.snippet.split('\n').at(-1), 'tokens.set(req.url, structuredClone(body.slice(8, 40)))')
  t.notRegex(finding.fix.snippet, /LRUCache/)
})

test('signatures/holder-shapes: a class\'s static Map and a property of the global object are named as the program writes them and located at the write', async (t) => {
  const report = await reportOf('signatures/holder-shapes')
  const byName = (/** @type {string} */ edge) => report.findings.find((f) => f.signature === ID && f.path.at(-1)?.edge === edge)
  const registry = byName('entries')
  const global = byName('requestCache')
  if (registry === undefined || global === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.regex(registry.title, /^Registry\.entries \(Map\) gains entries/)
  t.deepEqual(registry.location, markedLocation('signatures/holder-shapes', '// leak: static', 'Registry.entries.set(', 'handleRequest'))
  t.true(registry.evidence.notes.some((note) => /^a property of Registry at fixtures\/programs\/signatures\/holder-shapes\.js:\d+:\d+$/.test(note)), registry.evidence.notes.join('\n'))
  t.is(registry.fix.snippet.split('\n').at(-1), 'Registry.entries = new LRUCache({ max: 1000, ttl: 10 * 60_000 })')
  t.regex(global.title, /^globalThis\.requestCache \(object used as a dictionary\) gains entries/)
  t.deepEqual(global.location, markedLocation('signatures/holder-shapes', '// leak: global', 'globalThis.requestCache[', 'handleRequest'))
  t.is(global.evidence.locationRole, 'adds to it')
})

test('signatures/shared-leaks: a registry Set and a listener keeping the same objects give two findings, the Set found among the scope\'s variables', async (t) => {
  const report = await reportOf('signatures/shared-leaks')
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation', ID])
  const finding = report.findings[1]
  t.regex(finding.title, /^Connection\.open \(Set\) gains entries that are never removed: /)
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['Connection', 'open'])
  t.deepEqual(finding.location, markedLocation('signatures/shared-leaks', '// leak: registry', 'Connection.open.add(', 'Connection'))
  t.deepEqual(stepsOf(finding.evidence.counts), [1000, 1000])
  t.true(finding.evidence.notes.some((note) => note.startsWith('retained is that of the module scope of fixtures/programs/signatures/shared-leaks.js: its other variables')), finding.evidence.notes.join('\n'))
  t.regex(report.reason, /unbounded-collection in Connection\.open \(Set\)/)
})

// The fix follows the mechanism the heap and the program's write show, not the category: none of
// these is a cache to bound with an LRU.

test('signatures/weak-registry: a Map of WeakRefs never pruned names the WeakRefs that point at nothing and deletes each entry with its object', async (t) => {
  const report = await reportOf('signatures/weak-registry')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.path.at(-1)?.edge, 'liveSessions')
  t.deepEqual(finding.location, markedLocation('signatures/weak-registry', '// leak: weak entry', 'liveSessions.set('))
  t.deepEqual(stepsOf(finding.evidence.counts), [await perRoundOf('signatures/weak-registry'), await perRoundOf('signatures/weak-registry')])
  t.deepEqual(finding.evidence.valueClasses, ['WeakRef'])
  // The sessions were dropped: every sampled WeakRef points at nothing.
  t.true(finding.evidence.notes.some((note) => /^500 of 500 new entries sampled hold a WeakRef, 500 of them pointing at nothing/.test(note)), finding.evidence.notes.join('\n'))
  t.regex(finding.fix.summary, /keeps an entry for every WeakRef after its object is collected/)
  t.regex(finding.fix.summary, /FinalizationRegistry, or prune on read/)
  t.is(finding.fix.snippet, [
    'const forgetLiveSessions = new FinalizationRegistry((key) => {',
    '  if (liveSessions.get(key)?.deref() === undefined) liveSessions.delete(key)',
    '})',
    'liveSessions.set(session.id, new WeakRef(session))',
    'forgetLiveSessions.register(session, session.id)'
  ].join('\n'))
  t.notRegex(finding.fix.summary, /LRU/)
})

test('signatures/in-flight: an entry deleted on the success path only is named with its delete, and the fix deletes it in a finally', async (t) => {
  const report = await reportOf('signatures/in-flight')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.path.at(-1)?.edge, 'inFlight')
  t.regex(finding.title, /^inFlight \(Map\) gains entries that are removed on one path only: /)
  t.deepEqual(finding.location, markedLocation('signatures/in-flight', '// leak: entry removed on success only', 'inFlight.set(', 'quote'))
  // One request in four fails: its entry is what each step adds.
  const { report: printed } = await captureFixture('signatures/in-flight')
  t.deepEqual(stepsOf(finding.evidence.counts), [printed.failing, printed.failing])
  const removal = markedPosition('signatures/in-flight', '  inFlight.delete(id)', 'inFlight')
  t.true(finding.evidence.notes.includes(`the program takes the entry out at fixtures/programs/signatures/in-flight.js:${removal.line} (inFlight.delete(id)), on the paths that reach that line only: a throw, a rejected await or a return before it leaves the entry in`), finding.evidence.notes.join('\n'))
  t.regex(finding.fix.summary, /^inFlight loses an entry only where the code reaches inFlight\.delete\(id\) /)
  t.regex(finding.fix.summary, /in a finally, or in the framework's response or error hook/)
  t.is(finding.fix.snippet, 'inFlight.set(id, request)\ntry {\n  // ... the work, as before\n} finally {\n  inFlight.delete(id)\n}')
  t.notRegex(finding.fix.summary, /LRU/)
})

for (const [program, how] of [['signatures/weak-registry-fixed', 'a FinalizationRegistry deletes each entry with its session'], ['signatures/in-flight-fixed', 'the entry deleted in a finally']]) {
  test(`${program}: ${how}: no finding`, (t) => checkCleanTwin(t, program))
}

// An object of a package with one store per kind of entry offers a removal method per store
// (handlebars' unregisterHelper, unregisterPartial, unregisterDecorator): the card names the one
// for the store that grows.
test('signatures/template-partials: handlebars\' partials per user are taken out by unregisterPartial(), the method named after the store', async (t) => {
  const report = await reportOf('signatures/template-partials')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.evidence.library, 'handlebars')
  t.is(finding.path.at(-1)?.edge, 'partials')
  const perRound = await perRoundOf('signatures/template-partials')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.summary, /until its own unregisterPartial\(key\) takes it out/)
  t.regex(finding.fix.snippet, /\.unregisterPartial\(key\)/)
  t.notRegex(`${finding.fix.summary}\n${finding.fix.snippet}`, /unregisterHelper|unregisterDecorator/)
})

test('signatures/template-partials fixed (unregisterPartial after the render): no finding', async (t) => {
  const report = await reportOf('signatures/template-partials', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
  t.deepEqual(report.growth.filter((row) => row.leak), [])
})

// A collection a package keeps under plain objects and builtins only, below its module scope
// (chokidar's map of watched paths, each entry's Set of listeners): the package's own, fixed by
// ending the object the listeners close over (a watcher's close()), never by a WeakSet or a bound.
test('signatures/config-watchers: chokidar\'s listeners per watched path are chokidar\'s own, ended by the FSWatcher\'s close()', async (t) => {
  const report = await reportOf('signatures/config-watchers')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.evidence.library, 'chokidar')
  t.is(finding.path.at(-1)?.edge, 'listeners')
  t.like(finding.evidence.madeBy, { className: 'FSWatcher', from: 'chokidar', method: 'close' })
  const perRound = await perRoundOf('signatures/config-watchers')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  // What the leak costs is the watched path's entry, whose other fields share the listeners' objects.
  const row = report.growth.find((r) => r.leak)
  t.is(finding.evidence.retained.at(-1), row?.retainedAfter)
  t.regex(finding.fix.summary, /^this collection is chokidar's own.*\(FSWatcher's close\(\)\)\.$/)
  t.regex(finding.fix.snippet, /handle\.close\(\)/)
  t.notRegex(`${finding.fix.summary}\n${finding.fix.snippet}`, /WeakSet|LRU|compared by identity/)
})

test('signatures/config-watchers fixed (each watcher closed when the response is sent): no finding', async (t) => {
  const report = await reportOf('signatures/config-watchers', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

// A package's own collection, a variable of its code, whose entries the object it exports takes
// out (memory-cache's del(key) and clear() close over its `_cache`): the fix is that call, not
// "the program cannot clear it".
test('signatures/page-cache: memory-cache\'s own cache names the del(key) and clear() of the object it exports', async (t) => {
  const report = await reportOf('signatures/page-cache')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.evidence.library, 'memory-cache')
  t.is(finding.path.at(-1)?.edge, '_cache')
  const perRound = await perRoundOf('signatures/page-cache')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  const notes = /** @type {string[]} */ (finding.evidence.notes)
  t.true(notes.includes('kept by memory-cache\'s own code; del(key) or clear() of the object memory-cache gives the program take entries out'), notes.join('\n'))
  t.regex(finding.fix.summary, /stays until del\(key\) or clear\(\) takes it out/)
  t.regex(finding.fix.snippet, /cache\.del\(key\)/)
  t.notRegex(finding.fix.summary, /cannot bound or clear/)
})

// memory-cache's put(key, value, ms) deletes each entry after its time with a timeout of its own:
// 50 ms timeouts seen in each snapshot are new ones, not forgotten ones.
test('signatures/page-cache fixed (each entry given a time): no finding, its short expiry timeouts included', async (t) => {
  const report = await reportOf('signatures/page-cache', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})
