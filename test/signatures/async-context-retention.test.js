import test from 'ava'
import { checkTextCard, isRising, markedLocation, perRoundOf, reportOf, stepsOf, textCardOf } from '../helpers/fixture-reports.js'

const ID = 'async-context-retention'
const PROGRAM = 'signatures/async-context-retention'
const MARKER = '// the background task: waits for shutdown'

test('request stores kept by background tasks started in their context: the stores, what keeps them and the task', async (t) => {
  const report = await reportOf(PROGRAM)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.path.at(-1)?.edge, 'shuttingDown')
  t.is(finding.owner.name, 'Promise')

  // The heap knows the async function that waits, not the line that called it.
  t.deepEqual(finding.location, markedLocation(PROGRAM, MARKER, '()', 'flushAuditOnShutdown'))

  const perRound = await perRoundOf(PROGRAM)
  const { evidence } = finding
  t.is(evidence.unit, 'stores')
  t.deepEqual(stepsOf(evidence.counts), [perRound, perRound])
  t.true(isRising(evidence.retained))
  t.deepEqual(evidence.storeClasses, ['RequestState'])
  // Under async_hooks (Node 20, 22) each promise holds the store; with AsyncContextFrame (Node 24)
  // the reaction of the `await` holds the frame that holds it.
  t.regex(/** @type {Array<{name: string}>} */ (evidence.resourceClasses)[0].name, /^Promise(Reaction)?$/)
  t.true(Math.abs(/** @type {number} */ (evidence.newStores) - 2 * perRound) <= 2, String(evidence.newStores))
  t.true(evidence.notes.some((note) => /kept by Promise(Reaction)? ×[\d,]+ through (Symbol\(kResourceStore\)|their AsyncContextFrame)/.test(note)), evidence.notes.join('\n'))

  t.true(finding.confidence >= 0.8, String(finding.confidence))
  t.true(finding.reasons.some((reason) => reason.includes('both steps')))
  t.regex(finding.fix.summary, /als\.exit\(\)/)
  t.regex(finding.fix.snippet, /AsyncResource\.bind/)
})

test('the fixed twin starts the task outside the context and ends it with the request: no finding', async (t) => {
  const report = await reportOf(`${PROGRAM}-fixed`)
  t.deepEqual(report.findings, [])
})

test('a pending promise collecting reactions without AsyncLocalStorage stays pending-promises', async (t) => {
  const report = await reportOf('signatures/pending-promises')
  t.deepEqual(report.findings.map((f) => f.signature), ['pending-promises'])
})

test('the text card of stores kept by async contexts: location first, the notes a line each, within 80 columns', async (t) => {
  const { stdout, card } = await textCardOf(PROGRAM, ID)
  if (!card) return t.fail(stdout)
  const order = [/^ {3}AsyncLocalStorage stores \(RequestState\)/, /^ {3}\(GC roots\)/, /^ {3}stores +\d+ → \d+ → \d+/, /^ {3}retained /,
    /^ {3}- [\d,]+ new stores \(RequestState\)/, /^ {3}- kept by Promise/, /^ {3}fix /, /AsyncResource\.bind/]
  checkTextCard(t, card, { location: markedLocation(PROGRAM, MARKER, '()'), order })
})
