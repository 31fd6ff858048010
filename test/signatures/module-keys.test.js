// Module loader keys as long paths make them: what tells two apart is at their end, and the
// snapshot cuts a string at 1,024 characters, so a key may have lost its end altogether.
import test from 'ava'
import { isModuleCache, moduleSpecifier } from '../../src/signatures/node-owned/module-cache.js'
import { moduleCacheFix } from '../../src/signatures/node-owned/node-words.js'
import { SNAPSHOT_STRING_LIMIT } from '../../src/cut-text.js'

const LOADER = { module: 'node:internal/modules/esm/module_map', className: 'LoadCache', ids: [] }
const CWD = `/srv/${'checkout-'.repeat(20)}app`
const longKey = (/** @type {number} */ v) => `file://${CWD}/src/page.js?v=${v}`

test('the specifier of a key is read from the whole key; a key as long as the snapshot\'s string limit names no module', (t) => {
  t.is(moduleSpecifier(longKey(7)), `file://${CWD}/src/page.js`)
  t.is(moduleSpecifier('./page.js?v=3::'), './page.js')
  t.is(moduleSpecifier('lodash'), null)
  const cut = `file://${CWD}/${'x/'.repeat(SNAPSHOT_STRING_LIMIT)}`.slice(0, SNAPSHOT_STRING_LIMIT)
  t.is(moduleSpecifier(cut), null)
  // Still the loader's keys: they are module URLs, only their end is unknown.
  t.true(isModuleCache(LOADER, [cut, cut]))
  t.false(isModuleCache(LOADER, ['lodash']))
})

test('the card shows long keys cut in the middle, so each keeps its ?v=N, and imports the file by its readable name', (t) => {
  const { summary, snippet } = moduleCacheFix([longKey(51), longKey(52)], CWD, 'src/server.js')
  const shown = [...summary.matchAll(/"([^"]*)"/g)].map((match) => match[1])
  t.is(shown.length, 2, summary)
  t.true(shown.every((key) => key.length <= 80), shown.join('\n'))
  t.deepEqual(shown.map((key) => /\?v=(\d+)$/.exec(key)?.[1]), ['51', '52'])
  t.regex(snippet, /await import\('\.\/page\.js'\)/)
})

test('keys the snapshot cut give no file name to import: the program\'s own short specifier does, or none is guessed', (t) => {
  const cut = `file://${CWD}/${'d'.repeat(SNAPSHOT_STRING_LIMIT)}`.slice(0, SNAPSHOT_STRING_LIMIT)
  t.regex(moduleCacheFix([cut, './page.js?v=4::'], CWD).snippet, /await import\('\.\/page\.js'\)/)
  t.regex(moduleCacheFix([cut, cut], CWD).snippet, /await import\('\.\/module\.mjs'\)/)
})
