import test from 'ava'
import { diffSnapshots } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

test('diff/churn: heavy allocation that keeps nothing plus a one-time lazy init is clean', async (t) => {
  const { files } = await captureFixture('diff/churn')
  const report = await sharedDiff(files, { top: 0 })
  t.is(report.verdict, 'clean', report.reason)
  t.deepEqual(report.growth.filter((g) => g.leak), [])
  // The lazy table is there, as growth that stopped after the first step.
  const table = report.growth.find((g) => g.classes.some((c) => c.name === '{label}' && c.count === 2000))
  t.truthy(table, JSON.stringify(report.growth.map((g) => g.classes)))
  t.is(table?.recentObjects, 0)
  // The reason says what else stops growth than an initialisation: a load that stopped (a user who
  // sent traffic, then captured).
  t.regex(report.reason, /grew once but not in the last step: a one-time initialisation, or a load that stopped before the last snapshot/)
  // 1,000 requests x 50 rows were allocated per round and all freed.
  t.true(report.summary.leakedObjects < 10_000)
})

test('diff/churn: lowering the thresholds does not turn stopped growth into a leak', async (t) => {
  const { files } = await captureFixture('diff/churn')
  const report = await sharedDiff(files, { minBytes: 1024, minObjects: 5 })
  t.is(report.verdict, 'clean', report.reason)
})

test('diff/slowing-cache: a leak whose last step has a twelfth of the traffic still leaks, since that step alone passes the thresholds', async (t) => {
  const { files } = await captureFixture('diff/slowing-cache')
  const report = await sharedDiff(files)
  t.is(report.verdict, 'leak', report.reason)
  const [row] = report.growth
  t.true(row.leak)
  t.true(row.recentObjects < 0.1 * row.leakedObjects, 'slower than a tenth of the first pace')
  t.deepEqual(report.findings.map((f) => f.signature), ['unbounded-collection'])
})

test('thresholds must be numbers >= 0', async (t) => {
  const { files } = await captureFixture('diff/churn')
  const error = await t.throwsAsync(diffSnapshots(files.slice(0, 2), { minBytes: -1 }))
  t.is(/** @type {any} */ (error).code, 'LEAKDIFF_INVALID_ARG')
  t.regex(error.message, /`minBytes`.*-1/)
})

test('the snapshots must be an array of two or three', async (t) => {
  const { files } = await captureFixture('diff/churn')
  for (const sources of [files[0], { files }]) {
    const error = await t.throwsAsync(diffSnapshots(/** @type {any} */ (sources)))
    t.is(/** @type {any} */ (error).code, 'LEAKDIFF_INVALID_ARG')
    t.regex(error.message, /^Expected an array of 2 or 3 snapshots, got /)
  }
  await t.throwsAsync(diffSnapshots(files.slice(0, 1)), { code: 'LEAKDIFF_INVALID_ARG', message: 'Expected 2 or 3 snapshots, got 1' })
})
