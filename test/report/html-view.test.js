// What the HTML report's page is built from (its view), checked without a browser: the growth rows
// it lists and the projection its chart draws, on the agent's real series.
import test from 'ava'
import { renderDiffReport, renderHtmlReport } from 'leakdiff'
import { buildChart } from '../../src/report/html/chart.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { htmlViewOf } from '../helpers/html-view.js'
import { ROOT } from '../helpers/fixture-source.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

test('growth by owner folds the small rows that are not leaking, as the text report does, numbered as there', async (t) => {
  const { files } = await captureFixture('diff/agent-series')
  const report = await sharedDiff(files, { top: 0, cwd: ROOT })
  const text = renderDiffReport(report, { color: false, width: 100 })
  const hidden = Number(/and (\d+) small owner rows? that (?:is|are) not leaking/.exec(text)?.[1] ?? 0)
  t.true(hidden > 0, 'the series has small rows that are not leaking')
  const listed = [...text.matchAll(/^ {0,2}(\d+) {2}\S.* {2}(leak|ok)$/gm)].map((match) => `${match[1]} ${match[2]}`)
  const view = htmlViewOf(renderHtmlReport(report, { cwd: ROOT }))
  t.deepEqual(view.growth.map((/** @type {any} */ row) => `${row.number} ${row.leak ? 'leak' : 'ok'}`), listed)
  t.is(view.growth.length, report.growth.length - hidden)
  t.is(view.growthHidden, hidden)
})

test('a heap-used line that fell in the last step gets no projection from that point, and a note says why', async (t) => {
  // ~10 MB live from the first snapshot through the second, freed before the third; the cache grows.
  const { files } = await captureFixture('diff/agent-series', { args: ['spike'] })
  const report = await sharedDiff(files, { cwd: ROOT })
  t.is(report.verdict, 'leak', report.reason)
  const heapUsed = report.snapshots.map((s) => /** @type {number} */ (s.heapUsed))
  t.true(heapUsed[2] < heapUsed[1], `heap used fell: ${heapUsed.join(' → ')}`)
  t.is(report.rate?.limit?.kind, 'heap')
  const chart = buildChart(report)
  t.deepEqual(chart.charts.map((c) => c.projection), chart.charts.map(() => null))
  t.regex(chart.notes.join('\n'), /^Heap used fell in the last step, so the growth rate is not drawn on from it\.$/m)
})
