import test from 'ava'
import { formatDuration, parseBytes } from '../../src/report/format.js'

test('durations read in two units at most', (t) => {
  t.is(formatDuration(0.5), '30 s')
  t.is(formatDuration(12.2), '12 min')
  t.is(formatDuration(190), '3 h 10 min')
  t.is(formatDuration(120), '2 h')
  t.is(formatDuration(60 * 24 * 4 + 60 * 6), '4 days 6 h')
})

test('sizes as people write them: SI units are powers of 1000, KiB/MiB/GiB of 1024; anything else is NaN', (t) => {
  t.is(parseBytes(65536), 65536)
  t.is(parseBytes('65536'), 65536)
  t.is(parseBytes('64kB'), 64_000)
  t.is(parseBytes('2 MB'), 2_000_000)
  t.is(parseBytes('1MiB'), 1_048_576)
  t.is(parseBytes('1.5GiB'), 1.5 * 1024 ** 3)
  for (const text of ['12 parsecs', '-5', '', 'MB']) t.true(Number.isNaN(parseBytes(text)), text)
  t.true(Number.isNaN(parseBytes(-1)))
})
