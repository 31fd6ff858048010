// What keeps analyzeHeap's memory low (src/analysis/analyze-heap.js): no retainer index, and
// 14 bytes per node kept after it. Correctness of the
// numbers is the DevTools parity tests' job.
import test from 'ava'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'

const analysisPromise = captureFixture('engine/bare').then(async ({ files }) => analyzeHeap(await parseSnapshot(files[0])))

test('the dominators need no retainer index: the analysis leaves it unbuilt', async (t) => {
  const analysis = await analysisPromise
  t.true(analysis.graph.nodeCount > 10_000, `expected a real heap, got ${analysis.graph.nodeCount} nodes`)
  t.false(analysis.graph.hasRetainers)
  t.true(analysis.graph.retainerCountOf(analysis.userRoots[0]) > 0, 'later readers still get retainers on first use')
})

test('what stays per node is 14 bytes: dominators, distances and retained sizes in 4 each, classes in 2', async (t) => {
  const { dominators, retainedSizes, distances, classOf, classes, graph } = await analysisPromise
  const n = graph.nodeCount
  for (const result of [dominators, retainedSizes.column, distances, classOf]) t.is(result.length, n)
  t.true(classes.names.length <= 0x10000)
  t.true(classOf instanceof Uint16Array, 'a class index fits 16 bits')
  const buffers = new Set([dominators, retainedSizes.column, distances, classOf].map((result) => result.buffer))
  t.is(buffers.size, 4)
  const bytes = [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0)
  t.is(bytes, 14 * n)
  t.is(retainedSizes.at(graph.rootOrdinal), retainedSizes.column[graph.rootOrdinal], 'a heap this small needs no side map')
})
