// What keeps analyzeHeap's memory low (src/analysis/analyze-heap.js): no retainer index, and
// 14 bytes per node kept after it; what an analysis without distances keeps. Correctness of the
// numbers is the DevTools parity tests' job.
import test from 'ava'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { distancesOf } from '../../src/analysis/distances.js'
import { retainerPath } from '../../src/analysis/retainer-paths.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { arrayDifference } from '../helpers/array-difference.js'
import { analysedSnapshot, parsedSnapshot } from '../helpers/parsed-snapshots.js'

// Its own analysis (the columns shared): the first test checks what the analysis left unbuilt.
const analysisPromise = captureFixture('engine/bare').then(async ({ files }) => analyzeHeap(await parsedSnapshot(files[0])))

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

test('without distances (a diff\'s earlier snapshots) every number a diff reads is the same, and no path is asked of it', async (t) => {
  const { files } = await captureFixture('engine/bare')
  const full = await analysedSnapshot(files[0])
  const lean = analyzeHeap(await parsedSnapshot(files[0]), { distances: false })
  t.is(lean.distances, null)
  t.is(arrayDifference(lean.dominators, full.dominators), '', 'dominators')
  t.is(arrayDifference(lean.retainedSizes.column, full.retainedSizes.column), '', 'retained sizes')
  t.is(arrayDifference(lean.classOf, full.classOf), '', 'classes')
  t.deepEqual([lean.classes.names, lean.classes.counts, lean.classes.selfSizes, lean.classes.retainedSizes], [full.classes.names, full.classes.counts, full.classes.selfSizes, full.classes.retainedSizes])
  t.is(lean.totalSize, full.totalSize)
  const global = full.userRoots[0]
  t.true(retainerPath(full, global).length > 0)
  t.deepEqual(retainerPath(lean, global), [])
  t.throws(() => distancesOf(lean), { message: /with distances/ })
})
