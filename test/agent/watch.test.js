// Watch mode's parts as function calls: the trend that decides, the line that says why, the
// settings. The agent watching real services is watch.e2e.test.js's.
import test from 'ava'
import { fitTrend } from '../../src/agent/heap-trend.js'
import { describeTrigger } from '../../src/agent/watch-words.js'
import { configFromEnv, resolveConfig, DEFAULT_WATCH } from '../../src/agent/config.js'

test('the trend: a steady rise passes; a sawtooth, a one-time jump, a fill that stopped and noise do not', (t) => {
  const times = Array.from({ length: 6 }, (_, i) => (i + 1) * 600_000)
  const mib = (/** @type {number[]} */ values) => values.map((v) => v * 2 ** 20)
  const rising = fitTrend(mib([100, 102, 104, 106, 108, 110]), times)
  t.true(rising.steady)
  t.is(Math.round(rising.bytesPerHour / 2 ** 20), 12)
  // Theil-Sen keeps the rate of a rise with one wild window.
  const wild = fitTrend(mib([100, 102, 140, 106, 108, 110]), times)
  t.true(wild.steady)
  t.is(Math.round(wild.bytesPerHour / 2 ** 20), 12)
  for (const floors of [[100, 130, 105, 131, 102, 129], [100, 100, 100, 140, 140, 140], [100, 100, 100, 100, 140, 140], [100, 110, 120, 130, 130, 130], [100, 101, 100, 102, 101, 102]]) {
    t.false(fitTrend(mib(floors), times).steady, floors.join(' '))
  }
})

test('the trigger line says the rate, the span and the nearest limit, or the share of the limit', (t) => {
  const limit = { kind: /** @type {const} */ ('heap'), bytes: 2 * 2 ** 30, source: 'heap_size_limit', minutesToLimit: 125, fraction: 0.4 }
  const base = { kind: /** @type {const} */ ('watch'), bytesPerHour: 14 * 2 ** 20, windows: 6, windowMs: 600_000, spanMs: 5 * 3_600_000, heapAfterGc: 800 * 2 ** 20 }
  t.is(describeTrigger({ ...base, reason: 'growth', limit }), 'heap after GC grew 14.7 MB/h for 5 h; the 2.15 GB heap limit in ~2.1 h')
  t.is(describeTrigger({ ...base, reason: 'growth', limit: null }), 'heap after GC grew 14.7 MB/h for 5 h')
  t.is(describeTrigger({ ...base, reason: 'time-to-limit', spanMs: 1_800_000, limit: { ...limit, kind: 'memory', bytes: 2 ** 30, source: 'cgroup v2', minutesToLimit: 20 } }),
    'heap after GC grew 14.7 MB/h for 30 min; the 1.07 GB memory limit in ~20 min')
  t.is(describeTrigger({ ...base, reason: 'fraction', bytesPerHour: 0, limit: { ...limit, minutesToLimit: null, fraction: 0.91 } }), 'heap after GC is 839 MB, 91 % of the 2.15 GB heap limit')
})

test('settings: LEAKDIFF_WATCH turns watch mode on with its defaults; bad values are reported and replaced', (t) => {
  t.is(configFromEnv({}).config.watch, null)
  t.deepEqual(configFromEnv({ LEAKDIFF_WATCH: '1' }).config.watch, DEFAULT_WATCH)
  const { config, problems } = configFromEnv({
    LEAKDIFF_WATCH: 'true',
    LEAKDIFF_WATCH_WINDOW: '5m',
    LEAKDIFF_WATCH_WINDOWS: '2',
    LEAKDIFF_WATCH_MIN_RATE: '1MiB/min',
    LEAKDIFF_WATCH_TIME_TO_LIMIT: 'off',
    LEAKDIFF_WATCH_FRACTION: '90%',
    LEAKDIFF_WATCH_COOLDOWN: 'soon'
  })
  t.deepEqual(config.watch, { ...DEFAULT_WATCH, windowMs: 300_000, minRateBytesPerHour: 60 * 2 ** 20, timeToLimitMs: 0, limitFraction: 0.9 })
  t.deepEqual(problems, [
    'ignoring LEAKDIFF_WATCH_WINDOWS="2": expected an integer from 3 to 100; using 6',
    'ignoring LEAKDIFF_WATCH_COOLDOWN="soon": expected a duration such as 1h; using 1h'
  ])
  t.deepEqual(resolveConfig({ watch: true }).watch, DEFAULT_WATCH)
  t.is(resolveConfig({ watch: false }).watch, null)
  t.is(resolveConfig({ watch: { windows: 12 } }).watch?.windows, 12)
  t.throws(() => resolveConfig({ watch: { window: 5 } }), { code: 'LEAKDIFF_INVALID_ARG', message: /Expected a watch setting/ })
  t.throws(() => resolveConfig({ watch: { limitFraction: 2 } }), { code: 'LEAKDIFF_INVALID_ARG', message: /watch\.limitFraction/ })
})
