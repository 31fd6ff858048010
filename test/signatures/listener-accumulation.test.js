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
  const finding = findingOf(report, ID)
  if (!finding) return t.fail(`no ${ID} finding; findings: ${report.findings.map((f) => f.signature).join(', ')}`)
  t.is(finding.evidence.listKind, 'EventTarget')
  t.is(finding.evidence.event, 'abort')
  t.deepEqual(finding.location, markedLocation('signatures/abort-listeners', '// leak: listener', '() =>'))
  const perRound = await perRoundOf('signatures/abort-listeners')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.snippet, /removeEventListener\('abort', /)
})

test('the fixed twin removes its listener on close: no finding', async (t) => {
  const report = await reportOf(`${PROGRAM}-fixed`)
  t.deepEqual(report.findings, [])
})

test('the text report shows the card with file:line:column, within 80 columns', async (t) => {
  const { stdout, card } = await textCardOf(PROGRAM, ID)
  if (!card) return t.fail(stdout)
  checkTextCard(t, card, { location: markedLocation(PROGRAM, '// leak: listener', '() =>'), order: [] })
  t.true(card.some((text) => /^ {3}listeners +\d+ → \d+ → \d+/.test(text)), card.join('\n'))
  t.true(card.some((text) => text.includes("settings.off('change', ")), card.join('\n'))
})
