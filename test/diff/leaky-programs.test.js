import test from 'ava'
import { diffSnapshots } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'

/** @type {Map<string, ReturnType<typeof diffSnapshots>>} */
const reports = new Map()

/**
 * One full report (every row) per program and test process, shared by the tests that only read it.
 * @param {string} program
 */
function reportOf (program) {
  let report = reports.get(program)
  if (!report) {
    report = captureFixture(program).then(({ files }) => diffSnapshots(files, { top: 0 }))
    reports.set(program, report)
  }
  return report
}

// Each program holds its growth in one named object; the diff must name that object first.
const LEAKS = [
  { program: 'diff/map-cache', name: 'Map', edges: ['cache'] },
  { program: 'diff/array-log', name: 'Array', edges: ['log'] },
  { program: 'diff/object-cache', name: 'Object', edges: ['sessions'] },
  { program: 'diff/listeners', name: 'Array', edges: ['bus', '_events', 'config'] }
]

for (const { program, name, edges } of LEAKS) {
  test(`${program}: the top growth owner is the object that grows, and the verdict is leak`, async (t) => {
    const report = await reportOf(program)
    t.is(report.verdict, 'leak', report.reason)
    const [top] = report.growth
    t.is(top.owner.name, name)
    t.is(top.owner.type, 'object')
    t.true(top.leak)
    t.is(top.ownerCount, 1)
    t.deepEqual(top.path.slice(-edges.length).map((step) => step.edge), edges)
    t.is(top.path.at(-1)?.id, top.owner.id)
    // 1,000 requests per round, each leaving a handful of objects.
    t.true(top.leakedObjects >= 1000 && top.leakedObjects <= 10_000, `leakedObjects ${top.leakedObjects}`)
    t.true(top.recentObjects >= 1000, `recentObjects ${top.recentObjects}`)
    t.true(top.retainedBefore < /** @type {number} */ (top.retainedMiddle) && /** @type {number} */ (top.retainedMiddle) < top.retainedAfter)
    t.true(top.retainedAfter - top.retainedBefore >= top.leakedBytes)
    // Only one owner leaks: the rest of the heap is engine noise below the thresholds.
    t.is(report.growth.filter((g) => g.leak).length, 1)
  })
}

test('diff/map-cache: the class table counts the cache entries as new objects', async (t) => {
  const report = await reportOf('diff/map-cache')
  const entries = report.classes.find((row) => row.name === '{user, items}')
  t.truthy(entries)
  // 2,000 requests between snapshot 1 and 3, one response object each, none freed.
  t.is(entries?.newCount, 2000)
  t.is(entries?.deletedCount, 0)
  t.is(entries?.countDelta, 2000)
  t.true(/** @type {number} */ (entries?.sizeDelta) > 0)
  for (const row of report.classes) t.is(row.countDelta, row.newCount - row.deletedCount)
})

test('diff/map-cache with two snapshots still finds the cache', async (t) => {
  const { files } = await captureFixture('diff/map-cache')
  const report = await diffSnapshots(files.slice(0, 2))
  t.is(report.verdict, 'leak')
  t.is(report.snapshots.length, 2)
  t.is(report.growth[0].owner.name, 'Map')
  t.is(report.growth[0].path.at(-1)?.edge, 'cache')
  t.is(report.growth[0].retainedMiddle, null)
})

test('snapshots given newest first are refused with a one-line message', async (t) => {
  const { files } = await captureFixture('diff/map-cache')
  const error = await t.throwsAsync(diffSnapshots([files[1], files[0]]))
  t.is(/** @type {any} */ (error).code, 'LEAKDIFF_SNAPSHOT_MISMATCH')
  t.regex(error.message, /oldest first/)
  t.false(error.message.includes('\n'))
})

test('snapshots of two processes are compared by class totals only and come out inconclusive', async (t) => {
  const [first, second] = await Promise.all([
    captureFixture('diff/map-cache'),
    // A second run of the same program: same code, unrelated ids.
    captureFixture('diff/map-cache', { nodeArgs: ['--expose-gc', '--max-old-space-size=512'] })
  ])
  const report = await diffSnapshots([first.files[0], second.files[2]])
  t.is(report.verdict, 'inconclusive')
  t.is(report.comparison, 'aggregates')
  t.deepEqual(report.growth, [])
  t.regex(report.warnings.join('\n'), /do not come from one process/)
  const entries = report.classes.find((row) => row.name === '{user, items}')
  t.is(entries?.countDelta, 2000)
})

test('parsing in worker threads gives the same report as parsing on one thread', async (t) => {
  const { files } = await captureFixture('diff/array-log')
  t.deepEqual(await diffSnapshots(files, { parallel: true, top: 0 }), await reportOf('diff/array-log'))
})

test('a file that cannot be read fails with its code from the worker thread', async (t) => {
  const { files } = await captureFixture('diff/array-log')
  const error = await t.throwsAsync(diffSnapshots([files[0], `${files[0]}.missing`], { parallel: true }))
  t.is(/** @type {any} */ (error).code, 'LEAKDIFF_SNAPSHOT_READ')
  t.true(error.message.includes('.missing'), error.message)
})

test('diff/per-user-history: twenty owners with one path shape are one row', async (t) => {
  const report = await reportOf('diff/per-user-history')
  t.is(report.verdict, 'leak', report.reason)
  const [top] = report.growth
  t.is(top.ownerCount, 20)
  t.is(top.owner.name, 'Array')
  t.is(top.path.at(-1)?.edge, 'history')
  t.true(top.path.some((step) => step.edge === 'users' && step.node === 'Map'))
  // 1,500 requests per round, one entry object and one string each, spread over the twenty users.
  t.is(top.leakedObjects, 3000)
  t.is(top.recentObjects, 3000)
  t.is(report.growth.filter((g) => g.leak).length, 1)
})

test('diff/nested-owners: an owner nested in another ranks by its own growth, not below its container', async (t) => {
  const report = await reportOf('diff/nested-owners')
  t.is(report.verdict, 'leak', report.reason)
  const rows = report.growth.filter((g) => g.leak)
  // The module scope holds the shared keys and dominates both containers, so its retained growth is
  // the largest; ranked by what it alone adds, it comes after the cache, which holds the bodies.
  const scope = rows.findIndex((g) => g.owner.name === 'system / Context')
  t.true(scope > 0, `rows ${rows.map((g) => g.owner.name)}`)
  t.deepEqual(rows[0].path.slice(-1).map((step) => step.edge), ['cache'])
  const scopeGrowth = rows[scope].retainedAfter - rows[scope].retainedBefore
  t.true(scopeGrowth > rows[0].retainedAfter - rows[0].retainedBefore)
})
