// The agent's sidecars in the diff: capture times, the process, the rate of growth and the time to
// the heap limit; sidecars that name different processes force a comparison by class totals.
import test from 'ava'
import { renderDiffReport, renderHtmlReport } from 'leakdiff'
import { diff } from '../helpers/cli-in-process.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { htmlViewOf } from '../helpers/html-view.js'
import { copySeries, sidecarOf } from '../helpers/sidecar-series.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

const series = captureFixture('diff/agent-series')

test('sidecars give capture times, the process, the rate and the time to the heap limit', async (t) => {
  const { files, report: printed } = await series
  const metas = await Promise.all(files.map(sidecarOf))
  const report = await sharedDiff(files)
  t.is(report.verdict, 'leak', report.reason)
  report.snapshots.forEach((snapshot, i) => {
    // takenAt less uptime is when the process started, however long the write took (a restart
    // is told from it).
    t.true(Math.abs(Date.parse(metas[i].takenAt) - metas[i].uptimeSeconds * 1000 - printed.startedAt) < 50, `sidecar ${i + 1}`)
    t.is(snapshot.takenAt, metas[i].takenAt)
    t.is(snapshot.takenAtSource, 'sidecar')
    t.is(snapshot.pid, printed.pid)
  })
  t.deepEqual(report.process, { pid: printed.pid, hostname: metas[0].hostname, nodeVersion: process.version, script: metas[0].script })
  const rate = /** @type {NonNullable<typeof report.rate>} */ (report.rate)
  const minutes = (Date.parse(metas[2].takenAt) - Date.parse(metas[0].takenAt)) / 60_000
  t.is(rate.minutes, minutes)
  t.is(rate.bytes, report.snapshots[2].totalSize - report.snapshots[0].totalSize)
  t.true(rate.bytesPerMinute > 0)
  t.is(rate.limit?.kind, 'heap')
  // The old generation's limit (heap_size_limit, which the program printed, less the young
  // generation's reserve), reached where V8 gives up, at 80 % of it (src/agent/heap-limit.js).
  const { heapLimit } = metas[2]
  t.is(rate.limit?.bytes, heapLimit.bytes)
  t.true(heapLimit.bytes < printed.limit && heapLimit.bytes >= printed.limit / 2, `${heapLimit.bytes} of ${printed.limit}`)
  t.is(heapLimit.giveUpBytes, 0.8 * heapLimit.bytes)
  t.is(rate.limit?.source, 'old generation')
  t.is(rate.limit?.used, metas[2].heapStatistics.used_heap_size)
  t.is(rate.limit?.minutesToLimit, (heapLimit.giveUpBytes - metas[2].heapStatistics.used_heap_size) / (rate.limit?.bytesPerMinute ?? NaN))

  const text = renderDiffReport(report, { color: false })
  const lines = text.split('\n')
  t.regex(lines[0], new RegExp(`^leakdiff 3 snapshots of pid ${printed.pid} on `))
  t.true(text.includes(`${metas[0].takenAt.slice(11, 19)} → ${metas[1].takenAt.slice(11, 19)} → ${metas[2].takenAt.slice(11, 19)} UTC`))
  t.regex(text, /retained in \d+ s \(\+[\d.]+ [kMG]?B\/min\)/)
  t.regex(text, /at this rate the heap reaches its [\d.]+ GB limit in about /)
  t.regex(renderDiffReport(report, { format: 'markdown' }), /- at this rate the heap reaches its/)
})

test('sidecars naming two pids: a warning and a comparison by class totals, whatever the ids say', async (t) => {
  const { files } = await series
  const copies = await copySeries(files.slice(0, 2), (meta, i) => ({ ...meta, pid: meta.pid + i }))
  const report = await sharedDiff(copies)
  t.is(report.comparison, 'aggregates')
  t.is(report.verdict, 'inconclusive')
  t.deepEqual(report.growth, [])
  t.is(report.process, null)
  t.regex(report.warnings.join('\n'), /sidecars name different processes \(pids \d+ and \d+\)/)
  // The ids do line up (it is one process): said too, so that the user can check the files.
  t.regex(report.warnings.join('\n'), /as in one process; the sidecars may belong to other snapshots/)
})

/**
 * What each format says about the rate and the time to a limit.
 * @param {import('leakdiff').DiffReport} report
 */
function rateTexts (report) {
  const view = htmlViewOf(renderHtmlReport(report))
  return {
    text: renderDiffReport(report, { color: false }),
    markdown: renderDiffReport(report, { format: 'markdown' }),
    json: JSON.parse(renderDiffReport(report, { format: 'json' })).rate,
    html: /** @type {string[]} */ (view.rate).join('\n'),
    projections: /** @type {any[]} */ (view.chart.charts).filter((chart) => chart.projection !== null || chart.limit !== null).length,
    notes: /** @type {string[]} */ (view.chart.notes).join('\n')
  }
}

test('two processes: no rate and no time to a limit in any format', async (t) => {
  const { files } = await series
  const copies = await copySeries(files, (meta, i) => ({ ...meta, pid: meta.pid + i }))
  const report = await sharedDiff(copies)
  t.is(report.verdict, 'inconclusive')
  t.is(report.rate, null)
  const { text, markdown, json, html, projections, notes } = rateTexts(report)
  for (const output of [text, markdown, html, notes]) {
    t.notRegex(output, /\/min|at this rate|limit/)
  }
  t.is(json, null)
  t.is(projections, 0)
})

test('a clean verdict: what the heap gained, but no pace per minute and no time to the heap limit in any format, and no projection drawn', async (t) => {
  // The cache fills after the first snapshot only: a warm-up, so the heap grew and nothing leaks.
  const { files } = await captureFixture('diff/agent-series', { args: ['once'] })
  const report = await sharedDiff(files)
  t.is(report.verdict, 'clean', report.reason)
  t.true(/** @type {NonNullable<typeof report.rate>} */ (report.rate).bytesPerMinute > 0, 'the heap grew')
  const { text, markdown, json, html, projections, notes } = rateTexts(report)
  // A few seconds of warm-up, extrapolated to a minute, would read as an alarm.
  t.regex(text, /retained in \d+ s, by no leaking owner$/m)
  t.notRegex(text, /\/min/)
  for (const output of [text, markdown, html, notes]) t.notRegex(output, /at this rate|reaches its|limit/)
  t.is(json.limit, null)
  t.is(projections, 0)
})

test('the same pid after a restart is another process', async (t) => {
  const { files } = await series
  const copies = await copySeries(files.slice(0, 2), (meta, i) => ({ ...meta, uptimeSeconds: i === 1 ? meta.uptimeSeconds + 3600 : meta.uptimeSeconds }))
  const report = await sharedDiff(copies)
  t.is(report.comparison, 'aggregates')
  t.regex(report.warnings.join('\n'), /started at .* \(a restart\)/)
})

test('without sidecars the time is the file\'s and there is no rate; a broken sidecar is ignored with a warning', async (t) => {
  const { files } = await series
  const copies = await copySeries(files.slice(0, 2), (meta, i) => (i === 0 ? undefined : '{"kind": "something else"}'))
  const report = await sharedDiff(copies)
  t.is(report.comparison, 'ids')
  t.is(report.snapshots[0].takenAtSource, 'mtime')
  t.is(report.snapshots[1].takenAtSource, 'mtime')
  t.is(report.rate, null)
  t.is(report.process, null)
  t.regex(report.warnings.join('\n'), /ignored .*2\.meta\.json: expected a leakdiff sidecar/)
  t.regex(renderDiffReport(report, { color: false }).split('\n')[0], /^leakdiff 2 snapshots: 1\.heapsnapshot → 2\.heapsnapshot$/)
})

// The diff command's handler in this process; sidecars.e2e.test.js runs the CLI itself once so.
test('the CLI prints the class totals of two processes, then fails with exit 2 and the reason on one line', async (t) => {
  const { files } = await series
  const copies = await copySeries(files.slice(0, 2), (meta, i) => ({ ...meta, pid: meta.pid + i }))
  const { stdout, stderr, code } = await diff(copies)
  t.is(code, 2)
  t.regex(stdout, /^INCONCLUSIVE {2}the snapshots come from different processes/m)
  t.regex(stdout, /^Classes \(top \d+ by Δsize\)/m)
  t.regex(stderr, /^leakdiff: the snapshots' sidecars name different processes \(pids \d+ and \d+\), so only class totals are compared\n$/)
})
