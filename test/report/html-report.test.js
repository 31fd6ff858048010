// The HTML report as renderHtmlReport writes it, for reports of real diffs of fixture snapshots: the
// view its page is drawn from (the JSON in its data element) and the page's safety, read from the
// string. The page's script drawing it and answering the reader, in a real browser, is
// html-report.e2e.test.js's.
import test from 'ava'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { renderHtmlReport, renderInspectReport } from 'leakdiff'
import { buildChart } from '../../src/report/html/chart.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'
import { htmlViewOf } from '../helpers/html-view.js'
import { sharedDiff, sharedInspect } from '../helpers/fixture-reports.js'

const series = captureFixture('diff/agent-series')
const seriesReport = series.then(({ files }) => sharedDiff(files, { cwd: ROOT }))

/** The page's own script, as it ships in every report: it builds the page from the view. */
const PAGE_SCRIPT = readFileSync(new URL('../../src/report/html/page.js', import.meta.url), 'utf8')

test('the agent\'s sidecars: process, time span, charts of heap used, RSS and the totals, the rate and the limit; dark when the reader prefers it', async (t) => {
  const { files, report: printed } = await series
  const report = await seriesReport
  const html = renderHtmlReport(report, { cwd: ROOT })
  t.true(html.length < 1_000_000)
  const view = htmlViewOf(html)
  t.like(view.process, { pid: printed.pid, nodeVersion: report.process?.nodeVersion })
  t.is(view.span.source, 'the agent\'s sidecars')
  t.truthy(report.rate?.limit, 'the sidecars give the heap limit')
  t.true(view.rate.some((/** @type {string} */ line) => line.includes('at this rate the heap reaches its')), view.rate.join('\n'))
  // Four series of a point per snapshot (heap used, RSS, RSS less what the snapshot writes left,
  // the retained totals) and one projection.
  const drawn = view.chart.charts.flatMap((/** @type {any} */ chart) => chart.series)
  t.deepEqual(drawn.map((/** @type {any} */ s) => s.key).sort(), ['heapUsed', 'retained', 'rss', 'rssProgram'])
  t.true(drawn.every((/** @type {any} */ s) => s.points.length === files.length))
  t.deepEqual(drawn.map((/** @type {any} */ s) => s.label).sort(), ['Heap used', 'RSS', 'RSS less what the snapshot writes left', 'Retained (snapshot total)'])
  t.is(view.chart.charts.filter((/** @type {any} */ chart) => chart.projection !== null).length, 1)
  // The page follows the reader's colour scheme: GitHub's dark background when asked.
  t.true(html.includes('<meta name="color-scheme" content="light dark">'))
  t.regex(html, /@media \(prefers-color-scheme: dark\) \{\s*:root \{\s*--bg: #0d1117;/)
})

test('names from the heap made of HTML and </script> are data, never markup, and the page writes them as text', async (t) => {
  const { files, report: printed } = await captureFixture('report/hostile-names')
  const report = await sharedDiff(files, { cwd: ROOT })
  const html = renderHtmlReport(report, { cwd: ROOT })
  // In the file itself: no markup from the names, and the data block cannot be closed early.
  t.false(html.includes('<img'))
  t.is(html.split('</script>').length - 1, 2)
  t.is(html.split('<script').length - 1, 2)
  const view = htmlViewOf(html)
  const carried = JSON.stringify(view)
  const names = /** @type {string} */ (printed.hostile).split(' ')
  for (const name of ['<img', 'src=x', 'onerror=alert(1)>', '</script><script>alert(2)</script>']) {
    t.true(names.includes(name))
    t.true(carried.includes(name), `${name} is in the page's data as it is`)
  }
  t.true(report.classes.some((row) => row.name.includes('<img src=x onerror=alert(1)>')), 'the class table names the hostile class')
  t.true(view.classes.rows.some((/** @type {any} */ row) => row.name.text.includes('<img src=x onerror=alert(1)>')))
  // Only the page's own script may run (its hash is the policy's only script source), and it builds
  // every element with createElement and textContent: nothing it is given is parsed as markup or run.
  t.true(html.includes(PAGE_SCRIPT))
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? ''
  t.true(policy.includes(`script-src 'sha256-${createHash('sha256').update(PAGE_SCRIPT).digest('base64')}';`), policy)
  t.true(policy.startsWith("default-src 'none';"), policy)
  for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function', 'href']) {
    t.false(PAGE_SCRIPT.includes(sink), sink)
  }
})

test('an inspect report: the class summary by every column, the largest dominators listed', async (t) => {
  const { files } = await captureFixture('signatures/listener-accumulation')
  // The report as `inspect --format json` writes it: the renderer needs nothing else.
  const report = JSON.parse(renderInspectReport(await sharedInspect(files[2]), { format: 'json' }))
  const view = htmlViewOf(renderHtmlReport(report))
  t.is(view.kind, 'inspect')
  t.deepEqual(view.classes.rows.map((/** @type {any} */ row) => row.name.text), report.classes.map((/** @type {{name: string}} */ row) => row.name))
  t.deepEqual(view.classes.columns.map((/** @type {any} */ column) => column.key), ['name', 'count', 'selfSize', 'retainedSize'])
  // Each cell sorts by the report's number, whatever the text shows.
  t.deepEqual(view.classes.rows.map((/** @type {any} */ row) => row.count.value), report.classes.map((/** @type {{count: number}} */ row) => row.count))
  t.true(report.classes.some((/** @type {{name: string}} */ row) => row.name.toLowerCase().includes('system')))
  t.is(view.dominators.length, report.dominators.length)
  t.true(report.dominators.length > 0)
  t.like(view.dominators[0], { number: 1, name: report.dominators[0].name, id: report.dominators[0].id })
})

test('the chart draws a limit that is near and ends the projection there; a far one is only stated', async (t) => {
  const report = await seriesReport
  const rate = /** @type {NonNullable<typeof report.rate>} */ (report.rate)
  const limit = /** @type {NonNullable<typeof rate.limit>} */ (rate.limit)
  t.is(limit.kind, 'heap')
  // As the agent's sidecars give it, V8's heap limit is gigabytes away from a heap of megabytes.
  const far = buildChart(report)
  t.true(far.charts.every((chart) => chart.limit === null))
  t.truthy(far.charts.find((chart) => chart.projection !== null))
  // The same series under a heap limit it reaches one series' span after the last snapshot (as a
  // small --max-old-space-size makes it).
  const last = /** @type {number} */ (report.snapshots[2].heapUsed)
  const bytes = last + (limit.bytesPerMinute ?? rate.bytesPerMinute) * rate.minutes
  const near = buildChart({ ...report, rate: { ...rate, limit: { ...limit, bytes, used: last, minutesToLimit: rate.minutes } } })
  const heap = /** @type {typeof near.charts[0]} */ (near.charts.find((chart) => chart.series.some((s) => s.key === 'heapUsed')))
  t.is(heap.limit?.y, bytes)
  t.is(heap.projection?.series, 'heapUsed')
  const end = /** @type {NonNullable<typeof heap.projection>} */ (heap.projection)
  t.is(end.y1, last)
  t.true(Math.abs(end.y2 - bytes) < 1, `${end.y2} ≈ ${bytes}`)
  t.true(heap.yMax >= bytes)
  t.true(near.xMax >= end.x2)
})
