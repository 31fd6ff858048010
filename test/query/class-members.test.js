// The objects of a few classes, from the class column, on a real snapshot: the same nodes, in the
// same order, as a test of every node's class.
import test from 'ava'
import { classMask, membersOf } from '../../src/query/class-members.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { analysedSnapshot } from '../helpers/parsed-snapshots.js'

const fixture = captureFixture('engine/mixed-heap')
const analysisPromise = fixture.then(({ files }) => analysedSnapshot(files[0]))

test('the members of the classes asked, ascending, and those of no class when none is asked', async (t) => {
  const analysis = await analysisPromise
  const { classOf, classes } = analysis
  const asked = new Set(['LeakyHolder', 'Map', 'system / Context'])
  const mask = classMask(analysis, (name) => asked.has(name))
  const members = membersOf(analysis, mask)
  const expected = []
  for (let o = 0; o < classOf.length; o++) if (asked.has(classes.names[classOf[o]])) expected.push(o)
  t.true(expected.length > 100, String(expected.length))
  t.deepEqual([...members], expected)
  t.is(membersOf(analysis, classMask(analysis, () => false)).length, 0)
  t.deepEqual([...membersOf(analysis, classMask(analysis, () => true))], Array.from(classOf, (_, o) => o))
})

test('a class is asked by its index too: classes of one name are each their own', async (t) => {
  const analysis = await analysisPromise
  const { classOf } = analysis
  const first = classOf[analysis.graph.rootOrdinal]
  const members = membersOf(analysis, classMask(analysis, (_, index) => index === first))
  const expected = []
  for (let o = 0; o < classOf.length; o++) if (classOf[o] === first) expected.push(o)
  t.deepEqual([...members], expected)
  t.true(members.includes(analysis.graph.rootOrdinal))
})
