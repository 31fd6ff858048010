// With two snapshots a one-time initialisation and a leak both add objects that stay. The verdict
// is `leak` only when the growth has the shape of accumulation (many new entries of one class in a
// container that existed before); otherwise it says to take a third snapshot.
import test from 'ava'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

test('diff/lazy-init: a lazily built table between two snapshots is not called a leak', async (t) => {
  const { files } = await captureFixture('diff/lazy-init')
  t.is(files.length, 2)
  const report = await sharedDiff(files, { top: 0 })
  t.is(report.verdict, 'inconclusive', report.reason)
  t.regex(report.reason, /third snapshot/)
  t.deepEqual(report.growth.filter((g) => g.leak), [])
  // The growth is there and large: 1,500 routes and 1,500 messages, all under one new Map and one
  // new object, which are the only new entries of the module scope that holds them.
  const [top] = report.growth
  t.true(top.leakedBytes >= 64 * 1024 && top.leakedObjects >= 3000, `${top.leakedObjects} objects, ${top.leakedBytes} bytes`)
  t.true(top.entries <= 2, `entries ${top.entries}`)
})

test('diff/churn with its first two snapshots (lazy init plus churn) is inconclusive too', async (t) => {
  const { files } = await captureFixture('diff/churn')
  const report = await sharedDiff(files.slice(0, 2))
  t.is(report.verdict, 'inconclusive', report.reason)
})

const LEAKS = ['diff/map-cache', 'diff/array-log', 'diff/object-cache', 'diff/listeners', 'diff/per-user-history', 'diff/cjs/flag-store']

for (const program of LEAKS) {
  test(`${program} with two snapshots is still a leak, as accumulation`, async (t) => {
    const { files } = await captureFixture(program)
    const report = await sharedDiff(files.slice(0, 2))
    t.is(report.verdict, 'leak', report.reason)
    const [top] = report.growth
    t.true(top.leak)
    t.true(/** @type {{count: number}} */ (top.entryClass).count >= 1000, JSON.stringify(top.entryClass))
    t.regex(report.reason, /entries of a container that existed before/)
  })
}
