// The growth row of each owner, one array for a whole diff: every signature asks it through a
// filter of the rows it looks at, and the comparison renumbers it as it sorts the rows.
import test from 'ava'
import { diffHeapsWithDetail } from '../../src/diff/diff-heaps.js'
import { OwnerRows } from '../../src/query/owner-rows.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { analysedSnapshot } from '../helpers/parsed-snapshots.js'

const diffed = captureFixture('diff/listeners').then(async ({ files }) => {
  const { detail } = diffHeapsWithDetail(await Promise.all(files.map(analysedSnapshot)))
  if (detail === null) throw new Error('Expected the listeners case to be compared by id')
  return detail
})

test('a diff\'s owner rows name the row of each owner of result.growth and of nothing else', async (t) => {
  const { ownerRows, groupOwners, analyses } = await diffed
  t.true(groupOwners.length >= 2)
  groupOwners.forEach((owners, g) => { for (const o of owners) t.is(ownerRows.rowOf(o), g) })
  let owning = 0
  for (let o = 0; o < analyses[analyses.length - 1].graph.nodeCount; o++) if (ownerRows.rowOf(o) >= 0) owning++
  t.is(owning, groupOwners.flat().length)
})

test('only() answers for the rows asked of and -1 for the owners of the others', async (t) => {
  const { ownerRows, groupOwners } = await diffed
  const asked = [1, groupOwners.length - 1]
  const some = ownerRows.only(asked)
  groupOwners.forEach((owners, g) => { for (const o of owners) t.is(some.rowOf(o), asked.includes(g) ? g : -1) })
})

test('renumber() follows the rows into their new order', async (t) => {
  const { groupOwners, analyses } = await diffed
  const rows = new OwnerRows(analyses[analyses.length - 1].graph.nodeCount, groupOwners)
  const reversed = [...groupOwners].reverse()
  rows.renumber(reversed)
  reversed.forEach((owners, g) => { for (const o of owners) t.is(rows.rowOf(o), g) })
  // An owner listed in two rows belongs to the first.
  const [first, second] = groupOwners
  rows.renumber([second, [...first, ...second]])
  for (const o of second) t.is(rows.rowOf(o), 0)
  for (const o of first) t.is(rows.rowOf(o), 1)
})
