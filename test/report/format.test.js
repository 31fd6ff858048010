import test from 'ava'
import { fit } from '../../src/report/format.js'

test('a table cell too narrow for its text keeps the text\'s start and end: two names that differ at their end stay apart', (t) => {
  const names = ['Object { alpha, beta, gamma, delta, epsilon, zeta }', 'Object { alpha, beta, gamma, delta, epsilon, theta }']
  const cells = names.map((name) => fit(name, 24))
  t.not(cells[0], cells[1])
  t.true(cells.every((cell) => cell.length === 24 && cell.startsWith('Object') && cell.includes('…')), cells.join('\n'))
  t.is(fit('Map', 6), 'Map   ')
  t.is(fit('12', 6, 'right'), '    12')
})
