// What keeps analyzeHeap's memory low (src/analysis/analyze-heap.js): no retainer index, and
// 14 bytes per node kept after it; what an analysis without distances keeps. Correctness of the
// numbers is the DevTools parity tests' job.
import test from 'ava'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { distancesOf } from '../../src/analysis/distances.js'
import { NodeScratch } from '../../src/analysis/node-scratch.js'
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

test('a series analysed in turn with one scratch: each analysis as it is alone, the later ones in memory the earlier ones gave back', async (t) => {
  const { files } = await captureFixture('diff/listeners')
  const data = await Promise.all(files.map(async (file) => analyzeHeap(await parsedSnapshot(file), { rootSteps: true })))
  const scratch = new NodeScratch(Math.max(...data.map((analysis) => analysis.graph.nodeCount)))
  /** @type {ArrayBuffer[][]} */
  const lent = []
  /** @type {ArrayBuffer[][]} */
  const given = []
  const spy = /** @type {NodeScratch} */ (/** @type {unknown} */ ({
    uint32: (/** @type {number} */ length) => { const array = scratch.uint32(length); lent[lent.length - 1].push(array.buffer); return array },
    give: (/** @type {Uint32Array} */ array) => { given[given.length - 1].push(array.buffer); scratch.give(array) }
  }))
  const analyses = []
  for (const [i, file] of files.entries()) {
    lent.push([])
    given.push([])
    const last = i === files.length - 1
    analyses.push(analyzeHeap(await parsedSnapshot(file), { distances: last, rootSteps: last, scratch: spy }))
  }
  // What the diff does next in the same scratch: arrays it writes all over.
  scratch.uint32(data[2].graph.nodeCount).fill(0xffffffff)
  scratch.uint32(data[2].graph.nodeCount).fill(0xffffffff)
  for (const [i, analysis] of analyses.entries()) {
    const alone = data[i]
    t.is(arrayDifference(analysis.dominators, alone.dominators), '', `dominators of ${i}`)
    t.is(arrayDifference(analysis.retainedSizes.column, alone.retainedSizes.column), '', `retained sizes of ${i}`)
    t.is(arrayDifference(analysis.classOf, alone.classOf), '', `classes of ${i}`)
  }
  const last = analyses[2]
  t.is(arrayDifference(/** @type {Int32Array} */ (last.distances), /** @type {Int32Array} */ (data[2].distances)), '', 'distances')
  t.is(arrayDifference(/** @type {Uint32Array} */ (last.rootSteps), /** @type {Uint32Array} */ (data[2].rootSteps)), '', 'root steps')
  // Without distances both scratch arrays come back; the next analysis takes the same memory.
  t.is(given[0].length, 2)
  t.is(given[1].length, 2)
  t.deepEqual(new Set(lent[1]), new Set(given[0]))
  t.deepEqual(new Set(lent[2]), new Set(given[1]))
  t.deepEqual(given[2], [], 'the last keeps its distances and root steps')
  t.true(lent[2].includes(/** @type {Int32Array} */ (last.distances).buffer))
})
