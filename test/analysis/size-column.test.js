// Sizes of 4 GiB and more, on a real heap past 4 GiB (fixtures/programs/engine/huge-buffers.js):
// the column holds LARGE_SIZE and the side map the exact bytes, through the retained-size sums per
// node and per class, and through an analysis sent to another thread.
import test from 'ava'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { LARGE_SIZE } from '../../src/parse/large-sizes.js'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'

const fixture = captureFixture('engine/huge-buffers')

test('a holder of 5.5 GiB of stores: exact sizes past 4 GiB per node and per class, also after a structured clone', async (t) => {
  const { files, report } = await fixture
  const /** @type {number[]} */ storeBytes = report.storeBytes
  const analysis = analyzeHeap(await parseSnapshot(files[0]))
  const { graph, retainedSizes, shallowSizes, dominators } = analysis
  const holder = graph.edgeTargets[graph.findEdge(analysis.userRoots[0], graph.edgeType.property, graph.strings.indexOf('hugeStores'))]
  const total = storeBytes.reduce((sum, bytes) => sum + bytes, 0)
  t.true(total > 2 ** 32)

  // Each store is a node of its own size, the one past 4 GiB too.
  const stores = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (storeBytes.includes(shallowSizes.at(o))) stores.push(shallowSizes.at(o))
  }
  t.deepEqual(stores.sort((a, b) => a - b), [...storeBytes].sort((a, b) => a - b))

  // The holder retains the stores and a few small objects; its size is its own plus what it
  // immediately dominates, exactly.
  const held = retainedSizes.at(holder)
  t.true(held >= total && held - total < 1 << 20)
  t.is(retainedSizes.column[holder], LARGE_SIZE)
  let sum = shallowSizes.at(holder)
  for (let o = 0; o < graph.nodeCount; o++) {
    if (o !== graph.rootOrdinal && dominators[o] === holder) sum += retainedSizes.at(o)
  }
  t.is(sum, held)
  t.true(analysis.totalSize >= held)

  // The stores' class holds them all once.
  const storeClass = analysis.classes.names.indexOf('system / JSArrayBufferData')
  t.true(analysis.classes.retainedSizes[storeClass] >= total)
  t.true(analysis.classes.selfSizes[storeClass] >= total)
})
