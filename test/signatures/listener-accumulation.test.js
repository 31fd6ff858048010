import test from 'ava'
import { checkTextCard, checkWeakerWithTwoSnapshots, findingOf, isRising, markedLocation, perRoundOf, reportOf, stepsOf, textCardOf } from '../helpers/fixture-reports.js'

const ID = 'listener-accumulation'
const PROGRAM = 'signatures/listener-accumulation'

test('an EventEmitter listener added per request: the finding names the list, the listener line and the per-step counts', async (t) => {
  const report = await reportOf(PROGRAM)
  const finding = findingOf(report, ID)
  if (!finding) return t.fail(`no ${ID} finding; findings: ${report.findings.map((f) => f.signature).join(', ')}`)
  t.is(report.findings.length, 1)
  t.is(finding.owner.name, 'Array')
  t.deepEqual(finding.path.slice(-3).map((step) => step.edge), ['settings', '_events', 'change'])
  t.is(finding.path.at(-3)?.node, 'SettingsStore')

  t.deepEqual(finding.location, markedLocation(PROGRAM, '// leak: listener', '() =>'))

  const perRound = await perRoundOf(PROGRAM)
  const { evidence } = finding
  t.is(evidence.unit, 'listeners')
  t.is(evidence.event, 'change')
  t.is(evidence.emitterClass, 'SettingsStore')
  t.is(evidence.listKind, 'EventEmitter')
  t.is(evidence.counts.length, 3)
  t.deepEqual(stepsOf(evidence.counts), [perRound, perRound])
  t.true(isRising(evidence.retained))
  t.is(evidence.newListeners, 2 * perRound)
  t.is(evidence.fromLocation, 2 * perRound)
  for (const name of ['IncomingMessage', 'ServerResponse']) t.true(/** @type {string[]} */ (evidence.keepsAlive).includes(name), name)

  t.true(finding.confidence >= 0.9, String(finding.confidence))
  t.true(finding.reasons.some((reason) => reason.includes('both steps')))
  t.regex(finding.fix.snippet, /settings\.off\('change', /)
  t.regex(finding.fix.summary, /setMaxListeners\(\) hides the warning, not the leak/)
})

test('with two snapshots the same leak is found with lower confidence, and the reasons say why', async (t) => {
  const found = await checkWeakerWithTwoSnapshots(t, PROGRAM, ID)
  if (!found) return
  const { two, three } = found
  t.true(two.evidence.counts[1] > two.evidence.counts[0])
  t.deepEqual(two.location, three.location)
})

test('an AbortSignal listener added per request: the EventTarget list is followed through its Listener chain', async (t) => {
  const report = await reportOf('signatures/abort-listeners')
  const finding = report.findings.find((f) => f.signature === ID && f.evidence.listKind === 'EventTarget')
  if (!finding) return t.fail(`no EventTarget ${ID} finding; findings: ${report.findings.map((f) => f.title).join(' | ')}`)
  t.is(finding.evidence.event, 'abort')
  t.deepEqual(finding.location, markedLocation('signatures/abort-listeners', '// leak: listener', '() =>'))
  const perRound = await perRoundOf('signatures/abort-listeners')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.snippet, /removeEventListener\('abort', /)
})

test('an events.on() iterator per request, never ended: its shared scope and the events it queues are counted, the line that subscribes is named', async (t) => {
  const program = 'signatures/abort-listeners'
  const report = await reportOf(program)
  const finding = report.findings.find((f) => f.signature === ID && f.evidence.listKind === 'EventEmitter')
  if (!finding) return t.fail(`no EventEmitter ${ID} finding; findings: ${report.findings.map((f) => f.title).join(' | ')}`)
  t.is(finding.evidence.event, 'price')
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['prices', '_events'])
  t.deepEqual(finding.location, markedLocation(program, '// leak: iterator', 'prices', 'nextPrice'))
  t.is(finding.evidence.locationRole, 'subscribes to it')
  t.regex(String(/** @type {{file: string}} */ (finding.evidence.listenerLocation).file), /^node:events$/)
  // One request in five makes an iterator.
  const perRound = await perRoundOf(program)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound / 5, perRound / 5])
  // Each abandoned iterator queues every later event: what the listeners keep grows faster than
  // their number, and is far more than the listener functions' own 64 bytes.
  const { retained } = finding.evidence
  t.true(isRising(retained))
  t.true(retained[2] - retained[1] > retained[1] - retained[0], retained.join(' → '))
  t.true((retained[2] - retained[0]) / (2 * perRound / 5) > 1000, retained.join(' → '))
  const buffered = /** @type {{variable: string, retained: number[]}} */ (finding.evidence.buffered)
  t.is(buffered.variable, 'unconsumedEvents')
  t.true(isRising(buffered.retained))
  t.regex(finding.title, /events\.on\(\) iterators over 'price' events of prices/)
  t.regex(finding.fix.summary, /\{ signal \}.*iterator\.return\(\)/)
  t.regex(finding.fix.snippet, /on\(prices, 'price', \{ signal: ac\.signal \}\)/)
  t.notRegex(finding.fix.snippet, /\.off\(/)
})

test('a stream piped into a new one per request and never unpiped: the copies are named, with the source\'s own unpipe() and the program line', async (t) => {
  const program = 'signatures/abort-listeners'
  const report = await reportOf(program)
  const finding = report.findings.find((f) => f.signature === ID && f.evidence.madeBy !== undefined)
  if (!finding) return t.fail(`no ${ID} finding with madeBy; findings: ${report.findings.map((f) => f.title).join(' | ')}`)
  t.is(finding.path.at(-1)?.edge, 'audit')
  t.deepEqual(finding.evidence.madeBy, { className: 'PassThrough', from: 'node:internal/streams/passthrough', method: 'unpipe', of: 'emitter' })
  t.regex(finding.title, /^PassThrough objects .* are added to audit \(PassThrough\) over and over and never taken back with unpipe\(\)/)
  t.deepEqual(finding.location, markedLocation(program, '// leak: pipe', 'audit'))
  t.true(String(/** @type {{file: string}} */ (finding.evidence.listenerLocation).file).startsWith('node:'))
  const perRound = await perRoundOf(program)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.snippet, /^audit\.pipe\((\w+)\)$/m)
  t.regex(finding.fix.snippet, /audit\.unpipe\((\w+)\)\)$/m)
  t.notRegex(finding.fix.snippet, /\.destroy\(\)/)
})

test('the fixed twin removes its listener, aborts its iterator and unpipes its copy on close: no finding', async (t) => {
  const report = await reportOf(`${PROGRAM}-fixed`)
  t.deepEqual(report.findings, [])
})

test('once() listeners for an event that already happened: named as waiting, fixed by off() on the function given to once(); those whose event comes leave nothing', async (t) => {
  const report = await reportOf('signatures/once-listeners')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.title, 'A once(\'ready\') listener is added to db (EventEmitter) over and over, and \'ready\' never comes to remove it.')
  t.deepEqual(finding.location, markedLocation('signatures/once-listeners', '// leak: once', '() =>'))
  t.true(finding.evidence.notes.some((note) => /^2,000 of the 2,000 new listeners were added with once\(\) and are still waiting for 'ready'$/.test(note)), finding.evidence.notes.join('\n'))
  t.regex(finding.fix.summary, /^once\(\) removes a listener only when its event comes/)
  t.notRegex(finding.fix.summary, /or use once\(\)/)
  t.deepEqual(finding.fix.snippet.split('\n').slice(1), ['db.once(\'ready\', onEvent)', 'res.once(\'close\', () => db.off(\'ready\', onEvent))'])
  t.false(report.growth.some((g) => g.leak && /jobs/.test(g.pathText)), report.growth.map((g) => g.pathText).join('\n'))
})

test('the text report shows the card with file:line:column, within 80 columns', async (t) => {
  const { stdout, card } = await textCardOf(PROGRAM, ID)
  if (!card) return t.fail(stdout)
  checkTextCard(t, card, { location: markedLocation(PROGRAM, '// leak: listener', '() =>'), order: [] })
  t.true(card.some((text) => /^ {3}listeners +\d+ → \d+ → \d+/.test(text)), card.join('\n'))
  t.true(card.some((text) => text.includes("settings.off('change', ")), card.join('\n'))
})

// node:diagnostics_channel copies a channel's array of subscribers on every subscribe(), so the
// array of one snapshot is gone from the next: the list is counted through the channel.
test('signatures/channel-subscribers: a diagnostics channel subscriber per request is a listener list named by the channel, undone by unsubscribe()', async (t) => {
  const report = await reportOf('signatures/channel-subscribers')
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  t.is(finding.evidence.listKind, 'diagnostics channel')
  t.is(finding.evidence.event, 'app:db-query')
  t.is(finding.title, 'A subscriber is added to diagnostics channel \'app:db-query\' over and over and never unsubscribed.')
  t.deepEqual(finding.location, markedLocation('signatures/channel-subscribers', 'const onQuery =', '(/**', 'onQuery'))
  const perRound = await perRoundOf('signatures/channel-subscribers')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.snippet, /diagnostics_channel\.unsubscribe\('app:db-query', onMessage\)/)
})

test('signatures/channel-subscribers fixed (unsubscribed when the response is sent): no finding', async (t) => {
  const report = await reportOf('signatures/channel-subscribers', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

// Listeners of a package's own code that the package adds per call and never removes, with nothing
// of the program's (an object it made, a line that subscribes) to end them: got's HTTP cache adds
// a once('error') listener to its Keyv per request. The program cannot remove them; the card says
// so instead of offering an off() the program has no function for.
test('signatures/cached-fetches: got\'s cache adds a listener of keyv\'s per request; the card says it is the package\'s own, not the program\'s to remove', async (t) => {
  const report = await reportOf('signatures/cached-fetches')
  const finding = report.findings.find((f) => f.signature === 'listener-accumulation')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.is(finding.evidence.event, 'error')
  t.regex(finding.location?.file ?? '', /(^|\/)node_modules\/keyv\//)
  t.regex(finding.title, /^An 'error' listener of keyv's own code is added to .* over and over and never removed\.$/)
  const perRound = await perRoundOf('signatures/cached-fetches')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.summary, /^these listeners are keyv's own: .* The program cannot remove them/)
  t.notRegex(`${finding.fix.summary}\n${finding.fix.snippet}`, /\.off\(|removeListener\(/)
})

test('signatures/cached-fetches fixed (no cache option): no finding', async (t) => {
  const report = await reportOf('signatures/cached-fetches', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

// An emitter per user, made at start-up: each gains a few listeners a round, fewer than one list
// needs to be called accumulating alone, and the row's hundred of them together gain hundreds.
test('a listener per request on the user\'s own emitter, one of a hundred made at start-up: the lists are summed across the row', async (t) => {
  const program = 'signatures/per-user-emitters'
  const report = await reportOf(program)
  t.deepEqual(report.findings.map((f) => f.signature), ['listener-accumulation'])
  const [finding] = report.findings
  const perRound = await perRoundOf(program)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.title, /^An 'update' listener is added to 100 objects like events \(EventEmitter\) over and over and never removed\.$/)
  t.deepEqual(finding.location, markedLocation(program, '// leak: listener per request', '(', 'onUpdate'))
})

test('the per-user emitters\' twin removes each listener when its response closes: no finding', async (t) => {
  const report = await reportOf('signatures/per-user-emitters', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
  t.is(report.verdict, 'clean')
})
