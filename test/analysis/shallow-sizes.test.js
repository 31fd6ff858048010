// DevTools' shallow-size reassignment on a real heap: a Map's hash table (an `array` node only the
// Map reaches) counts as the Map's own size; the global keeps what is shared.
import test from 'ava'
import { findUserRoots } from '../../src/analysis/roots.js'
import { computeShallowSizes } from '../../src/analysis/shallow-sizes.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

const graphPromise = captureFixture('engine/mixed-heap').then(({ files }) => snapshotGraph(files[0]))

test('a Map owns its table: the table\'s bytes move into the Map', async (t) => {
  const graph = await graphPromise
  const global = findUserRoots(graph)[0]
  const property = (/** @type {number} */ o, /** @type {string} */ name) =>
    graph.edgeTargets[graph.findEdge(o, graph.edgeType.property, graph.strings.indexOf(name))]
  const map = property(property(global, 'mixedHeap'), 'cache')
  const table = graph.edgeTargets[graph.findEdge(map, graph.edgeType.internal, graph.strings.indexOf('table'))]
  t.is(graph.nodeTypeName(table), 'array')

  const { column, sizes } = computeShallowSizes(graph, { hasUserRoots: true })
  t.is(column.at(table), 0)
  t.true(column.at(map) >= graph.selfSizes[map] + graph.selfSizes[table])
  t.is(column.column.reduce((a, b) => a + b, 0), graph.selfSizes.reduce((a, b) => a + b, 0), 'sizes move, none appear or vanish')
  t.not(graph.selfSizes[table], 0, 'the raw column is left as it was')
  // What stays (a bit per folded node) gives every node's size again on demand.
  let differ = 0
  for (let o = 0; o < graph.nodeCount; o++) if (sizes.at(o) !== column.at(o)) differ++
  t.is(differ, 0)
  t.is(sizes.at(table), 0)
  t.is(sizes.at(map), column.at(map))
})

test('without user roots nothing moves', async (t) => {
  const graph = await graphPromise
  const { column, sizes } = computeShallowSizes(graph, { hasUserRoots: false })
  t.is(column.length, graph.nodeCount)
  t.true(column.column.every((size, o) => size === graph.selfSize(o)))
  t.true(column.column.every((size, o) => sizes.at(o) === size))
})
