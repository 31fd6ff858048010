// Node names as DevTools lists them, on the mixed heap: plain objects by their property names,
// concatenated strings by their text.
import test from 'ava'
import { displayName } from '../../src/analysis/display-names.js'
import { findUserRoots } from '../../src/analysis/roots.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

/** @import {HeapGraph} from '../../src/graph/heap-graph.js' */

const graphPromise = captureFixture('engine/mixed-heap').then(({ files }) => snapshotGraph(files[0]))

/**
 * @param {HeapGraph} graph
 * @param {string[]} names property names from the global
 */
function follow (graph, names) {
  let ordinal = findUserRoots(graph)[0]
  for (const name of names) ordinal = graph.edgeTargets[graph.findEdge(ordinal, graph.edgeType.property, graph.strings.indexOf(name))]
  return ordinal
}

test('a plain object is named by its first and last properties', async (t) => {
  const graph = await graphPromise
  const name = displayName(graph, follow(graph, ['mixedHeap']))
  t.regex(name, /^\{cache, seen, weakKeys, .*, …, .*, weakCycle\}$/)
  t.true(name.length <= 100 + ', …'.length, name)
  // Small integers and doubles stored in fields are not edges, so only `list` names this object.
  t.is(displayName(graph, follow(graph, ['mixedHeap', 'numbers'])), '{list}')
})

test('a concatenated string shows its text', async (t) => {
  const graph = await graphPromise
  const ordinal = follow(graph, ['mixedHeap', 'strings', 'concatenated'])
  t.is(graph.nodeTypeName(ordinal), 'concatenated string')
  t.is(graph.nodeName(ordinal), '(concatenated string)')
  t.regex(displayName(graph, ordinal), /-\d+-concatenated tail text$/)
})

test('other nodes keep their raw name', async (t) => {
  const graph = await graphPromise
  t.is(displayName(graph, follow(graph, ['mixedHeap', 'cache'])), 'Map')
})
