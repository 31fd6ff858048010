// Whether two snapshots come from one process, told by how their shared object ids agree (src/diff/
// match-ids.js), on real snapshots: a sample of ids looked up in the other snapshot's id index, and
// every id when the sample finds too few of them there.
import test from 'ava'
import { IdIndex } from '../../src/graph/id-index.js'
import { compareIds } from '../../src/diff/match-ids.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

test('snapshots of one process agree on nearly every shared id; of two processes, on far fewer', async (t) => {
  const [first, second] = await Promise.all((await captureFixture('diff/array-log')).files.slice(0, 2).map(snapshotGraph))
  const other = await snapshotGraph((await captureFixture('diff/object-cache')).files[1])
  const same = compareIds(first, second, second.idIndex())
  t.true(same.checked >= 500, String(same.checked))
  t.true(same.ratio > 0.99, String(same.ratio))
  const apart = compareIds(first, other, other.idIndex())
  t.true(apart.checked >= 500, String(apart.checked))
  t.true(apart.ratio < 0.9, String(apart.ratio))
})

test('a heap that turned over, with few of the first snapshot\'s objects left: every id is looked up, not a sample that may miss them', async (t) => {
  const first = await snapshotGraph((await captureFixture('diff/array-log')).files[0])
  // The same heap with every object id moved but the first 120 objects'.
  const kept = new Set()
  for (let o = 0; o < first.nodeCount && kept.size < 120; o++) if (first.nodeIds[o] % 2 === 1) kept.add(o)
  const nodeIds = first.nodeIds.map((id, ordinal) => kept.has(ordinal) ? id : id + 1_000_000_000)
  const later = { nodeIds, nodeTypes: first.nodeTypes, nodeNames: first.nodeNames, strings: first.strings }
  const agreement = compareIds(first, later, new IdIndex(nodeIds))
  t.is(agreement.checked, 120)
  t.is(agreement.ratio, 1)
})
