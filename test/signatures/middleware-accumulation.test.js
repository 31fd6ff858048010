import test from 'ava'
import { renderDiffReport } from 'leakdiff'
import { checkTextCard, checkWeakerWithTwoSnapshots, isRising, markedLocation, perRoundOf, reportOf, sharedDiff, stepsOf, textCardOf } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'

const ID = 'middleware-accumulation'
const PROGRAM = 'signatures/middleware-accumulation'

test('a middleware registered per request: the app stack, the registered function and the per-step counts', async (t) => {
  const report = await reportOf(PROGRAM)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Array')
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['app', 'stack'])
  t.is(finding.path.at(-2)?.node, 'App')
  t.regex(finding.title, /registered on app\.stack \(App\) on every request/)

  t.deepEqual(finding.location, markedLocation(PROGRAM, '// leak: middleware registered per request', '(req, res, next) =>'))

  const perRound = await perRoundOf(PROGRAM)
  const { evidence } = finding
  t.is(evidence.unit, 'handlers')
  t.deepEqual(stepsOf(evidence.counts), [perRound, perRound])
  t.true(isRising(evidence.retained))
  t.is(evidence.newHandlers, 2 * perRound)
  t.is(evidence.fromLocation, 2 * perRound)
  t.deepEqual(evidence.recordFields, ['handle'])
  t.is(evidence.holderClass, 'App')
  t.true(/** @type {Array<{name: string}>} */ (evidence.capturedVariables).some((v) => v.name === 'audience'))
  t.true(evidence.notes.some((note) => note.includes('{handle} record')), evidence.notes.join('\n'))

  t.true(finding.confidence >= 0.9, String(finding.confidence))
  t.true(finding.reasons.some((reason) => reason.includes('both steps')))
  t.true(finding.reasons.some((reason) => reason.includes("'stack'")))
  t.regex(finding.fix.summary, /once at start-up/)
  t.regex(finding.fix.snippet, /^app\.use\(/m)
})

test('an interceptor added per request to a client: axios-shaped {fulfilled, rejected} records under handlers', async (t) => {
  const program = 'signatures/interceptor-accumulation'
  const report = await reportOf(program)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.deepEqual(finding.path.slice(-3).map((step) => step.edge), ['interceptors', 'request', 'handlers'])
  t.regex(finding.title, /^An interceptor is registered on client\.interceptors\.request\.handlers \(InterceptorManager\)/)
  t.deepEqual(finding.location, markedLocation(program, '// leak: interceptor', '(config) =>'))
  const perRound = await perRoundOf(program)
  const { counts, recordFields } = finding.evidence
  t.deepEqual(stepsOf(counts), [perRound, perRound])
  t.deepEqual(recordFields, ['fulfilled', 'rejected'])
  t.regex(finding.fix.snippet, /client\.interceptors\.request\.eject\(id\)/)
})

// A client made in a factory is reached only through the server's request listener (`_events`):
// that is the way to the list, not an emitter's listener list, so the card is still this one.
test('an interceptor added per request to a client the request handler alone holds, reached through the server\'s listener: the same card', async (t) => {
  const program = 'signatures/interceptor-accumulation'
  const report = await reportOf(program, { args: ['factory'] })
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.true(finding.path.some((step) => step.edge === '_events'), finding.path.map((step) => step.edge).join(' → '))
  t.deepEqual(finding.path.slice(-3).map((step) => step.edge), ['interceptors', 'request', 'handlers'])
  t.regex(finding.title, /^An interceptor is registered on client\.interceptors\.request\.handlers \(InterceptorManager\)/)
  t.deepEqual(finding.location, markedLocation(program, '// leak: interceptor', '(config) =>'))
  const perRound = await perRoundOf(program)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
})

// axios 1.21 keeps each interceptor's record twice: in `handlers` and, under its id, in a Map of
// its own. Both grow; the Map's entries point at the records and keep nothing else alive, so the
// card is the registration's, with its fix (eject), and the Map's growth is listed under it. At
// assertNoLeak's thresholds (a few kB) the Map is a finding of its own; at the CLI's it is not.
test('an interceptor added per request to a client that also indexes its records in a Map: the registration\'s card, the Map under it', async (t) => {
  const program = 'signatures/indexed-interceptors'
  const { files } = await captureFixture(program)
  const report = await sharedDiff(files, { top: 0, cwd: ROOT, minBytes: 8 * 1024, minObjects: 30 })
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.deepEqual(finding.location, markedLocation(program, '// leak: interceptor', '(config) =>'))
  t.regex(finding.fix.snippet, /client\.interceptors\.request\.eject\(id\)/)
  const perRound = await perRoundOf(program)
  const [index] = finding.also ?? []
  t.is(index?.signature, 'unbounded-collection')
  t.deepEqual(index?.path.slice(-2).map((step) => step.edge), ['<symbol internals>', 'handlerEntries'])
  t.is(index?.heldBy.relation, 'indexes')
  t.is(index?.heldBy.count, 2 * perRound)
  t.true(/** @type {number} */ (index?.heldBy.share) > 0.99)
  t.is(index?.heldBy.holderClass, '{fulfilled, rejected, synchronous, runWhen}')
  const text = renderDiffReport(report, { format: 'text', color: false }).replace(/\s+/g, ' ')
  t.regex(text, new RegExp(`also \\+${2 * perRound} entries pointing at these \\{fulfilled, rejected, synchronous, runWhen\\} objects`))
})

test('with two snapshots the same leak is found with lower confidence', async (t) => {
  const found = await checkWeakerWithTwoSnapshots(t, PROGRAM, ID)
  if (!found) return
  const { two, three } = found
  t.deepEqual(two.location, three.location)
})

test('the fixed twin registers the middleware once: no finding', async (t) => {
  const report = await reportOf(`${PROGRAM}-fixed`)
  t.deepEqual(report.findings, [])
})

test('a list of closures that is not a handler list is left to the other signatures', async (t) => {
  const report = await reportOf('signatures/closure-retention')
  t.deepEqual(report.findings.map((f) => f.signature), ['closure-retention', 'unbounded-collection'])
})

test('the text card of a middleware registered per request: location first, the notes a line each, within 80 columns', async (t) => {
  const { stdout, card } = await textCardOf(PROGRAM, ID)
  if (!card) return t.fail(stdout)
  const order = [/^ {3}A middleware function is registered/, /^ {3}\(GC roots\)/, /^ {3}handlers +\d+ → \d+ → \d+/, /^ {3}retained /,
    /^ {3}- \d+ of \d+ new handlers are this function/, /^ {3}- ~.* per handler; they capture .*audience/, /^ {3}fix /, /^ {10}app\.use\(/]
  checkTextCard(t, card, { location: markedLocation(PROGRAM, '// leak: middleware registered per request', '(req, res, next) =>'), order })
})

test('the markdown card lists the notes between the numbers and the fix', async (t) => {
  const markdown = renderDiffReport(await reportOf(PROGRAM), { format: 'markdown' })
  t.regex(markdown, /- retained: [^\n]+\n- \d+ of \d+ new handlers are this function, each in a \{handle\} record\n- \\?~[^\n]+ per handler; they capture [^\n]*audience[^\n]*\n- every later request runs through all of them\n\n\*\*Fix:\*\*/)
})
