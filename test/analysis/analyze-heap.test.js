// What keeps analyzeHeap's peak memory at the dominator stage's (src/analysis/analyze-heap.js):
// no retainer index, and no per-node array allocated after the dominators. Correctness of the
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

test('the five per-node results live in the four arrays of the dominator stage', async (t) => {
  const { dominators, shallowSizes, retainedSizes, distances, classOf, graph } = await analysisPromise
  const results = [dominators, shallowSizes, retainedSizes, distances, classOf]
  for (const result of results) t.is(result.length, graph.nodeCount)
  const buffers = new Set(results.map((result) => result.buffer))
  t.is(buffers.size, 4, 'shallow sizes and distances share the memory of the listed predecessors')
  // The layout in analyze-heap.js: n + 1 Uint32 entries for the dominators, 2 (n + 1) for the
  // retained sizes, n + 1 for the class index, and the predecessor list: 3n, or the number of
  // listed predecessors (at most the edges) when that is larger.
  const bytes = [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0)
  const n = graph.nodeCount
  t.true(bytes <= 4 * (4 * (n + 1) + Math.max(3 * n, graph.edgeCount)), `${bytes} bytes for ${n} nodes`)
})
