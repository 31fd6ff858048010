// assertNoLeak diffs its snapshots on a worker thread, kept between assertions that follow each
// other: the second diff is made by the warm thread the first one started, an analysis that fails
// leaves the thread usable, and the reports are diffSnapshots' own.
import test from 'ava'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { Worker } from 'node:worker_threads'
import { analyzeOnThread } from '../../src/soak/analysis-thread.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'

const THRESHOLDS = { minObjects: 30, minBytes: 8 * 1024 }
const SOURCES = { sourceMaps: null, sourceRoots: [] }

test('diffs in a row are made by one thread, which a failed analysis leaves usable; the reports are diffSnapshots\'', async (t) => {
  const { files } = await captureFixture('diff/map-cache')
  const started = /** @type {Worker[]} */ ([])
  const onWorker = (/** @type {any} */ message) => { if (message.worker instanceof Worker) started.push(message.worker) }
  subscribe('worker_threads', onWorker)
  try {
    const [first] = await analyzeOnThread({ series: [files], cwd: ROOT, thresholds: THRESHOLDS, sources: SOURCES })
    await t.throwsAsync(analyzeOnThread({ series: [[`${files[0]}.missing`, files[1]]], cwd: ROOT, thresholds: THRESHOLDS, sources: SOURCES }),
      { code: 'LEAKDIFF_SNAPSHOT_READ', message: /^Expected to diff the assertion's snapshots, but the analysis failed: / })
    const [second, own] = await analyzeOnThread({ series: [files.slice(0, 2), files], cwd: ROOT, thresholds: THRESHOLDS, sources: SOURCES })
    t.is(started.length, 1, 'one analysis thread for the three requests')

    const direct = await sharedDiff(files, { top: 0, cwd: ROOT, ...THRESHOLDS })
    for (const report of [first, own]) {
      t.is(report.verdict, direct.verdict)
      t.deepEqual(report.findings.map((finding) => [finding.signature, finding.location]), direct.findings.map((finding) => [finding.signature, finding.location]))
      t.deepEqual(report.growth.map((row) => row.pathText), direct.growth.map((row) => row.pathText))
    }
    t.is(second.snapshots.length, 2)
  } finally {
    unsubscribe('worker_threads', onWorker)
  }
})
