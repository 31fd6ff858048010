import test from 'ava'
import { configFromEnv, resolveConfig, parseDuration, parseSize, DEFAULT_CONFIG } from '../../src/agent/config.js'

test('durations and sizes read the way the docs write them', (t) => {
  t.is(parseDuration('500ms'), 500)
  t.is(parseDuration('60s'), 60_000)
  t.is(parseDuration('2m'), 120_000)
  t.is(parseDuration('1.5h'), 5_400_000)
  t.is(parseDuration('90'), 90_000)
  t.is(parseDuration('soon'), undefined)
  t.is(parseDuration('-5s'), undefined)
  t.is(parseSize('512MB'), 512e6)
  t.is(parseSize('512MiB'), 512 * 1024 * 1024)
  t.is(parseSize('1g'), undefined)
  t.is(parseSize('300 KiB'), 300 * 1024)
  t.is(parseSize('4096'), 4096)
  t.is(parseSize('12 parsecs'), undefined)
})

test('the environment sets every option, and a bad value falls back to its default with one line', (t) => {
  const { config, problems } = configFromEnv({
    LEAKDIFF_DIR: '/var/snaps',
    LEAKDIFF_SIGNAL: 'hup',
    LEAKDIFF_SERIES: '5',
    LEAKDIFF_INTERVAL: '2m',
    LEAKDIFF_GZIP: 'yes',
    LEAKDIFF_KEEP: '0',
    LEAKDIFF_MIN_FREE: '1GB',
    LEAKDIFF_MIN_HEADROOM: '10MB',
    LEAKDIFF_HEADROOM_FACTOR: '4.5',
    LEAKDIFF_MEMORY_LIMIT: '2GiB',
    LEAKDIFF_STRING_LIMIT: '65536'
  })
  t.deepEqual(problems, [])
  t.like(config, {
    dir: '/var/snaps',
    signal: 'SIGHUP',
    count: 5,
    intervalMs: 120_000,
    gzip: true,
    keep: 0,
    minFreeBytes: 1e9,
    minHeadroomBytes: 10e6,
    headroomFactor: 4.5,
    memoryLimitBytes: 2 * 1024 ** 3,
    stringLimit: 65536
  })
  t.is(configFromEnv({ LEAKDIFF_STRING_LIMIT: 'whole' }).config.stringLimit, 2 ** 30)
  t.regex(configFromEnv({ LEAKDIFF_STRING_LIMIT: 'all of it' }).problems[0], /^ignoring LEAKDIFF_STRING_LIMIT="all of it": expected a number of characters, or whole; using null$/)

  const bad = configFromEnv({ LEAKDIFF_SIGNAL: 'SIGTERM', LEAKDIFF_SERIES: '0', LEAKDIFF_KEEP: '-1', LEAKDIFF_MEMORY_LIMIT: 'lots' })
  t.deepEqual(bad.config, { ...DEFAULT_CONFIG })
  t.is(bad.problems.length, 4)
  t.regex(bad.problems[0], /^ignoring LEAKDIFF_SIGNAL="SIGTERM": expected a signal the agent may catch .*; using SIGUSR2$/)
  t.regex(bad.problems[1], /^ignoring LEAKDIFF_SERIES="0": expected an integer from 1 to 1000; using 3$/)
  t.regex(bad.problems[3], /^ignoring LEAKDIFF_MEMORY_LIMIT="lots": expected a size such as 512MB or 512MiB; using null$/)
  t.is(configFromEnv({ LEAKDIFF_SIGNAL: 'none' }).config.signal, null)
})

test('options from code are checked and a bad one throws with what was expected', (t) => {
  t.like(resolveConfig({ count: 2, intervalMs: 10, signal: null }), { count: 2, intervalMs: 10, signal: null, keep: DEFAULT_CONFIG.keep })
  const usr1 = t.throws(() => resolveConfig({ signal: 'SIGUSR1' }))
  t.is(usr1?.code, 'LEAKDIFF_INVALID_ARG')
  t.regex(usr1?.message ?? '', /SIGUSR1 starts the Node.js inspector/)
  t.regex(t.throws(() => resolveConfig({ count: 1.5 }))?.message ?? '', /^Expected `count` to be an integer from 1 to 1000, got `1.5` \(number\)$/)
  t.regex(t.throws(() => resolveConfig(/** @type {any} */ ({ interval: 5 })))?.message ?? '', /Expected an agent option .*, got `interval`/)
})
