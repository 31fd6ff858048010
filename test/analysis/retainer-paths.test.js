// Retainer paths on the mixed heap: the Map reads as global -> mixedHeap -> cache, and every path
// in the snapshot is a chain of real, non-weak edges as long as the node's distance.
import test from 'ava'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { blockVariableName } from '../../src/analysis/block-scope-names.js'
import { BASE_SYSTEM_DISTANCE, NO_DISTANCE } from '../../src/analysis/distances.js'
import { MAX_PATH_STEPS, retainerPath } from '../../src/analysis/retainer-paths.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { analysedSnapshot, parsedSnapshot } from '../helpers/parsed-snapshots.js'

/** @import {HeapAnalysis} from '../../src/analysis/analyze-heap.js' */

// Its own analysis (the columns shared): a test checks that paths leave the retainer index unbuilt.
const analysisPromise = captureFixture('engine/mixed-heap').then(async ({ files }) => analyzeHeap(await parsedSnapshot(files[0])))

/**
 * Follows property edges from the global, e.g. ['mixedHeap', 'cache'].
 * @param {HeapAnalysis} analysis
 * @param {string[]} names
 */
function followFromGlobal ({ graph, userRoots }, names) {
  let ordinal = userRoots[0]
  for (const name of names) {
    const edge = graph.findEdge(ordinal, graph.edgeType.property, graph.strings.indexOf(name))
    if (edge < 0) throw new Error(`no property ${name} on @${graph.nodeIds[ordinal]}`)
    ordinal = graph.edgeTargets[edge]
  }
  return ordinal
}

test('the path to the Map goes through the global and ends in .cache -> Map', async (t) => {
  const analysis = await analysisPromise
  const map = followFromGlobal(analysis, ['mixedHeap', 'cache'])
  const path = retainerPath(analysis, map)
  t.deepEqual(path.map((step) => [step.edgeType, step.edge, step.node]), [
    ['shortcut', '2', analysis.classes.names[analysis.classOf[analysis.userRoots[0]]]],
    ['property', 'mixedHeap', 'Object'],
    ['property', 'cache', 'Map']
  ])
  t.is(path[2].id, analysis.graph.nodeIds[map])
  t.is(path[2].nodeType, 'object')
})

test('a closure variable shows as a context edge', async (t) => {
  const analysis = await analysisPromise
  const { graph } = analysis
  const increment = followFromGlobal(analysis, ['mixedHeap', 'counter', 'increment'])
  const context = graph.edgeTargets[graph.findEdge(increment, graph.edgeType.internal, graph.strings.indexOf('context'))]
  const bigArray = graph.edgeTargets[graph.findEdge(context, graph.edgeType.context, graph.strings.indexOf('bigArray'))]
  const path = retainerPath(analysis, bigArray)
  t.deepEqual(path.at(-1), { edge: 'bigArray', edgeType: 'context', node: 'Array', nodeType: 'object', id: graph.nodeIds[bigArray] })
  t.is(path.length, analysis.distances[bigArray])
})

test('every path is a chain of real non-weak edges from the root, as long as the distance', async (t) => {
  const analysis = await analysisPromise
  const { graph, distances } = analysis
  const rootDistance = distances[graph.rootOrdinal]
  t.is(rootDistance, BASE_SYSTEM_DISTANCE)
  let checked = 0
  let bad = 0
  /** @type {string[]} */
  const examples = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (o === graph.rootOrdinal || distances[o] === NO_DISTANCE) continue
    const path = retainerPath(analysis, o, { maxLength: Infinity })
    const expected = distances[o] >= rootDistance ? distances[o] - rootDistance : distances[o]
    let from = graph.rootOrdinal
    let ok = path.length === expected
    for (const step of path) {
      const to = graph.findOrdinalById(step.id)
      ok &&= step.edgeType !== 'weak' && hasEdge(graph, from, to, step.edgeType, step.edge)
      from = to
    }
    ok &&= from === o
    checked++
    if (!ok) {
      bad++
      if (examples.length < 3) examples.push(`@${graph.nodeIds[o]}: ${JSON.stringify(path)}`)
    }
  }
  t.true(checked > 10_000)
  t.is(bad, 0, examples.join('\n'))
})

test('each step is the retainer one closer of the most recognisable edge type, without a retainer index', async (t) => {
  const analysis = await analysisPromise
  const { graph, distances } = analysis
  /** @type {Array<[number, string]>} */
  const paths = []
  for (let o = 0; o < graph.nodeCount; o += 7) paths.push([o, JSON.stringify(retainerPath(analysis, o, { maxLength: Infinity }))])
  t.false(graph.hasRetainers)

  // The same choice made over the retainer index: the first retainer slot (slots are in edge
  // order) of the best-ranked type among those one closer to the root.
  const ranks = ['property', 'context', 'element', 'shortcut', 'internal', 'hidden']
  const rankOf = (/** @type {number} */ e) => {
    const rank = ranks.indexOf(graph.edgeTypeName(e))
    return rank < 0 ? ranks.length : rank
  }
  let bad = 0
  /** @type {string[]} */
  const examples = []
  for (const [o, actual] of paths) {
    /** @type {Array<{edge: string, edgeType: string, id: number}>} */
    const expected = []
    for (let node = o; node !== graph.rootOrdinal && distances[node] !== NO_DISTANCE;) {
      let best = -1
      for (let slot = graph.firstRetainer[node]; slot < graph.firstRetainer[node + 1]; slot++) {
        const e = graph.retainerEdges[slot]
        const source = graph.retainerSource(slot)
        const closer = distances[source] === distances[node] - 1 || (distances[node] === 1 && source === graph.rootOrdinal)
        if (graph.edgeTypeName(e) === 'weak' || !closer || source === node) continue
        if (best < 0 || rankOf(e) < rankOf(best)) best = e
      }
      const variable = blockVariableName(graph, best)
      expected.unshift({ edge: variable ?? graph.edgeName(best), edgeType: variable === null ? graph.edgeTypeName(best) : 'context', id: graph.nodeIds[node] })
      node = graph.edgeSource(best)
    }
    const steps = JSON.parse(actual).map((/** @type {import('../../src/analysis/retainer-paths.js').Step} */ step) => ({ edge: step.edge, edgeType: step.edgeType, id: step.id }))
    if (JSON.stringify(steps) !== JSON.stringify(expected)) {
      bad++
      if (examples.length < 3) examples.push(`@${graph.nodeIds[o]}: ${actual}`)
    }
  }
  t.true(paths.length > 2_000)
  t.is(bad, 0, examples.join('\n'))
  // With the retainer index built (as the diff has it), paths walk it and come out the same.
  t.true(graph.hasRetainers)
  t.deepEqual(paths.filter(([o, path]) => JSON.stringify(retainerPath(analysis, o, { maxLength: Infinity })) !== path), [])
})

test('root steps made by the analysis itself (inspect) give the same paths as steps made on first use', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const plain = await analysisPromise
  const withSteps = analyzeHeap(await parsedSnapshot(files[0]), { rootSteps: true })
  t.is(plain.rootSteps, undefined)
  t.true(withSteps.rootSteps instanceof Uint32Array)
  t.is(withSteps.rootSteps?.length, withSteps.graph.nodeCount)
  let compared = 0
  /** @type {string[]} */
  const differences = []
  for (let o = 0; o < plain.graph.nodeCount; o += 5) {
    if (plain.distances[o] === NO_DISTANCE) continue
    const [stepped, found] = [withSteps, plain].map((analysis) => JSON.stringify(retainerPath(analysis, o, { maxLength: Infinity })))
    if (stepped !== found) differences.push(`@${plain.graph.nodeIds[o]}: ${stepped} instead of ${found}`)
    compared++
  }
  t.true(compared > 2_000)
  t.deepEqual(differences.slice(0, 3), [])
  t.false(withSteps.graph.hasRetainers)
})

test('long paths keep both ends around one elided step', async (t) => {
  const analysis = await analysisPromise
  const { distances, graph } = analysis
  let deepest = analysis.userRoots[0]
  for (let o = 0; o < graph.nodeCount; o++) {
    if (distances[o] < BASE_SYSTEM_DISTANCE && distances[o] > distances[deepest]) deepest = o
  }
  const full = retainerPath(analysis, deepest, { maxLength: Infinity })
  t.true(full.length > 5)
  const short = retainerPath(analysis, deepest, { maxLength: 5 })
  t.is(short.length, 5)
  t.deepEqual(short.slice(0, 2), full.slice(0, 2))
  t.deepEqual(short.slice(3), full.slice(-2))
  t.is(short[2].edgeType, 'elided')
  t.is(short[2].node, `${full.length - 4} steps`)
  t.deepEqual(retainerPath(analysis, graph.rootOrdinal), [])
})

test('a path of thousands of steps down a linked list keeps every name, the list shortened in its middle', async (t) => {
  const { files } = await captureFixture('engine/long-chain')
  const analysis = await analysedSnapshot(files[0])
  const { graph, distances } = analysis
  let deepest = analysis.userRoots[0]
  for (let o = 0; o < graph.nodeCount; o++) if (distances[o] < BASE_SYSTEM_DISTANCE && distances[o] > distances[deepest]) deepest = o
  const full = retainerPath(analysis, deepest, { maxLength: Infinity })
  t.true(full.length > MAX_PATH_STEPS, String(full.length))
  for (const readable of [false, true]) {
    const path = retainerPath(analysis, deepest, { readable })
    t.true(path.length <= MAX_PATH_STEPS)
    const at = path.findIndex((step) => step.edgeType === 'elided')
    t.is(path.filter((step) => step.edgeType === 'elided').length, 1)
    // The elided steps are links of the list, with two kept on either side; the rest is the path.
    t.deepEqual([...path.slice(at - 2, at), ...path.slice(at + 1, at + 3)].map((step) => step.edge), ['next', 'next', 'next', 'next'])
    t.is(path[at].node, `${full.length - path.length + 1} steps`)
    t.deepEqual(path.slice(0, at), full.slice(0, at))
    t.deepEqual(path.slice(at + 1), full.slice(full.length - (path.length - at - 1)))
    t.deepEqual(new Set(path.map((step) => step.edge).filter((edge) => edge !== '…')), new Set(full.map((step) => step.edge)))
  }
})

/**
 * @param {HeapAnalysis['graph']} graph
 * @param {number} from
 * @param {number} to
 * @param {string} type
 * @param {string} name
 */
function hasEdge (graph, from, to, type, name) {
  for (let e = graph.firstEdge[from]; e < graph.firstEdge[from + 1]; e++) {
    if (graph.edgeTargets[e] !== to) continue
    if (graph.edgeTypeName(e) === type && graph.edgeName(e) === name) return true
    // A block scope's variable: a hidden slot of its context, shown by the name its ScopeInfo gives.
    if (type === 'context' && graph.edgeTypeName(e) === 'hidden' && blockVariableName(graph, e) === name) return true
  }
  return false
}
