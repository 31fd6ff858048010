// Watch mode and leaks that reach a limit within minutes: the span of steady growth it needs
// shrinks with the time left; the rules that reject a jump, a cache that levels off and a sawtooth
// still hold; a slow leak still needs its windows. The last test runs real processes.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makeInstallDir, startApp, listDir } from '../helpers/agent-child.js'
import { fastTrigger } from '../../src/agent/watch-rules.js'
import { describeTrigger } from '../../src/agent/watch-words.js'

const MB = 2 ** 20
const SLOT = 60_000 // a tenth of the default 10-minute window
const settings = { timeToLimitMs: 1_800_000, windowMs: 600_000 }

/**
 * Runs fastTrigger slot by slot over floors, as watch mode does, until it fires.
 * @param {number[]} floors  MB per slot
 * @param {number} limit     MB
 */
function firstTrigger (floors, limit) {
  for (let n = 1; n <= floors.length; n++) {
    const seen = floors.slice(0, n).map((mb) => mb * MB)
    const times = seen.map((_, i) => (i + 1) * SLOT)
    const found = fastTrigger(seen, times, { ...settings, leftBytes: limit * MB - seen[n - 1] })
    if (found) return { slot: n, ...found }
  }
  return null
}

test('a heap limit of 160 MB and 250 kB/s kept: the series starts about 4 minutes in, with minutes to spare, not after three windows', (t) => {
  // 15 MB a minute from 20 MB: the limit is reached at about 9.3 minutes.
  const floors = Array.from({ length: 9 }, (_, i) => 20 + 15 * i)
  const found = firstTrigger(floors, 160)
  t.truthy(found)
  t.true(/** @type {any} */ (found).slot <= 5, JSON.stringify(found))
  t.true(/** @type {any} */ (found).minutesToLimit >= 4, JSON.stringify(found))
  t.is(Math.round(/** @type {any} */ (found).bytesPerHour / MB), 900)
})

test('a slow leak with hours to the limit is left to the windows', (t) => {
  // 16 MB/h: under 0.3 MB a slot, a 4 GB heap limit days away.
  t.is(firstTrigger(Array.from({ length: 30 }, (_, i) => 500 + 0.27 * i), 4096), null)
})

test('near a limit, a jump, a cache that fills and stops, and a sawtooth start nothing', (t) => {
  const near = 150
  for (const floors of [
    [100, 100, 100, 100, 130, 130, 130, 130, 130], // a warm-up jump
    [100, 115, 130, 130, 130, 130, 130, 130, 130], // a cache that filled and stopped
    [100, 130, 102, 131, 101, 129, 103, 130, 100], // a sawtooth
    [100, 101, 100, 102, 101, 102, 101, 100, 102] // noise
  ]) {
    t.is(firstTrigger(floors, near), null, floors.join(' '))
  }
})

test('the trigger line says what grew: RSS against the memory limit', (t) => {
  const limit = { kind: /** @type {const} */ ('memory'), bytes: 512 * MB, source: 'cgroup v2', minutesToLimit: 6, fraction: 0.7 }
  t.is(describeTrigger({ kind: 'watch', reason: 'time-to-limit', bytesPerHour: 900 * MB, windows: 4, windowMs: 60_000, spanMs: 180_000, heapAfterGc: 13 * MB, limit, measure: 'rss', rss: 360 * MB }),
    'RSS grew 944 MB/h for 3 min; the 537 MB memory limit in ~6 min')
})

/**
 * The first stderr line of `app` matching `pattern`: waits as long as the process lives (a loaded
 * machine slows the leak and the watch alike), up to a generous deadline.
 * @param {import('../helpers/agent-child.js').ChildApp} app
 * @param {RegExp} pattern
 * @returns {Promise<string>}
 */
async function lineOf (app, pattern) {
  const deadline = Date.now() + 180_000
  for (;;) {
    const line = app.stderr().split('\n').find((l) => pattern.test(l))
    if (line !== undefined) return line
    if (app.child.exitCode !== null || app.child.signalCode !== null) throw new Error(`exited (${app.child.exitCode ?? app.child.signalCode}) before ${pattern}; stderr:\n${app.stderr()}`)
    if (Date.now() > deadline) throw new Error(`no ${pattern} in 3 minutes; stderr:\n${app.stderr()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

test('a service that will hit its heap limit in about half a minute: the series is on disk long before; a busy one that does not leak starts nothing', async (t) => {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  const env = {
    LEAKDIFF_DIR: 'snaps',
    LEAKDIFF_SERIES: '2',
    LEAKDIFF_INTERVAL: '6s',
    LEAKDIFF_WATCH: '1',
    // Three windows are 30 s: about when the heap is full. The slots are 1 s.
    LEAKDIFF_WATCH_WINDOW: '10s',
    LEAKDIFF_WATCH_MIN_RATE: '100GB/h'
  }
  const start = (/** @type {boolean} */ leak) => startApp({
    script: 'watch-service.js',
    nodeArgs: ['--heap-growing-percent=15', '--max-old-space-size=128', '--import', 'leakdiff/register'],
    cwd: install.dir,
    env: { ...env, LEAKDIFF_DIR: leak ? 'snaps' : 'control', LEAKDIFF_FIXTURE_LEAK: leak ? '1' : '0' }
  })
  const [leaking, steady] = await Promise.all([start(true), start(false)])
  t.teardown(leaking.stop)
  t.teardown(steady.stop)
  const trigger = await lineOf(leaking, /^leakdiff: watch: /)
  t.regex(trigger, /^leakdiff: watch: heap after GC grew [\d.]+ GB\/h for \d+ s; the [\d.]+ MB heap limit in ~\d+ s; starting a series/)
  const end = await lineOf(leaking, /series .* (complete|failed)/)
  t.regex(end, /complete: 2 of 2 snapshots/)
  const dir = join(install.dir, 'snaps')
  const seriesName = /** @type {string} */ ((await listDir(dir)).find((n) => n.endsWith('.series.json')))
  const series = JSON.parse(await readFile(join(dir, seriesName), 'utf8'))
  t.like(series.trigger, { kind: 'watch', reason: 'time-to-limit', windowMs: 1000, limit: { kind: 'heap' } })
  // Judged on slots, well before three windows.
  t.true(series.trigger.spanMs < 20_000, JSON.stringify(series.trigger))
  t.notRegex(steady.stderr(), /watch:|series \d+-/)
  t.deepEqual(await listDir(join(install.dir, 'control')), [])
})
