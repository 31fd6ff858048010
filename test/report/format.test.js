import test from 'ava'
import { fit, formatDuration, parseBytes } from '../../src/report/format.js'

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

test('a table cell too narrow for its text keeps the text\'s start and end: two names that differ at their end stay apart', (t) => {
  const names = ['Object { alpha, beta, gamma, delta, epsilon, zeta }', 'Object { alpha, beta, gamma, delta, epsilon, theta }']
  const cells = names.map((name) => fit(name, 24))
  t.not(cells[0], cells[1])
  t.true(cells.every((cell) => cell.length === 24 && cell.startsWith('Object') && cell.includes('…')), cells.join('\n'))
  t.is(fit('Map', 6), 'Map   ')
  t.is(fit('12', 6, 'right'), '    12')
})
