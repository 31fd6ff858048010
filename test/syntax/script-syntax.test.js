import test from 'ava'
import { readFileSync } from 'node:fs'
import { scriptSyntax } from '../../src/syntax/script-syntax.js'

// The one parse of a script, on source text: which statements count as adding to a collection,
// where a value is used, where functions end.

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
function lines (offsets, text = SOURCE) {
  const syntax = scriptSyntax(text)
  return offsets.map((offset) => {
    const { line, column } = syntax.positionOf(offset)
    return `${line + 1}:${column + 1}`
  })
}

test('a variable: calls that add and stores by key count; comments, strings, regular expressions, reads and other names do not', (t) => {
  const syntax = scriptSyntax(SOURCE)
  t.is(syntax.how, 'module')
  t.deepEqual(lines(syntax.writesTo('log', false)), ['6:3', '7:3', '10:3', '11:3', '13:20'])
})

test('a property: `this.#name.set(` counts from `this`, a read does not; a property is not the variable of that name', (t) => {
  const syntax = scriptSyntax(SOURCE)
  t.deepEqual(lines(syntax.writesTo('#log', true)), ['16:16'])
  t.deepEqual(lines(syntax.writesTo('log', true)), ['8:3'])
})

test('a function ends at its closing brace, an arrow with an expression body where its expression ends', (t) => {
  const syntax = scriptSyntax(SOURCE)
  const handle = SOURCE.indexOf('(req) {')
  t.is(syntax.codeEnd(handle), SOURCE.indexOf('}\nconst tap') + 1)
  const tap = SOURCE.indexOf('(x) =>')
  t.is(SOURCE.slice(tap, syntax.codeEnd(tap)), '(x) => log.unshift(x)')
  // Cut-off text (the snapshot keeps the first kilobyte): read loosely, the function runs to the end.
  const text = SOURCE.slice(0, SOURCE.indexOf('  log[req.id]'))
  const cut = scriptSyntax(text)
  t.is(cut.how, 'loose')
  t.is(cut.codeEnd(handle), text.trimEnd().length)
  t.deepEqual(lines(cut.writesTo('log', false), text), ['6:3', '7:3', '10:3'])
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
  t.deepEqual(lines(scriptSyntax(source).usesOf('agent', false).map((use) => use.offset), source), ['2:13', '4:22', '6:26'])
})

test('a regular expression after `return` and the code in a template\'s `${}` are read as a parser reads them', (t) => {
  const source = [
    'const seen = new Map()',
    'export function track (req) {',
    "  if (isBot(req)) return /'/.test(req.url) && seen.set(req.url, 1)",
    // eslint-disable-next-line no-template-curly-in-string -- the script's own template literal
    '  const line = `${req.method} ${seen.set(req.id, req).size}`',
    '  return line',
    '}'
  ].join('\n')
  t.deepEqual(lines(scriptSyntax(source).writesTo('seen', false), source), ['3:47', '4:33'])
})

test('text no parser reads answers every question with nothing', (t) => {
  const syntax = scriptSyntax('\u0000')
  t.deepEqual(syntax.writesTo('log', false), [])
  t.is(syntax.scopeAt(0), -1)
})

test('a text is parsed once while the cache keeps it; CommonJS that returns at its top level is read as a script', (t) => {
  const source = 'const cache = new Map()\nif (module.parent === null) return\nmodule.exports = (key, value) => cache.set(key, value)\n'
  const syntax = scriptSyntax(source)
  t.is(scriptSyntax(`${source}`), syntax)
  t.is(syntax.how, 'script')
  t.deepEqual(lines(syntax.writesTo('cache', false), source), ['3:34'])
  t.true(syntax.bindings(-1).has('cache') && syntax.bindings(-1).has('module'))
})

// The parts of a write and the removals of the same entry, for fixes written in the program's terms.

const REGISTRY = [
  'const inFlight = new Map()',
  'async function quote (id) {',
  '  inFlight.set(id, { id })',
  '  const price = await priceOf(id)',
  '  inFlight.delete(id)',
  '  return price',
  '}',
  'async function settled (id) {',
  '  inFlight.set(id, 1)',
  '  try { return await priceOf(id) } finally { inFlight.delete(id) }',
  '}',
  'function twice (id) {',
  '  sessions[id] = new WeakRef(session)',
  '  try { work(); delete sessions[id] } catch (error) { delete sessions[id]; throw error }',
  '  res.once(\'close\', () => inFlight.delete(id))',
  '  res.once(\'finish\', () => inFlight.delete(id))',
  '  job.finally(() => { inFlight.delete(id) })',
  '  if (done) inFlight.delete(id)',
  '  const log = winston.loggers.add(name, { level: \'info\' })',
  '  const client = new Client(origin)',
  '}'
].join('\n')

test('writeAt: the collection, the method, the key and the value of a write as written', (t) => {
  const syntax = scriptSyntax(REGISTRY)
  const [first] = syntax.writesTo('inFlight', false)
  t.like(syntax.writeAt('inFlight', false, first), { target: 'inFlight', method: 'set', key: 'id', value: '{ id }' })
  const [store] = syntax.writesTo('sessions', false)
  const parts = syntax.writeAt('sessions', false, store)
  t.like(parts, { method: null, key: 'id', value: 'new WeakRef(session)' })
  t.is(REGISTRY.slice(parts?.valueStart, parts?.valueStart === undefined ? 0 : parts.valueStart + 3), 'new')
  t.is(syntax.writeAt('inFlight', false, first + 1), null, 'no write starts there')
})

test('removalsFrom: a delete after an await runs on one path; a finally, a catch beside its try and a close listener or .finally() on every path', (t) => {
  const syntax = scriptSyntax(REGISTRY)
  const removals = syntax.removalsFrom('inFlight', false)
  t.deepEqual(removals.map((removal) => [lines([removal.start], REGISTRY)[0], removal.key, removal.everyPath]), [
    ['5:3', 'id', null],
    ['10:46', 'id', 'finally'],
    ['15:27', 'id', 'callback'],
    ['16:28', 'id', null],
    ['17:23', 'id', 'callback'],
    ['18:13', 'id', null]
  ])
  t.deepEqual(syntax.removalsFrom('sessions', false).map((removal) => removal.everyPath), ['catch and try', 'catch and try'])
  const write = REGISTRY.indexOf('inFlight.set(id, { id })')
  t.false(syntax.branchesApart(write, REGISTRY.indexOf('inFlight.delete(id)\n  return')))
  t.true(syntax.branchesApart(REGISTRY.indexOf('sessions[id] ='), REGISTRY.indexOf('inFlight.delete(id)\n  const log')), 'under an if the write is not under')
})

test('callAt: the call at its name (or a construction at `new` or its class), what it is called on, its arguments and the variable it is assigned to', (t) => {
  const syntax = scriptSyntax(REGISTRY)
  t.deepEqual(syntax.callAt(REGISTRY.indexOf('add(')), {
    start: REGISTRY.indexOf('winston.'),
    end: REGISTRY.indexOf(' })\n  const client') + 3,
    name: 'add',
    receiver: 'winston.loggers',
    constructs: false,
    args: ['name', '{ level: \'info\' }'],
    assignedTo: 'log'
  })
  const made = syntax.callAt(REGISTRY.indexOf('Client('))
  t.like(made, { name: 'Client', receiver: null, constructs: true, args: ['origin'], assignedTo: 'client' })
  t.deepEqual(syntax.callAt(REGISTRY.indexOf('new Client')), made)
  t.is(syntax.callAt(REGISTRY.indexOf('loggers.add')), null, 'a receiver is not a call')
})

test('what a declaration starts a variable as: a literal\'s kind, a constructor\'s name, a function; one entry per declaration', (t) => {
  const syntax = scriptSyntax([
    'let served = 0',
    'const history = []',
    'const cache = new Map()',
    "const prefix = 'p-'",
    'const options = { max: 10 }',
    'const handler = (req) => req',
    'let later',
    'const made = create()',
    'function f () { const history = new Set(); return history }',
    'cache.set(1, history)'
  ].join('\n'))
  t.deepEqual(['served', 'history', 'cache', 'prefix', 'options', 'handler', 'later', 'made', 'missing'].map((name) => syntax.initialKinds(name)), [
    ['number'], ['Array', 'Set'], ['Map'], ['string'], ['Object'], ['Function'], [''], [''], []
  ])
})

test('mentions: whether a function\'s code names a variable, in the demo\'s server, where every function closes over the module scope', (t) => {
  const text = readFileSync(new URL('../../fixtures/demo/leaky-server.js', import.meta.url), 'utf8')
  const syntax = scriptSyntax(text)
  // Where V8 starts each function: a declaration at its parameters, an arrow at its own.
  const handler = text.indexOf('(request, response) {\n  const cached')
  const tick = text.indexOf('() => priceFeed.emit')
  const listen = text.indexOf('(request, response) => {\n  if')
  t.true(handler > 0 && tick > 0 && listen > 0)
  t.true(syntax.mentions('responseCache', handler))
  t.false(syntax.mentions('responseCache', tick), 'the price ticker does not use the cache')
  t.false(syntax.mentions('responseCache', listen), 'the request listener calls the handler, not the cache')
  t.true(syntax.mentions('handleProduct', listen))
  // The ticker, after the listener in the file, names products: that is not the listener's.
  t.false(syntax.mentions('products', listen))
  t.true(syntax.mentions('products', tick))
  t.true(syntax.mentions('priceFeed', tick))
  // A property of that name is not the variable.
  t.false(syntax.mentions('url', tick))
  t.false(syntax.mentions('url', handler), 'request.url is a property')
})

test('callIn: the line a stack frame calls its callee from, when the function\'s own code says which', (t) => {
  const text = readFileSync(new URL('../../fixtures/demo/leaky-server.js', import.meta.url), 'utf8')
  const syntax = scriptSyntax(text)
  const lineAt = (/** @type {number} */ offset) => offset < 0 ? null : text.slice(0, offset).split('\n').length
  const lineOf = (/** @type {string} */ code) => text.slice(0, text.indexOf(code)).split('\n').length
  const handler = text.indexOf('(request, response) {\n  const cached')
  t.is(lineAt(syntax.callIn(handler, ['stringify'], false)), lineOf('JSON.stringify(state.product)'))
  t.is(lineAt(syntax.callIn(handler, ['Map'], true)), null, 'no construction of that class here')
  // The cached and the fresh response both call end(): a profile's frame does not say which.
  t.is(lineAt(syntax.callIn(handler, ['end'], false)), null)
  const listen = text.indexOf('(request, response) => {\n  if')
  t.is(lineAt(syntax.callIn(listen, ['end'], false)), lineOf("response.end('not found"))
  // A call in a function nested in the frame's is that function's own frame.
  const nested = scriptSyntax('function outer (items) {\n  items.map((x) => make(x))\n  return make(0)\n}\n')
  t.is(nested.positionOf(nested.callIn(nested.text.indexOf('(items)'), ['make'], false)).line, 2)
})
