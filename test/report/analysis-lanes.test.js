// How a diff's files are split between this thread and the workers: largest first, each to the
// lane with the fewest bytes so far, this thread's lane first, so that two cores analyse three
// files with one worker (one cold start) and the largest file never waits for a lane.
import test from 'ava'
import { analyzeSnapshots, assignLanes } from '../../src/pipeline/analyze-in-parallel.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'

/** @import {HeapAnalysis} from '../../src/analysis/analyze-heap.js' */

test('three files on two cores: this thread takes the largest, one worker the other two, larger first', (t) => {
  t.deepEqual(assignLanes([0, 1, 2], [14e6, 20e6, 24e6], 2), [[2], [1, 0]])
  t.deepEqual(assignLanes([0, 1, 2], [200e6, 210e6, 230e6], 2), [[2], [1, 0]])
})

test('a file much larger than the others has a lane to itself', (t) => {
  t.deepEqual(assignLanes([0, 1, 2], [5e6, 6e6, 100e6], 2), [[2], [1, 0]])
  t.deepEqual(assignLanes([0, 1, 2], [100e6, 5e6, 6e6], 3), [[0], [2], [1]])
})

test('one core: everything on this thread, in the order of size', (t) => {
  t.deepEqual(assignLanes([0, 1, 2], [1, 3, 2], 1), [[1, 2, 0]])
})

test('only the files given are assigned (streams stay on this thread)', (t) => {
  t.deepEqual(assignLanes([0, 2], [10, 0, 30], 2), [[2], [0]])
})

test('each analysis is handed to `prepare` on this thread as it is here, a worker\'s too', async (t) => {
  const { files } = await captureFixture('diff/array-log')
  /** @type {Array<[number, HeapAnalysis]>} */
  const prepared = []
  const analyses = await analyzeSnapshots(files, { parallel: true, prepare: (analysis, i) => prepared.push([i, analysis]) })
  t.deepEqual(prepared.map(([i]) => i).sort(), files.map((_, i) => i))
  for (const [i, analysis] of prepared) t.is(analysis, analyses[i])
})

test('lowMemory reaches every analysis, this thread\'s and a worker\'s: dominators that keep moving stay with the iterative passes', async (t) => {
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
