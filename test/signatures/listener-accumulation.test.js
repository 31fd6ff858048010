import test from 'ava'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { diffSnapshots } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { markedPosition, ROOT } from '../helpers/fixture-source.js'

const ID = 'listener-accumulation'
const CLI = fileURLToPath(new URL('../../cli/leakdiff.js', import.meta.url))
/** @type {Map<string, ReturnType<typeof diffSnapshots>>} */
const reports = new Map()

/**
 * One report per program and snapshot count, shared by the tests of this file.
 * @param {string} program
 * @param {number} [snapshots]
 */
function reportOf (program, snapshots = 3) {
  const key = `${program}/${snapshots}`
  let report = reports.get(key)
  if (!report) {
    report = captureFixture(program).then(({ files }) => diffSnapshots(files.slice(0, snapshots), { top: 0, cwd: ROOT }))
    reports.set(key, report)
  }
  return report
}

/**
 * @param {Awaited<ReturnType<typeof diffSnapshots>>} report
 */
function findingOf (report) {
  return report.findings.find((finding) => finding.signature === ID)
}

test('an EventEmitter listener added per request: the finding names the list, the listener line and the per-step counts', async (t) => {
  const report = await reportOf('signatures/listener-accumulation')
  const finding = findingOf(report)
  if (!finding) return t.fail(`no ${ID} finding; findings: ${report.findings.map((f) => f.signature).join(', ')}`)
  t.is(report.findings.length, 1)
  t.is(finding.owner.name, 'Array')
  t.deepEqual(finding.path.slice(-3).map((step) => step.edge), ['settings', '_events', 'change'])
  t.is(finding.path.at(-3)?.node, 'SettingsStore')

  const expected = markedPosition('signatures/listener-accumulation', '// leak: listener', '() =>')
  t.deepEqual(finding.location, { ...expected, function: '' })

  const { perRound } = (await captureFixture('signatures/listener-accumulation')).report
  const { evidence } = finding
  t.is(evidence.unit, 'listeners')
  t.is(evidence.event, 'change')
  t.is(evidence.emitterClass, 'SettingsStore')
  t.is(evidence.listKind, 'EventEmitter')
  t.is(evidence.counts.length, 3)
  t.deepEqual([evidence.counts[1] - evidence.counts[0], evidence.counts[2] - evidence.counts[1]], [perRound, perRound])
  t.true(evidence.retained[0] < evidence.retained[1] && evidence.retained[1] < evidence.retained[2])
  t.is(evidence.newListeners, 2 * perRound)
  t.is(evidence.fromLocation, 2 * perRound)
  for (const name of ['IncomingMessage', 'ServerResponse']) t.true(/** @type {string[]} */ (evidence.keepsAlive).includes(name), name)

  t.true(finding.confidence >= 0.9, String(finding.confidence))
  t.true(finding.reasons.some((reason) => reason.includes('both steps')))
  t.regex(finding.fix.snippet, /settings\.off\('change', /)
  t.regex(finding.fix.summary, /setMaxListeners\(\) hides the warning, not the leak/)
})

test('with two snapshots the same leak is found with lower confidence, and the reasons say why', async (t) => {
  const three = findingOf(await reportOf('signatures/listener-accumulation'))
  const two = findingOf(await reportOf('signatures/listener-accumulation', 2))
  if (!three || !two) return t.fail('expected a finding with three and with two snapshots')
  t.is(two.evidence.counts.length, 2)
  t.true(two.evidence.counts[1] > two.evidence.counts[0])
  t.true(two.confidence < three.confidence, `${two.confidence} < ${three.confidence}`)
  t.true(two.reasons.some((reason) => reason.includes('only two snapshots')))
  t.deepEqual(two.location, three.location)
})

test('an AbortSignal listener added per request: the EventTarget list is followed through its Listener chain', async (t) => {
  const report = await reportOf('signatures/abort-listeners')
  const finding = findingOf(report)
  if (!finding) return t.fail(`no ${ID} finding; findings: ${report.findings.map((f) => f.signature).join(', ')}`)
  t.is(finding.evidence.listKind, 'EventTarget')
  t.is(finding.evidence.event, 'abort')
  const expected = markedPosition('signatures/abort-listeners', '// leak: listener', '() =>')
  t.deepEqual(finding.location, { ...expected, function: '' })
  const { perRound } = (await captureFixture('signatures/abort-listeners')).report
  const { counts } = finding.evidence
  t.deepEqual([counts[1] - counts[0], counts[2] - counts[1]], [perRound, perRound])
  t.regex(finding.fix.snippet, /removeEventListener\('abort', /)
})

test('the fixed twin removes its listener on close: no finding', async (t) => {
  const report = await reportOf('signatures/listener-accumulation-fixed')
  t.deepEqual(report.findings, [])
})

test('the text report shows the card with file:line:column, within 80 columns', async (t) => {
  const { files } = await captureFixture('signatures/listener-accumulation')
  const { FORCE_COLOR, NO_COLOR, ...env } = process.env
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...files], { cwd: ROOT, env: { ...env, NO_COLOR: '1' } })
    .catch((/** @type {any} */ error) => error)
  const lines = stdout.split('\n')
  const header = lines.findIndex((line) => /^1 +listener-accumulation +confidence 0\.\d\d$/.test(line))
  t.true(header >= 0, stdout)
  const { file, line, column } = markedPosition('signatures/listener-accumulation', '// leak: listener', '() =>')
  t.true(lines[header + 1].trimStart().startsWith(`${file}:${line}:${column}`), lines[header + 1])
  const card = lines.slice(header, lines.indexOf('', header))
  t.true(card.some((text) => /^ {3}listeners +\d+ → \d+ → \d+/.test(text)), card.join('\n'))
  t.true(card.some((text) => text.includes("settings.off('change', ")), card.join('\n'))
  for (const text of card) t.true(text.length <= 80, text)
})
