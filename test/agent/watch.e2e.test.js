// Watch mode in real processes: the agent starts a series by itself when the heap after GC keeps
// growing, stays quiet for a busy service that does not leak, and refuses once when memory is short.
// The trend, the trigger line and the settings are watch.test.js's.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makeInstallDir, startApp, get, listDir, ROOT } from '../helpers/agent-child.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { execFileWithin, loadFactor, scaledMs } from '../helpers/load-deadline.js'
import { renderDiffReport } from 'leakdiff'

// A starved service ticks slower: the quiet one's warm-up (a cache that fills in 100 ticks, a table
// loaded at tick 150) then spans seconds of growth. Windows as long as the machine is slow keep the
// control's warm-up a jump and a level, as it is on an idle machine.
const WINDOW_S = Math.min(4, Math.ceil(loadFactor()))

/**
 * @param {import('ava').ExecutionContext} t
 * @param {{leak: boolean, env?: Record<string, string>, nodeArgs?: string[]}} options
 */
async function serviceIn (t, { leak, env = {}, nodeArgs = [] }) {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  const app = await startApp({
    script: 'watch-service.js',
    // V8 grows the old generation by a factor each major GC; a real service's heap is large enough
    // that a 10-minute window sees many major GCs, and 15 % growth gives these seconds-long windows
    // a few of them too.
    nodeArgs: ['--heap-growing-percent=15', ...nodeArgs, '--import', 'leakdiff/register'],
    cwd: install.dir,
    env: {
      LEAKDIFF_FIXTURE_LEAK: leak ? '1' : '0',
      LEAKDIFF_DIR: 'snaps',
      LEAKDIFF_SERIES: '2',
      LEAKDIFF_INTERVAL: '6s',
      LEAKDIFF_WATCH: '1',
      LEAKDIFF_WATCH_WINDOW: `${WINDOW_S}s`,
      LEAKDIFF_WATCH_WINDOWS: '6',
      LEAKDIFF_WATCH_MIN_RATE: '4GB/h',
      ...env
    }
  })
  t.teardown(app.stop)
  return { app, dir: join(install.dir, 'snaps') }
}

test('a leaking service starts a series by itself, and leakdiff names the leak; a busy one that does not leak never does', async (t) => {
  // Time runs about 600 times faster than in production here, so a 4 GB heap limit looks minutes
  // away for both; the time-to-limit trigger has its own test below.
  const env = { LEAKDIFF_WATCH_TIME_TO_LIMIT: 'off' }
  const [leaking, steady] = await Promise.all([serviceIn(t, { leak: true, env }), serviceIn(t, { leak: false, env })])
  t.regex(leaking.app.stderr(), new RegExp(String.raw`ready: kill -USR2 \d+ writes 2 snapshots 6 s apart to .*; watching the heap: a series starts by itself when the heap after GC grows 4\.00 GB\/h for ${6 * WINDOW_S} s$`, 'm'))

  const trigger = await leaking.app.waitForStderr(/^leakdiff: watch: /)
  t.regex(trigger, /^leakdiff: watch: heap after GC grew [\d.]+ GB\/h for \d+ s; the [\d.]+ GB heap limit in ~\d+ (?:s|min); starting a series$/)
  t.regex(await leaking.app.waitForStderr(/series .* (complete|failed)/), /complete: 2 of 2 snapshots/)
  t.regex(await get(leaking.app.ready[0]), /^ok \d+\n$/)

  const names = await listDir(leaking.dir)
  const seriesName = /** @type {string} */ (names.find((n) => n.endsWith('.series.json')))
  const series = JSON.parse(await readFile(join(leaking.dir, seriesName), 'utf8'))
  t.like(series, { status: 'complete', trigger: { kind: 'watch', reason: 'growth', windowMs: WINDOW_S * 1000 } })
  t.true(series.trigger.bytesPerHour >= 2 ** 30)
  const snapshots = series.snapshots.map((/** @type {string} */ name) => join(leaking.dir, name))
  const meta = JSON.parse(await readFile(snapshots[0].replace('.heapsnapshot', '.meta.json'), 'utf8'))
  t.deepEqual(meta.series.trigger, series.trigger)

  // The control ran as long, through the same windows, with the same churn.
  t.regex(await get(steady.app.ready[0]), /^ok \d+\n$/)
  t.notRegex(steady.app.stderr(), /watch:|series \d+-/)
  t.deepEqual(await listDir(steady.dir), [])

  const report = await sharedDiff(snapshots, { parallel: false })
  t.is(report.verdict, 'leak', renderDiffReport(report, { color: false, width: 200 }) + leaking.app.stderr())
  t.true(report.findings.some((f) => f.signature === 'unbounded-collection' && f.path.at(-1)?.edge === 'sessions'), renderDiffReport(report, { color: false, width: 160 }) + leaking.app.stderr())
  t.like(report.capture, { reason: 'growth', limit: { kind: 'heap', source: 'old generation' } })
  t.is(report.capture?.bytesPerHour, series.trigger.bytesPerHour)
  const text = renderDiffReport(report, { color: false, width: 200 })
  t.regex(text, /unbounded-collection/)
  t.regex(text, /sessions \(Map\)/)
  t.regex(text, /captured automatically: heap after GC grew [\d.]+ GB\/h for \d+ s; heap limit \([\d.]+ GB\) in ~\d+ (?:s|min)/)
  t.true(JSON.parse(renderDiffReport(report, { format: 'json' })).capture.heapAfterGc > 0)
})

test('a leaking process without room for a snapshot refuses once, says why, and keeps serving', async (t) => {
  const { app, dir } = await serviceIn(t, { leak: true, env: { LEAKDIFF_MEMORY_LIMIT: '160MiB' }, nodeArgs: ['--max-old-space-size=128'] })
  const refusal = await app.waitForStderr(/^leakdiff: watch: /)
  t.regex(refusal, /^leakdiff: watch: (heap after GC|RSS) grew .*, but no series is started: not enough memory: .* \(LEAKDIFF_MIN_HEADROOM\), but .* is available \(memoryLimitBytes \(LEAKDIFF_MEMORY_LIMIT\) less RSS\)\. Said once; watch mode keeps checking quietly$/)
  // Three more windows: the heap keeps growing and the check keeps failing, quietly.
  await new Promise((resolve) => setTimeout(resolve, 4500))
  t.regex(await get(app.ready[0]), /^ok \d+\n$/)
  t.is(app.stderr().split('\n').filter((line) => line.startsWith('leakdiff: watch:')).length, 1)
  t.notRegex(app.stderr(), /series \d+-/)
  t.deepEqual(await listDir(dir), [])
})

test('watch mode keeps no process alive', async (t) => {
  const script = `import { startAgent } from ${JSON.stringify(join(ROOT, 'src', 'agent.js'))}; startAgent({ signal: null, watch: true, onEvent: () => {} })`
  const started = Date.now()
  const result = await execFileWithin(process.execPath, ['--input-type=module', '-e', script], {}, 10_000)
  t.is(result.code, 0, result.stderr)
  // A watch timer that kept the process alive would run for good: it ends in the time node takes to start.
  t.true(Date.now() - started < scaledMs(5000))
})
