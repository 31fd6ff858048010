// The proof that leakdiff shows the numbers Chrome DevTools shows: for snapshots of a bare Node
// process (default, exposeInternals and exposeNumericValues), every node's adjusted self size,
// retained size, immediate dominator, distance and class, and every Summary class's name, count,
// shallow size and retained size, against DevTools' own code run on the same file.
import test from 'ava'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { compareWithDevtools, describeComparison, totalNodeMismatches } from './devtools-comparison.js'

const bare = captureFixture('engine/bare')
const exposed = captureFixture('engine/exposed')

/**
 * @param {import('ava').ExecutionContext} t
 * @param {string} file
 */
async function assertParity (t, file) {
  const comparison = await compareWithDevtools(file)
  t.true(comparison.oracle.nodeCount > 10_000, `expected a real heap, got ${comparison.oracle.nodeCount} nodes`)
  t.true(comparison.oracle.classes.length > 50, `expected a real Summary, got ${comparison.oracle.classes.length} classes`)
  t.is(totalNodeMismatches(comparison) + comparison.classMismatches, 0, describeComparison(comparison))
  t.is(comparison.analysis.totalSize, comparison.oracle.totalSize)
  // Node 22 and 24 write a few nodes with no retainer at all (DevTools reports them); they hold
  // next to nothing, so they are no reason for a warning.
  t.deepEqual(comparison.analysis.warnings, [], 'nothing in a bare process makes the numbers doubtful')
  return comparison
}

test('bare process: every node and class as in DevTools', async (t) => {
  const { files } = await bare
  const { analysis } = await assertParity(t, files[0])
  t.true(analysis.userRoots.length > 0, 'the global is a user root')
  const ordinals = Array.from({ length: analysis.graph.nodeCount }, (_, o) => o)
  t.true(ordinals.some((o) => analysis.shallowSizes.at(o) !== analysis.graph.selfSize(o)), 'sizes are reassigned when there are user roots')
})

test('exposeInternals snapshot (no user roots): raw self sizes, distances from 0, as in DevTools', async (t) => {
  const { files } = await exposed
  const { analysis } = await assertParity(t, files[0])
  t.deepEqual(analysis.userRoots, [])
  const ordinals = Array.from({ length: analysis.graph.nodeCount }, (_, o) => o)
  t.true(ordinals.every((o) => analysis.shallowSizes.at(o) === analysis.graph.selfSize(o)), 'raw self sizes')
  t.is(analysis.distances[analysis.graph.rootOrdinal], 0)
})

test('exposeNumericValues snapshot: every node and class as in DevTools', async (t) => {
  const { files } = await exposed
  await assertParity(t, files[1])
})
