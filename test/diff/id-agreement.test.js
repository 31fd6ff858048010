// Whether two snapshots come from one process, told by how their shared object ids agree (src/diff/
// match-ids.js), on real snapshots: a sample of ids looked up by bisection, and every id when the
// sample finds too few of them in the other snapshot.
import test from 'ava'
import { sortPositionsByKey } from '../../src/graph/sorted-index.js'
import { compareIds } from '../../src/diff/match-ids.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

test('snapshots of one process agree on nearly every shared id; of two processes, on far fewer', async (t) => {
  const [first, second] = await Promise.all((await captureFixture('diff/array-log')).files.slice(0, 2).map(snapshotGraph))
  const other = await snapshotGraph((await captureFixture('diff/object-cache')).files[1])
  const same = compareIds(first, second, first.ordinalsById(), second.ordinalsById())
  t.true(same.checked >= 500, String(same.checked))
  t.true(same.ratio > 0.99, String(same.ratio))
  const apart = compareIds(first, other, first.ordinalsById(), other.ordinalsById())
  t.true(apart.checked >= 500, String(apart.checked))
  t.true(apart.ratio < 0.9, String(apart.ratio))
})

test('a heap that turned over, with few of the first snapshot\'s objects left: every id is looked up, not a sample that may miss them', async (t) => {
  const first = await snapshotGraph((await captureFixture('diff/array-log')).files[0])
  // The same heap with every object id moved but the first 120 in id order.
  const byId = first.ordinalsById()
  const kept = new Set()
  for (let k = 0; k < byId.length && kept.size < 120; k++) if (first.nodeIds[byId[k]] % 2 === 1) kept.add(byId[k])
  const nodeIds = first.nodeIds.map((id, ordinal) => kept.has(ordinal) ? id : id + 1_000_000_000)
  const later = { nodeIds, nodeTypes: first.nodeTypes, nodeNames: first.nodeNames, strings: first.strings }
  const agreement = compareIds(first, later, byId, sortPositionsByKey(nodeIds))
  t.is(agreement.checked, 120)
  t.is(agreement.ratio, 1)
})
