// The folded path text, on paths shaped as retainerPath writes them. Real paths from fixture
// programs are checked in test/diff/readable-paths.test.js; these cover the folding rules.
import test from 'ava'
import { foldPath, renderFoldedPath } from '../../src/report/render-path.js'

/** @import {Step} from '../../src/analysis/retainer-paths.js' */

let nextId = 101
/**
 * @param {string} edgeType
 * @param {string} edge
 * @param {string} node
 * @param {string} [nodeType]
 * @param {string} [module]
 * @returns {Step}
 */
function step (edgeType, edge, node, nodeType = 'object', module) {
  nextId += 2
  return { edge, edgeType, node, nodeType, id: nextId, ...(module ? { module } : {}) }
}

const global = step('shortcut', '2', 'global')
const setTimeoutContext = [step('property', 'setTimeout', 'Function', 'closure'), step('internal', 'context', 'system / Context')]

test('a module scope starts the text; a function\'s {context} hop folds away', (t) => {
  const path = [global, ...setTimeoutContext, step('context', 'timerListMap', 'Object'), step('element', '30000', 'TimersList'),
    step('property', '_idleNext', 'Timeout'), step('property', '_onTimeout', 'Function', 'closure'), step('internal', 'context', 'system / Context', 'object', 'file:///srv/app/src/flags.js'),
    step('context', 'flagStore', 'FlagStore'), step('property', '_events', 'Object'), step('property', 'change', 'Array')]
  t.is(renderFoldedPath(path, { cwd: '/srv/app' }), '(GC roots) → module src/flags.js → flagStore (FlagStore) → _events → change (Array)')
  // Outside the working directory the path stays absolute.
  t.is(renderFoldedPath(path, { cwd: '/elsewhere' }), '(GC roots) → module /srv/app/src/flags.js → flagStore (FlagStore) → _events → change (Array)')
})

test('without a module scope: from the global, internal hops folded, runs counted, linked lists once with ×N', (t) => {
  const path = [global, ...setTimeoutContext, step('context', 'timerListMap', 'Object'), step('element', '60000', 'TimersList'),
    ...Array.from({ length: 7 }, () => step('property', '_idleNext', 'Timeout')),
    step('property', '_onTimeout', 'Function', 'closure'), step('internal', 'bound_this', 'Server'),
    step('property', '_events', 'Object'), step('property', 'request', 'Function', 'closure'),
    step('internal', 'context', 'system / Context'), step('internal', 'previous', 'system / Context'), step('internal', 'extension', 'system / SourceTextModule', 'hidden'),
    step('hidden', '4', 'Generator'), step('internal', 'table', '(array)', 'array'), step('internal', '8196', 'Object')]
  t.is(renderFoldedPath(path),
    '(GC roots) → global → setTimeout (Function) → timerListMap → [60000] (TimersList) → _idleNext (Timeout) ×7 → _onTimeout (Function) → (Server) → _events → request (Function) → … 3 hops → (Generator) → (Object)')
})

test('elided steps and paths from the system roots are marked, not dropped', (t) => {
  const path = [step('element', '1', '(synthetic)', 'synthetic'), step('element', '13', '(synthetic)', 'synthetic'),
    { edge: '…', edgeType: 'elided', node: '9 steps', nodeType: 'elided', id: 0 }, step('property', 'cache', 'Map')]
  t.is(renderFoldedPath(path), '(GC roots) → … 9 steps → cache (Map)')
  t.is(renderFoldedPath([]), '(not reachable from the roots)')
  t.is(renderFoldedPath([global]), '(GC roots) → global')
})

test('a path of more than 16 hops loses its middle: where it starts and one more hop, then the 10 hops nearest the owner', (t) => {
  const module = step('internal', 'context', 'system / Context', 'object', 'file:///srv/app/src/chain.js')
  const links = Array.from({ length: 24 }, (_, i) => step('property', `stage${i}`, `Stage${i}`))
  const path = [global, module, ...links, step('property', 'cache', 'Map')]
  const text = renderFoldedPath(path, { cwd: '/srv/app' })
  t.is(text, `(GC roots) → module src/chain.js → stage0 (Stage0) → … 14 hops → ${links.slice(-9).map((s) => `${s.edge} (${s.node})`).join(' → ')} → cache (Map)`)
  // 16 hops are shown whole.
  t.false(renderFoldedPath([global, module, ...links.slice(0, 13), step('property', 'cache', 'Map')]).includes('…'))
})

test('the names nearest the owner stay however many unnamed hops sit between them, and the fold keeps every step it hides', (t) => {
  const named = Array.from({ length: 12 }, (_, i) => step('property', `name${i}`, `Holder${i}`))
  // Elements of arrays of different classes and engine hops to objects: no names.
  const unnamed = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? step('element', String(i), `Row${i}`) : step('internal', 'bound_this', `Target${i}`)))
  const path = [global, ...named.slice(0, 10), named[10], ...unnamed.slice(0, 6), named[11], ...unnamed.slice(6), step('property', 'owner', 'Map')]
  const hops = foldPath(path)
  const shown = hops.filter((hop) => hop.text !== '').map((hop) => hop.text)
  // From the owner back: owner, 6 unnamed, name11, 6 unnamed, name10 (the fourth name is name9).
  t.deepEqual(shown.slice(-16, -14), ['name9 (Holder9)', 'name10 (Holder10)'])
  t.is(shown.at(-1), 'owner (Map)')
  t.is(shown.slice(0, 2).join(' → '), 'global → name0 (Holder0)')
  const middle = hops.find((hop) => hop.text.startsWith('… '))
  t.deepEqual(middle?.steps, named.slice(1, 9))
  t.is(hops.reduce((sum, hop) => sum + hop.steps.length, 0), path.length)
})

test('a linked list the JSON shortened is still one hop, its count the whole list', (t) => {
  const link = () => step('property', 'next', 'Node')
  const path = [global, step('property', 'list', 'List'), step('property', 'head', 'Node'), link(), link(),
    { edge: '…', edgeType: 'elided', node: '19995 steps', nodeType: 'elided', id: 0 }, link(), link(), step('property', 'payload', 'Object')]
  t.is(renderFoldedPath(path), '(GC roots) → global → list (List) → head (Node) → next (Node) ×19999 → payload (Object)')
})
