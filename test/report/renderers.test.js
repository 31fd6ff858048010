// One registry of report formats: each command offers every format that fits its report, and each
// format is one `(model, options) => string` renderer.
import test from 'ava'
import { DEFAULT_GATES, evaluateGates, formatBytes, renderDiffReport, renderHtmlReport, renderInspectReport, renderJunitReport, renderReport, FORMATS } from 'leakdiff'
import { formatsFor } from '../../src/report/formats.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { reportOf, sharedInspect } from '../helpers/fixture-reports.js'
import { ROOT } from '../helpers/fixture-source.js'

/** @type {Promise<import('../../src/report/report-model.js').InspectReport> | undefined} */
let inspected
function inspectReport () {
  inspected ??= captureFixture('diff/map-cache').then(({ files }) => sharedInspect(files[0], { top: 8 }))
  return inspected
}

test('diff reports take every format, inspect reports every format but JUnit (which needs gates)', (t) => {
  t.deepEqual(formatsFor('diff'), ['text', 'json', 'markdown', 'junit', 'html'])
  t.deepEqual(formatsFor('inspect'), ['text', 'json', 'markdown', 'html'])
  t.deepEqual(Object.keys(FORMATS), formatsFor('diff'))
})

test('each format of a diff report is the output of its renderer', async (t) => {
  const report = await reportOf('diff/map-cache')
  const gates = evaluateGates(report, DEFAULT_GATES)
  t.is(renderReport(report, { format: 'text', color: false, width: 100 }), renderDiffReport(report, { format: 'text', color: false, width: 100 }))
  t.is(renderReport(report), renderDiffReport(report))
  t.is(renderReport(report, { format: 'json' }), renderDiffReport(report, { format: 'json' }))
  t.is(renderReport(report, { format: 'markdown' }), renderDiffReport(report, { format: 'markdown' }))
  t.is(renderReport(report, { format: 'junit', gates, name: 'soak' }), renderJunitReport(report, gates, { name: 'soak' }))
  // Without gates, JUnit judges the diff as the CLI does without --fail-on: by its verdict.
  t.is(renderReport(report, { format: 'junit' }), renderJunitReport(report, evaluateGates(report, { verdict: true })))
  const html = renderReport(report, { format: 'html', cwd: ROOT })
  t.is(html.replace(/"generatedAt":"[^"]*"/, ''), renderHtmlReport(report, { cwd: ROOT }).replace(/"generatedAt":"[^"]*"/, ''))
})

test('an inspect report in Markdown: its facts, a table of classes and the dominators with their paths', async (t) => {
  const report = await inspectReport()
  const markdown = renderReport(report, { format: 'markdown' })
  t.is(markdown, renderInspectReport(report, { format: 'markdown' }))
  const lines = markdown.split('\n')
  t.regex(lines[0], /^## leakdiff inspect: `.*1\.heapsnapshot`$/)
  t.true(lines.includes('| class | count | shallow | retained |'))
  const rows = lines.filter((line) => line.startsWith('| `'))
  t.is(rows.length, report.classes.length)
  t.true(rows.every((row) => /^\| `[^`]+` \| [\d,]+ \| [\d.]+ k?M?B \| [\d.]+ [kMG]?B \|$/.test(row)), rows.join('\n'))
  const dominators = lines.filter((line) => /^\d+\. `/.test(line))
  t.is(dominators.length, report.dominators.length)
  t.true(report.dominators.length > 0)
  t.true(dominators.every((line) => line.includes(' retains ') && line.includes('(GC roots)')), dominators.join('\n'))
  // The numbers the text report prints.
  t.true(rows[0].endsWith(` | ${formatBytes(report.classes[0].selfSize)} | ${formatBytes(report.classes[0].retainedSize)} |`), rows[0])
})

test('a format that does not fit the report, or no format of the registry, is refused with the ones that fit', async (t) => {
  const report = await inspectReport()
  t.throws(() => renderReport(report, { format: 'junit' }), { code: 'LEAKDIFF_INVALID_ARG', message: 'Expected `format` to be one of text, json, markdown, html for an inspect report, got `"junit"` (string)' })
  t.throws(() => renderReport(report, { format: 'toString' }), { code: 'LEAKDIFF_INVALID_ARG', message: /one of text, json, markdown, html/ })
  t.throws(() => renderReport(/** @type {any} */ ({ kind: 'other' })), { code: 'LEAKDIFF_INVALID_ARG', message: /a diff or inspect report/ })
})

test('the text class table cuts names, never numbers: a count past a million and sizes past a gigabyte stay whole, each row as wide as the header', async (t) => {
  const report = await reportOf('diff/map-cache')
  // A heap far bigger than the fixture's: the same rows with numbers a large service has.
  const big = { ...report, classes: report.classes.map((row, i) => i === 0 ? { ...row, newCount: 1_527_944, deletedCount: 416, countDelta: 1_527_528, sizeDelta: 2.5e9, retainedSizeDelta: -1.25e10 } : row) }
  const lines = renderDiffReport(big, { color: false, width: 100 }).split('\n')
  const header = lines.findIndex((line) => line.startsWith('Classes (top '))
  const row = lines[header + 1]
  for (const text of ['1,527,944', '+1,527,528', formatBytes(2.5e9, { sign: true }), formatBytes(-1.25e10, { sign: true })]) t.true(row.includes(text), `${text} in ${row}`)
  t.false(row.includes('…'), row)
  for (let k = header; k <= header + big.classes.length; k++) t.is(lines[k].length, lines[header].length, lines[k])
  // The numbers that fit keep the table as it was: 100 columns wide.
  t.is(renderDiffReport(report, { color: false, width: 100 }).split('\n').find((line) => line.startsWith('Classes (top '))?.length, 100)
})
