import test from 'ava'
import { blankNonCode, functionEnd, lineStarts, positionOf, useOffsets, writeOffsets } from '../../src/signatures/write-site-scan.js'

// The text scan alone, on source text: which statements count as adding to a collection.

const SOURCE = [
  'const log = [] // log.push(1) in a comment',
  "const text = 'log.push(2) in a string'",
  'const re = /log.push\\(/',
  'function handle (req) {',
  '  if (log[0] == req) return',
  '  log.push(req)',
  '  log[ids[req.id]] = req',
  '  other.log.push(req)',
  '  catalog.push(req)',
  '  Object.assign(log, { req })',
  '  log[req.id] ??= req',
  '}',
  'const tap = (x) => log.unshift(x), after = 1',
  'class Store {',
  '  #log = new Map()',
  '  put (k, v) { this.#log.set(k, v); this.#log.get(k) }',
  '}'
].join('\n')

/**
 * @param {number[]} offsets
 */
function lines (offsets) {
  const starts = lineStarts(SOURCE)
  return offsets.map((offset) => {
    const { line, column } = positionOf(starts, offset)
    return `${line + 1}:${column + 1}`
  })
}

test('a variable: calls that add and stores by key count; comments, strings, regular expressions, reads and other names do not', (t) => {
  const code = blankNonCode(SOURCE)
  t.is(code.length, SOURCE.length)
  t.deepEqual(lines(writeOffsets(code, 'log', false)), ['6:3', '7:3', '10:3', '11:3', '13:20'])
})

test('a property: `this.#name.set(` counts from `this`, a read does not; a property is not the variable of that name', (t) => {
  const code = blankNonCode(SOURCE)
  t.deepEqual(lines(writeOffsets(code, '#log', true)), ['16:16'])
  t.deepEqual(lines(writeOffsets(code, 'log', true)), ['8:3'])
})

test('a function ends at its closing brace, an arrow with an expression body at the comma after it', (t) => {
  const code = blankNonCode(SOURCE)
  const handle = SOURCE.indexOf('(req) {')
  t.is(functionEnd(code, handle), SOURCE.indexOf('}\nconst tap') + 1)
  const tap = SOURCE.indexOf('(x) =>')
  t.is(SOURCE.slice(tap, functionEnd(code, tap)), '(x) => log.unshift(x)')
  // Cut-off text (the snapshot keeps the first kilobyte): the function runs to the end.
  const cut = blankNonCode(SOURCE.slice(0, SOURCE.indexOf('  log[req.id]')))
  t.is(functionEnd(cut, handle), cut.length)
})

test('uses of a variable: handed on, in a shorthand or as a value; not its declaration, an assignment to it or a key spelt like it', (t) => {
  const source = [
    'const agent = new Agent({ keepAlive: true }) // agent in a comment',
    'let other = agent',
    'function check (path) {',
    '  return get({ path, agent }, (res) => res.statusCode)',
    '}',
    'const options = { agent: agent }',
    'agent = null',
    'const flags = { agent: 1, agentless: agents }'
  ].join('\n')
  const starts = lineStarts(source)
  const at = useOffsets(blankNonCode(source), 'agent', false).map((offset) => {
    const { line, column } = positionOf(starts, offset)
    return `${line + 1}:${column + 1}`
  })
  t.deepEqual(at, ['2:13', '4:22', '6:26'])
})
