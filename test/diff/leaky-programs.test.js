import test from 'ava'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { diffSnapshots, renderDiffReport } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { tempDir } from '../helpers/temp-dir.js'
import { markedPosition } from '../helpers/fixture-source.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

/** @type {Map<string, ReturnType<typeof diffSnapshots>>} */
const reports = new Map()

/**
 * One full report (every row) per program and test process, shared by the tests that only read it.
 * @param {string} program
 */
function reportOf (program) {
  let report = reports.get(program)
  if (!report) {
    report = captureFixture(program).then(({ files }) => sharedDiff(files, { top: 0 }))
    reports.set(program, report)
  }
  return report
}

// Each program holds its growth in one named object; the diff must name that object first, and its
// path must read as the module variable that holds it (readable paths: readable-paths.test.js).
const LEAKS = [
  { program: 'diff/map-cache', name: 'Map', edges: ['cache'], pathText: '(GC roots) → module fixtures/programs/diff/map-cache.js → cache (Map)' },
  { program: 'diff/array-log', name: 'Array', edges: ['log'], pathText: '(GC roots) → module fixtures/programs/diff/array-log.js → log (Array)' },
  { program: 'diff/object-cache', name: 'Object', edges: ['sessions'], pathText: '(GC roots) → module fixtures/programs/diff/object-cache.js → sessions (Object)' },
  {
    program: 'diff/listeners',
    name: 'Array',
    edges: ['bus', '_events', 'config'],
    pathText: '(GC roots) → module fixtures/programs/diff/listeners.js → bus (EventEmitter) → _events → config (Array)'
  }
]

for (const { program, name, edges, pathText } of LEAKS) {
  test(`${program}: the top growth owner is the object that grows, read as a module variable, and the verdict is leak`, async (t) => {
    const report = await reportOf(program)
    t.is(report.verdict, 'leak', report.reason)
    const [top] = report.growth
    t.is(top.owner.name, name)
    t.is(top.owner.type, 'object')
    t.true(top.leak)
    t.is(top.ownerCount, 1)
    t.deepEqual(top.path.slice(-edges.length).map((step) => step.edge), edges)
    t.is(top.pathText, pathText)
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
  const report = await sharedDiff(files.slice(0, 2))
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
  const report = await sharedDiff([first.files[0], second.files[2]])
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

test('a file that cannot be read fails with its code, read here or in the worker thread', async (t) => {
  const { files } = await captureFixture('diff/array-log')
  // Unreadable, it counts as the smallest: this thread reads it first.
  const error = await t.throwsAsync(diffSnapshots([files[0], `${files[0]}.missing`], { parallel: true }))
  t.is(/** @type {any} */ (error).code, 'LEAKDIFF_SNAPSHOT_READ')
  t.true(error.message.includes('.missing'), error.message)
  // Cut short and still the larger file: the worker parses it, and its error crosses to this thread.
  const bytes = await readFile(files[2])
  t.true(bytes.length - 100 > (await readFile(files[0])).length)
  const cut = join(await tempDir('leakdiff-worker-error-'), 'cut.heapsnapshot')
  await writeFile(cut, bytes.subarray(0, bytes.length - 100))
  const parsed = await t.throwsAsync(diffSnapshots([files[0], cut], { parallel: true }))
  t.is(/** @type {any} */ (parsed).code, 'LEAKDIFF_SNAPSHOT_FORMAT')
  t.true(parsed.message.includes('cut.heapsnapshot'), parsed.message)
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

test('diff/file-watchers: watchers held only by their native handles are a row of new owners below the roots, and a leak', async (t) => {
  const report = await reportOf('diff/file-watchers')
  t.is(report.verdict, 'leak', report.reason)
  const rows = report.growth.filter((g) => g.leak)
  t.is(rows.length, 1)
  const [row] = rows
  // One FSEvent handle per request, 1,000 per round; the 100 of the warm-up existed in the baseline.
  t.is(row.owner.name, 'FSEvent')
  t.is(row.ownerCount, 2000)
  t.is(row.retainedBefore, 0)
  t.true(/** @type {number} */ (row.retainedMiddle) > 0 && row.retainedAfter > /** @type {number} */ (row.retainedMiddle))
  t.deepEqual(row.entryClass, { name: 'FSEvent', count: 2000 })
  // Held straight from a root category: every step before the owner is a synthetic root node.
  t.is(row.path.at(-1)?.id, row.owner.id)
  t.true(row.path.length >= 2)
  t.true(row.path.slice(0, -1).every((step) => step.nodeType === 'synthetic'), JSON.stringify(row.path))
  // Node 20 makes the native wrapper a root of its own; Node 22 and 24 hold the object from
  // `(Global handles)` and list the wrapper beside it, off the path.
  t.regex(row.pathText, /^\(GC roots\) → (?:Node \/ FSEventWrap → )?\(FSEvent\)$/)
  // What each handle holds: its watcher, the listener and the request the listener captures.
  t.is(row.classes.find((c) => c.name === 'FSWatcher')?.count, 2000)
  t.true(row.leakedObjects >= 5 * 1000 && row.recentObjects >= 5 * 1000, `${row.leakedObjects} ${row.recentObjects}`)
  t.true(report.summary.leakedObjects >= row.leakedObjects)
  // open-handles names the wrapper the program got, the listener it handed over, and close().
  const [finding] = report.findings
  t.is(finding?.signature, 'open-handles')
  t.deepEqual(finding.evidence.counts, [100, 1100, 2100])
  t.regex(finding.title, /^FSWatcher \(FSEvent\) handles are opened and never closed/)
  const { file, line, column } = markedPosition('diff/file-watchers', '// leak: watcher per request', '() =>')
  t.like(finding.location, { file, line, column })
  t.regex(finding.fix.snippet, /handle\.close\(\)/)
})

test('diff/file-watchers with two snapshots: the new handles count as added to the roots', async (t) => {
  const { files } = await captureFixture('diff/file-watchers')
  const report = await sharedDiff(files.slice(0, 2))
  t.is(report.verdict, 'leak', report.reason)
  t.is(report.growth[0].owner.name, 'FSEvent')
  t.is(report.growth[0].ownerCount, 1000)
  t.regex(report.reason, /1,000 new FSEvent objects held straight from the GC roots/)
  t.deepEqual(report.findings.map((f) => f.signature), ['open-handles'])
})

test('diff/file-watchers fixed: watchers closed after each request leave no row and no finding', async (t) => {
  const { files } = await captureFixture('diff/file-watchers', { args: ['fixed'] })
  for (const series of [files, files.slice(0, 2)]) {
    const report = await sharedDiff(series, { top: 0 })
    t.is(report.verdict, 'clean', report.reason)
    t.deepEqual(report.growth.filter((g) => g.leak), [])
    t.deepEqual(report.findings, [])
    t.false(report.growth.some((g) => g.owner.name === 'FSEvent'))
  }
})

test('diff/shared-keys: the scope around two leaks holds what both keep, and its row says it goes with them', async (t) => {
  const report = await reportOf('diff/shared-keys')
  t.is(report.verdict, 'leak', report.reason)
  const rows = report.growth.filter((g) => g.leak)
  const byPath = (/** @type {RegExp} */ pattern) => rows.find((row) => pattern.test(row.pathText))
  const cache = byPath(/→ responses \(Map\)$/)
  const list = byPath(/→ listeners \(Array\)$/)
  const scope = byPath(/→ module fixtures\/programs\/diff\/shared-keys\.js$/)
  t.truthy(cache && list && scope, rows.map((row) => row.pathText).join('\n'))
  t.deepEqual(cache?.sharedWith, [])
  t.deepEqual(list?.sharedWith, [])
  // The URLs: 2,000 new strings, each kept by a cache key and by a listener's scope.
  t.deepEqual(scope?.sharedWith.map((share) => share.ownerId).sort(), [cache?.owner.id, list?.owner.id].sort())
  for (const share of scope?.sharedWith ?? []) t.true(share.objects >= 2000, `${share.objects}`)
  // It follows the leaks it goes with, and the text says so.
  t.true(rows.indexOf(/** @type {any} */ (scope)) === 2, rows.map((row) => row.pathText).join('\n'))
  t.regex(renderDiffReport(report, { color: false }), /shared: 2,000 of these new objects are also held by rows 1 and 2;/)
})

test('diff/two-roots-log: a log whose new records keep ids below two roots gives one finding, not one per row', async (t) => {
  const report = await reportOf('diff/two-roots-log')
  t.is(report.verdict, 'leak', report.reason)
  const rows = report.growth.filter((g) => g.leak)
  // The log's own row and the ids' row (each id its own owner, on a path through the log).
  t.truthy(rows.find((row) => /→ accessLog \(Array\)$/.test(row.pathText)), rows.map((row) => row.pathText).join('\n'))
  t.truthy(rows.find((row) => row.ownerCount > 1000 && /→ accessLog \(Array\) → /.test(row.pathText)), rows.map((row) => row.pathText).join('\n'))
  t.deepEqual(report.findings.map((f) => `${f.signature} ${f.path.at(-1)?.edge}`), ['unbounded-collection sessions', 'growing-array accessLog'])
  t.is(report.findings[1].confidence, 0.95)
})

test('diff/presized-map: when a Map\'s old table owns the growth, the verdict names the Map it belongs to', async (t) => {
  const report = await reportOf('diff/presized-map')
  t.is(report.verdict, 'leak', report.reason)
  const [top] = report.growth
  // The premise: the owner is the table, not the Map.
  t.is(top.owner.name, '(array)')
  t.is(top.path.at(-2)?.edge, 'cache')
  t.regex(report.reason, /the largest is cache \(Map\)'s table \(array\) @\d+ \(/)
  t.deepEqual(report.findings.map((f) => `${f.signature} ${f.title.split(' ')[0]}`), ['unbounded-collection cache'])
})
