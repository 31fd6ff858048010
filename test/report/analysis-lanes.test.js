// How a diff's files are split between this thread, which analyses them all one after the other,
// and the workers, which parse the rest meanwhile: this thread parses the smallest, the workers the
// others smallest first, so that the file this thread wants next is the one parsed first.
import test from 'ava'
import { analyzeSnapshots, parseLanes } from '../../src/pipeline/analyze-in-parallel.js'
import { arrayDifference } from '../helpers/array-difference.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'

/** @import {HeapAnalysis} from '../../src/analysis/analyze-heap.js' */

test('three files on two cores: this thread parses the smallest, one worker the other two, smaller first', (t) => {
  t.deepEqual(parseLanes([0, 1, 2], [14e6, 20e6, 24e6], 1), { own: [0], lanes: [[1, 2]], order: [0, 1, 2] })
  t.deepEqual(parseLanes([0, 1, 2], [230e6, 210e6, 200e6], 1), { own: [2], lanes: [[1, 0]], order: [2, 1, 0] })
})

test('more cores: the other files round the workers, smallest first; never more workers than files to hand them', (t) => {
  t.deepEqual(parseLanes([0, 1, 2], [100e6, 5e6, 6e6], 3), { own: [1], lanes: [[2], [0]], order: [1, 2, 0] })
  t.deepEqual(parseLanes([0, 1], [3, 1], 7), { own: [1], lanes: [[0]], order: [1, 0] })
})

test('no worker: everything on this thread, in the order of size', (t) => {
  t.deepEqual(parseLanes([0, 1, 2], [1, 3, 2], 0), { own: [0, 2, 1], lanes: [], order: [0, 2, 1] })
})

test('only the files given are split (streams stay on this thread)', (t) => {
  t.deepEqual(parseLanes([0, 2], [10, 0, 30], 1), { own: [0], lanes: [[2]], order: [0, 2] })
})

test('each analysis is handed to `prepare` as it is made, of a file a worker parsed too', async (t) => {
  const { files } = await captureFixture('diff/array-log')
  /** @type {Array<[number, HeapAnalysis]>} */
  const prepared = []
  // Paths as a diff asks for them: the newest snapshot's.
  const paths = (/** @type {number} */ i) => i === files.length - 1
  const analyses = await analyzeSnapshots(files, { parallel: true, paths, prepare: (analysis, i) => prepared.push([i, analysis]) })
  t.deepEqual(prepared.map(([i]) => i).sort(), files.map((_, i) => i))
  for (const [i, analysis] of prepared) t.is(analysis, analyses[i])
  // The analyses take turns with their scratch arrays: each the same as on one thread without them.
  const alone = await analyzeSnapshots(files, { parallel: false, paths })
  for (const [i, analysis] of analyses.entries()) {
    t.is(arrayDifference(analysis.dominators, alone[i].dominators), '', `dominators of ${i}`)
    t.is(arrayDifference(analysis.retainedSizes.column, alone[i].retainedSizes.column), '', `retained sizes of ${i}`)
    t.is(arrayDifference(analysis.classOf, alone[i].classOf), '', `classes of ${i}`)
  }
  const last = files.length - 1
  t.is(arrayDifference(/** @type {Int32Array} */ (analyses[last].distances), /** @type {Int32Array} */ (alone[last].distances)), '', 'distances')
  t.is(arrayDifference(/** @type {Uint32Array} */ (analyses[last].rootSteps), /** @type {Uint32Array} */ (alone[last].rootSteps)), '', 'root steps')
})

test('lowMemory reaches every analysis, of a file parsed here or in a worker: dominators that keep moving stay with the iterative passes', async (t) => {
  // Heaps whose dominators take more passes than the iterative algorithm is given (Lengauer–Tarjan
  // finds them by default), and settle within its climbing bound: the first snapshots of three
  // series, 7 MB in all.
  const files = await Promise.all([
    captureFixture('signatures/stalled-queue', { args: ['list'] }),
    captureFixture('signatures/forgotten-timer'),
    captureFixture('signatures/forgotten-timer', { args: ['60000'] })
  ].map(async (capture) => (await capture).files[0]))
  const fast = await analyzeSnapshots(files, { parallel: true })
  const low = await analyzeSnapshots(files, { parallel: true, lowMemory: true })
  t.deepEqual(fast.map((analysis) => analysis.dominatorAlgorithm), ['lengauer-tarjan', 'lengauer-tarjan', 'lengauer-tarjan'])
  t.deepEqual(low.map((analysis) => analysis.dominatorAlgorithm), ['iterative', 'iterative', 'iterative'])
  for (const [i, analysis] of low.entries()) {
    t.is(analysis.dominators.findIndex((dominator, o) => dominator !== fast[i].dominators[o]), -1, files[i])
    t.is(analysis.totalSize, fast[i].totalSize)
  }
})
