// Paths are walked over steps made once per analysis, not searched for one by one: a diff asks for
// the paths of thousands of owners, so a path must cost its hops, never a scan of each hop's
// retainers, and a step object only for the hops a cut path keeps.
import test from 'ava'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { retainerPath } from '../../src/analysis/retainer-paths.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { parsedSnapshot } from '../helpers/parsed-snapshots.js'

/** @import {HeapAnalysis} from '../../src/analysis/analyze-heap.js' */

// diff/http-seen: a module's array that Node's timer list reaches first, so readable paths and
// shortest paths differ, and the timer list makes long paths.
const fixture = captureFixture('diff/http-seen')

/**
 * The last snapshot's analysis with the retainer index built (as a diff has it), its retainer
 * columns made to throw when read, and its edge names counted.
 * @returns {Promise<{analysis: HeapAnalysis, named: {count: number}}>}
 */
async function watchedAnalysis () {
  const { files } = await fixture
  const analysis = analyzeHeap(await parsedSnapshot(files[files.length - 1]))
  const { graph } = analysis
  graph.buildRetainerIndex()
  for (const column of ['firstRetainer', 'retainerEdges', 'retainerNodes']) {
    Object.defineProperty(graph, column, { get () { throw new Error(`a path read ${column}`) } })
  }
  const named = { count: 0 }
  const edgeName = graph.edgeName.bind(graph)
  graph.edgeName = (edge) => {
    named.count++
    return edgeName(edge)
  }
  return { analysis, named }
}

for (const readable of [true, false]) {
  test(`${readable ? 'readable' : 'shortest'} paths of every node read no retainer and name only the hops they keep`, async (t) => {
    const { analysis, named } = await watchedAnalysis()
    const { graph, distances } = analysis
    let kept = 0
    let elided = 0
    for (let o = 0; o < graph.nodeCount; o++) {
      const path = retainerPath(analysis, o, { maxLength: 12, readable })
      for (const step of path) {
        if (step.edgeType === 'elided') elided += Number.parseInt(step.node, 10)
        else kept++
      }
      if (distances[o] >= 0 && o !== graph.rootOrdinal) t.true(path.length > 0 && path.length <= 12, `@${graph.nodeIds[o]}`)
    }
    t.is(named.count, kept)
    // The snapshot has paths long enough to be cut: naming every hop would cost more.
    t.true(elided > 0)
  })
}
