import test from 'ava'
import { Session } from 'node:inspector/promises'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { scriptSyntax } from '../../src/syntax/script-syntax.js'

// The syntax tree finds each function where V8 says it starts: a heap snapshot's location and an
// allocation profile's frame give that position, and DevTools' [[FunctionLocation]] is the same.

const SOURCE = [
  'export class Store { constructor (x) { this.x = x } put (y) { return y } get size () { return 1 } static async * all () {} }',
  'export const handlers = { open (x) { return x }, async close () {} }',
  'export const a = async x => x, b = async (y) => y, c = z => z, d = () => 1',
  'export function * gen (q) { yield q }',
  'export const named = function inner (r) { return r }, plain = async function (s) { return s }'
].join('\n')

test('every function starts where V8 starts it: methods, accessors, generators, async and plain arrows, function expressions', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'leakdiff-v8-positions-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'module.mjs')
  writeFileSync(file, SOURCE)
  const module = await import(pathToFileURL(file).href)
  const functions = {
    constructor: module.Store,
    put: module.Store.prototype.put,
    size: /** @type {Function} */ (Object.getOwnPropertyDescriptor(module.Store.prototype, 'size')?.get),
    all: module.Store.all,
    open: module.handlers.open,
    close: module.handlers.close,
    a: module.a,
    b: module.b,
    c: module.c,
    d: module.d,
    gen: module.gen,
    named: module.named,
    plain: module.plain
  }
  const session = new Session()
  session.connect()
  t.teardown(() => session.disconnect())
  const key = `__leakdiffPositions${process.pid}`
  Object.assign(globalThis, { [key]: functions })
  t.teardown(() => { delete (/** @type {any} */ (globalThis))[key] })
  const syntax = scriptSyntax(SOURCE)
  for (const name of Object.keys(functions)) {
    const { result } = await session.post('Runtime.evaluate', { expression: `globalThis.${key}[${JSON.stringify(name)}]` })
    const { internalProperties = [] } = await session.post('Runtime.getProperties', { objectId: /** @type {string} */ (result.objectId), ownProperties: true })
    const location = internalProperties.find((property) => property.name === '[[FunctionLocation]]')?.value?.value
    t.truthy(location, name)
    const offset = syntax.offsetOf(location.lineNumber, location.columnNumber)
    t.true(syntax.functionAt(offset) >= 0, `${name} at ${location.lineNumber + 1}:${location.columnNumber + 1}`)
  }
})
