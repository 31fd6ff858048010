// Memory outside the JS heap, on real series the agent captured: native memory Node records in the
// snapshot (a zlib context per stream never ended), ArrayBuffer stores kept by small Buffer views,
// and the controls that churn native memory and free it.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { renderDiffReport } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { buildChart } from '../../src/report/html/chart.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { copySeries, sidecarOf } from '../helpers/sidecar-series.js'

const zlibLeak = captureFixture('memory/zlib-streams')
const zlibFixed = captureFixture('memory/zlib-streams', { args: ['fixed'] })
const pooledViews = captureFixture('memory/pooled-views')
const idleWorkers = captureFixture('memory/idle-workers')

test('a zlib stream per request never ended: called native memory, held by Deflate objects, fixed by ending them, projected at the pace of RSS against the memory limit', async (t) => {
  const { files } = await zlibLeak
  const report = await sharedDiff(files)
  const memory = /** @type {NonNullable<typeof report.memory>} */ (report.memory)
  t.is(memory.where, 'native')
  const [zlib] = memory.nativeKinds
  t.is(zlib.name, 'Node / zlib_memory')
  t.deepEqual(zlib.counts, [150, 300, 450])
  t.true(zlib.holders.some((holder) => holder.name.startsWith('Deflate/')), JSON.stringify(zlib.holders))
  // The heap barely grows; native memory is most of the growth.
  t.true(memory.growth.native > 50 * memory.growth.jsHeap, JSON.stringify(memory.growth))
  t.regex(/** @type {string} */ (memory.summary), /native memory \+[\d.]+ MB in Node \/ zlib_memory \(150 → 450\) held by Deflate objects: end, close or destroy each/)

  const finding = report.findings.find((f) => f.owner.name === 'Map')
  t.truthy(finding)
  t.regex(/** @type {any} */ (finding).location.file, /zlib-streams\.js$/)
  const source = await readFile(new URL('../../fixtures/programs/memory/zlib-streams.js', import.meta.url), 'utf8')
  t.is(/** @type {any} */ (finding).location.line, source.split('\n').findIndex((line) => line.includes('compressors.set(')) + 1)
  t.regex(/** @type {any} */ (finding).fix.summary, /^release each Deflate when its work is done: end\(\) it/)
  t.regex(/** @type {any} */ (finding).fix.snippet, /deflate\.end\(\)[\s\S]*compressors\.delete/)
  t.like(/** @type {any} */ (finding).native, { kind: 'Node / zlib_memory', holder: 'Deflate' })

  // RSS reaches the 1 GiB memory limit long before the JS heap, growing at its own pace, reaches
  // V8's: the projection is against the memory limit, at RSS's pace, and says it is the nearer.
  const rate = /** @type {NonNullable<typeof report.rate>} */ (report.rate)
  t.like(rate.limit, { kind: 'memory', bytes: 1024 ** 3, source: 'option' })
  t.is(rate.limit?.bytesPerMinute, /** @type {number} */ (memory.growth.rss) / rate.minutes)
  t.regex(/** @type {string} */ (rate.limit?.nearerThan), /^heap limit/)

  const text = renderDiffReport(report, { color: false, width: 100 })
  t.regex(text, /^heap .*, of which the JS heap [\d.]+ MB → [\d.]+ MB → [\d.]+ MB$/m)
  const flat = text.replace(/\s+/g, ' ')
  t.regex(flat, /the process reaches its 1\.07 GB memory limit \(option; RSS, not the heap\), the nearer of its two limits/)
  t.regex(flat, /RSS [\d.]+ MB → [\d.]+ MB \([+\d.]+ [kMG]?B by the program; the snapshot writes themselves left [\d.]+ MB, not counted\): JS heap/)
  // The HTML chart draws RSS less what the writes left beside RSS, and says so.
  const chart = buildChart(report)
  const series = chart.charts.flatMap((c) => c.series)
  const rss = /** @type {any} */ (series.find((s) => s.key === 'rss'))
  const program = /** @type {any} */ (series.find((s) => s.key === 'rssProgram'))
  t.is(program.points[0].y, rss.points[0].y)
  t.is(rss.points[2].y - program.points[2].y, /** @type {number} */ (memory.growth.writeRss))
  t.true(chart.notes.some((note) => /snapshot writes themselves left/.test(note)))
  // The sidecars record what each write left.
  const sidecar = JSON.parse(await readFile(files[0].replace(/\.heapsnapshot$/, '.meta.json'), 'utf8'))
  t.true(sidecar.memory.writeRssBytes > 0)
  t.is(sidecar.memory.writeRssBytes, Math.max(0, sidecar.memory.after.rss - sidecar.memory.before.rss))
  for (const key of ['rss', 'heapUsed', 'external', 'arrayBuffers']) t.is(typeof sidecar.memory.before[key], 'number', key)
  t.true('cgroup' in sidecar.memory.before && 'cgroup' in sidecar.memory.after)
})

test('the control: streams ended and closed churn native memory and free it, and the report is clean with nothing said about native memory', async (t) => {
  const { files } = await zlibFixed
  const report = await sharedDiff(files)
  t.is(report.verdict, 'clean', report.reason)
  t.is(report.memory?.summary, null)
  t.deepEqual(report.memory?.nativeKinds, [])
})

test('small Buffer views that each keep a pooled slab: the growth is ArrayBuffer stores, and the Map that holds the views is the finding', async (t) => {
  const { files } = await pooledViews
  const report = await sharedDiff(files)
  const memory = /** @type {NonNullable<typeof report.memory>} */ (report.memory)
  t.true(memory.growth.backingStores > 5 * memory.growth.jsHeap, JSON.stringify(memory.growth))
  t.regex(/** @type {string} */ (memory.summary), /ArrayBuffer\/Buffer stores \+[\d.]+ MB/)
  const finding = report.findings[0]
  t.is(finding.signature, 'unbounded-collection')
  t.regex(finding.path.map((step) => step.edge).join(' '), /tokens/)
  // Two ~3.5 kB bodies share each 8 KiB pool slab: each view keeps its share of a slab, and the fix
  // copies the bytes, written into the program's own write, rather than bounding a cache.
  const stores = /** @type {{viewClass: string, storeBytes: number, sharedBy: number, share: number}} */ (finding.evidence.backingStore)
  // Views per store among the sampled ones: 2, give or take the slab a sample starts or ends in.
  t.like(stores, { viewClass: 'Buffer', storeBytes: 8192 })
  t.true(Math.abs(stores.sharedBy - 2) < 0.1, String(stores.sharedBy))
  t.true(stores.share > 0.9, String(stores.share))
  t.true(finding.evidence.notes.some((note) => note.startsWith('an 8 KiB store shared by a few views is one of the slabs Node cuts small buffers from')), finding.evidence.notes.join('\n'))
  const source = await readFile(new URL('../../fixtures/programs/memory/pooled-views.js', import.meta.url), 'utf8')
  t.is(/** @type {any} */ (finding).location.line, source.split('\n').findIndex((line) => line.includes('tokens.set(')) + 1)
  t.regex(finding.fix.summary, /shared by 2 entries' views .* Copy the part you keep \(Buffer\.from\(body\.subarray\(0, 16\)\)\)/)
  t.is(finding.fix.snippet.split('\n').at(-1), 'tokens.set(id, Buffer.from(body.subarray(0, 16)))')
  t.notRegex(finding.fix.snippet, /LRUCache/)
})

test('RSS that nothing in the snapshots explains, gained in the first step only (a process warming up under load), is no growth outside the heap', async (t) => {
  const { files } = await idleWorkers
  const metas = await Promise.all(files.map(sidecarOf))
  /**
   * The same heaps, with sidecars that read `steps` more RSS by the program in each step (each
   * write's own RSS on top, as the readings count it).
   * @param {number[]} steps
   */
  const withRss = (steps) => {
    const rss = [metas[0].memory.before.rss]
    for (const [k, step] of steps.entries()) rss.push(rss[k] + metas[k].memory.writeRssBytes + step)
    return copySeries(files, (meta, i) => ({ ...meta, memory: { ...meta.memory, before: { ...meta.memory.before, rss: rss[i] } } }))
  }
  const report = await sharedDiff(await withRss([40e6, 0.5e6]))
  const memory = /** @type {NonNullable<typeof report.memory>} */ (report.memory)
  t.true(/** @type {number} */ (memory.growth.rest) > 16 * 2 ** 20, JSON.stringify(memory.growth))
  t.not(memory.where, 'outside')
  t.is(memory.summary, null)
  t.notRegex(report.reason, /outside the JS heap|MALLOC_ARENA_MAX/)
  // As much spread over both steps is growth that goes on.
  const going = await sharedDiff(await withRss([20e6, 20e6]))
  t.is(/** @type {NonNullable<typeof going.memory>} */ (going.memory).where, 'outside')
})

test('the heap flat, RSS growing in what no snapshot of this thread records: not a bare CLEAN but one line that says what grew and what to try', async (t) => {
  const { files } = await idleWorkers
  const report = await sharedDiff(files)
  t.is(report.verdict, 'inconclusive', report.reason)
  const memory = /** @type {NonNullable<typeof report.memory>} */ (report.memory)
  t.is(memory.where, 'outside')
  t.deepEqual(memory.workers, [3, 6, 9])
  t.true(/** @type {number} */ (memory.growth.rest) > 16 * 2 ** 20, JSON.stringify(memory.growth))
  t.regex(report.reason, /^no owner kept .*, but memory outside the JS heap grows: RSS \+[\d.]+ MB \(not counting [\d.]+ MB the snapshot writes left\), JS heap \+[\d.]+ kB; 6 more worker threads \(3 → 9\)[^;]*terminate\(\)[^;]*; \+[\d.]+ MB of RSS is in nothing the snapshot records.*MALLOC_ARENA_MAX=2, or jemalloc/)
  // Said once in the text: in the verdict.
  const text = renderDiffReport(report, { color: false, width: 100 })
  t.is(text.replace(/\s+/g, ' ').split('memory outside the JS heap grows').length, 2)
  t.regex(text, /^INCONCLUSIVE {2}/m)
})
