// The folded path text, on paths shaped as retainerPath writes them. Real paths from fixture
// programs are checked in test/diff/readable-paths.test.js; these cover the folding rules.
import test from 'ava'
import { renderFoldedPath } from '../../src/report/render-path.js'

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
