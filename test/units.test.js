// One way to read and print sizes and durations, whoever reads them: the CLI, the agent's
// environment and the API give the same bytes for the same text.
import test from 'ava'
import { formatBytes, formatCount, formatDuration, parseDuration, parseSize } from '../src/units.js'
import { configFromEnv } from '../src/agent/config.js'
import { parseSize as publicParseSize, assertNoLeak } from 'leakdiff'
import { parseSize as agentParseSize } from 'leakdiff/agent'

test('kB, MB, GB are powers of 1000, KiB, MiB, GiB powers of 1024, B or no unit bytes; case does not matter', (t) => {
  t.is(parseSize('65536'), 65536)
  t.is(parseSize(65536), 65536)
  t.is(parseSize('512 B'), 512)
  t.is(parseSize('64kB'), 64_000)
  t.is(parseSize('64KB'), 64_000)
  t.is(parseSize('2 MB'), 2_000_000)
  t.is(parseSize('5mb'), 5_000_000)
  t.is(parseSize('1.5GB'), 1_500_000_000)
  t.is(parseSize('64KiB'), 65_536)
  t.is(parseSize('1MiB'), 1_048_576)
  t.is(parseSize('1.5gib'), 1.5 * 2 ** 30)
  t.is(parseSize('2TiB'), 2 * 2 ** 40)
})

test('a size that could be read two ways, or is no size, is refused', (t) => {
  // Docker reads 2g as 2 GiB, `ls --si` as 2 GB: neither reading is taken silently.
  for (const text of ['2g', '512m', '64k', '12 parsecs', '-5', '', 'MB', '1e6', '5 MB extra']) t.is(parseSize(text), undefined, text)
  for (const value of [-1, NaN, Infinity, null, {}]) t.is(parseSize(/** @type {any} */ (value)), undefined, String(value))
})

test('the CLI, the agent\'s environment and assertNoLeak read a size the same way', (t) => {
  t.is(publicParseSize, parseSize)
  t.is(agentParseSize, parseSize)
  // LEAKDIFF_MEMORY_LIMIT=5MB is what --max-growth 5MB is: 5 x 10^6 bytes (it was 5 x 2^20 for the agent).
  t.is(configFromEnv({ LEAKDIFF_MEMORY_LIMIT: '5MB' }).config.memoryLimitBytes, 5_000_000)
  t.is(configFromEnv({ LEAKDIFF_MEMORY_LIMIT: '5MiB' }).config.memoryLimitBytes, 5 * 2 ** 20)
  t.regex(configFromEnv({ LEAKDIFF_MEMORY_LIMIT: '5m' }).problems[0], /^ignoring LEAKDIFF_MEMORY_LIMIT="5m": expected a size such as 512MB or 512MiB; using null$/)
  // The defaults are named in the units they were chosen in.
  t.regex(configFromEnv({ LEAKDIFF_MIN_FREE: 'lots' }).problems[0], /using 256MiB$/)
  t.throws(() => assertNoLeak(() => {}, { maxGrowth: '2m' }), { code: 'LEAKDIFF_INVALID_ARG', message: /maxGrowth.*'2 MB' or '1MiB'/ })
})

test('sizes print in SI units, as DevTools prints them, three significant digits', (t) => {
  t.is(formatBytes(999), '999 B')
  t.is(formatBytes(1000), '1.00 kB')
  t.is(formatBytes(65_536), '65.5 kB')
  t.is(formatBytes(2 ** 20), '1.05 MB')
  t.is(formatBytes(14 * 2 ** 20), '14.7 MB')
  t.is(formatBytes(2 * 2 ** 30), '2.15 GB')
  t.is(formatBytes(-476_000, { sign: true }), '-476 kB')
  t.is(formatBytes(476_000, { sign: true }), '+476 kB')
})

test('counts print with a comma between groups of three digits, as en-US writes them', (t) => {
  for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, 2 ** 53, 1e20, 1234.5, 0.0004, 999_999.9999]) {
    t.is(formatCount(n), n.toLocaleString('en-US'), String(n))
    t.is(formatCount(-n), n === 0 ? '0' : `-${n.toLocaleString('en-US')}`, String(-n))
  }
  t.is(formatCount(1234, { sign: true }), '+1,234')
  t.is(formatCount(0, { sign: true }), '0')
})

test('durations read as people write them; a bare number is seconds', (t) => {
  t.is(parseDuration('500ms'), 500)
  t.is(parseDuration('30s'), 30_000)
  t.is(parseDuration('90'), 90_000)
  t.is(parseDuration('2m'), 120_000)
  t.is(parseDuration('2min'), 120_000)
  t.is(parseDuration('1.5h'), 5_400_000)
  t.is(parseDuration('1d'), 86_400_000)
  for (const text of ['soon', '-5s', '', '5 parsecs']) t.is(parseDuration(text), undefined, text)
})

test('durations print in two units at most, rounded to the second, the minute, then the hour', (t) => {
  t.is(formatDuration(400), '400 ms')
  t.is(formatDuration(896), '1 s')
  t.is(formatDuration(30_000), '30 s')
  t.is(formatDuration(59_600), '1 min')
  t.is(formatDuration(12.2 * 60_000), '12 min')
  t.is(formatDuration(190 * 60_000), '3 h 10 min')
  t.is(formatDuration(120 * 60_000), '2 h')
  t.is(formatDuration((60 * 24 * 4 + 60 * 6) * 60_000), '4 days 6 h')
})
