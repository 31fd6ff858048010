// The graph layer on a real snapshot: the retainer index is exactly the transpose of the edges,
// the id index finds every node, names and enums come from the snapshot's own meta.
import test from 'ava'
import { HeapGraph } from '../../src/graph/heap-graph.js'
import { NodeView } from '../../src/graph/node-view.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { arrayDifference } from '../helpers/array-difference.js'
import { parsedSnapshot, snapshotGraph } from '../helpers/parsed-snapshots.js'

const graphPromise = captureFixture('engine/mixed-heap').then(({ files }) => snapshotGraph(files[0]))

test('retainers are the edges sorted by target, each once, with their source', async (t) => {
  const graph = await graphPromise
  const { nodeCount, edgeCount, firstEdge, edgeTargets, firstRetainer, retainerEdges } = graph
  t.is(firstRetainer[0], 0)
  t.is(firstRetainer[nodeCount], edgeCount)
  const seen = new Uint8Array(edgeCount)
  let bad = 0
  for (let target = 0; target < nodeCount; target++) {
    let previous = -1
    for (let slot = firstRetainer[target]; slot < firstRetainer[target + 1]; slot++) {
      const e = retainerEdges[slot]
      const source = graph.retainerSource(slot)
      const ok = edgeTargets[e] === target && e >= firstEdge[source] && e < firstEdge[source + 1] && e > previous && !seen[e]
      if (!ok) bad++
      seen[e] = 1
      previous = e
    }
  }
  t.is(bad, 0, `${bad} retainer slots disagree with the forward edges`)
  t.is(seen.reduce((sum, bit) => sum + bit, 0), edgeCount, 'every edge appears as a retainer')
})

test('retainerNodes, built on first use, holds each slot\'s source', async (t) => {
  const graph = await graphPromise
  const { retainerNodes, firstEdge, retainerEdges } = graph
  t.is(retainerNodes.length, graph.edgeCount)
  let bad = 0
  for (let slot = 0; slot < retainerNodes.length; slot++) {
    const e = retainerEdges[slot]
    const source = retainerNodes[slot]
    if (e < firstEdge[source] || e >= firstEdge[source + 1] || graph.retainerSource(slot) !== source) bad++
  }
  t.is(bad, 0)
  t.is(graph.retainerNodes, retainerNodes, 'built once')
})

test('edgeSource finds the owner of every edge', async (t) => {
  const graph = await graphPromise
  let bad = 0
  for (let o = 0; o < graph.nodeCount; o++) {
    for (let e = graph.firstEdge[o]; e < graph.firstEdge[o + 1]; e++) {
      if (graph.edgeSource(e) !== o) bad++
    }
  }
  t.is(bad, 0)
})

test('findOrdinalById finds every node and nothing else', async (t) => {
  const graph = await graphPromise
  let bad = 0
  for (let o = 0; o < graph.nodeCount; o++) {
    if (graph.findOrdinalById(graph.nodeIds[o]) !== o) bad++
  }
  t.is(bad, 0)
  const ids = new Set(graph.nodeIds)
  let missing = 2
  while (ids.has(missing)) missing += 2
  t.is(graph.findOrdinalById(missing), -1)
  t.is(graph.findOrdinalById(0xffffffff), -1)
})

test('type enums come from meta and names decode by edge kind', async (t) => {
  const graph = await graphPromise
  t.is(graph.nodeType.object, graph.nodeTypeNames.indexOf('object'))
  t.is(graph.nodeType.concatenatedString, graph.nodeTypeNames.indexOf('concatenated string'))
  t.is(graph.edgeType.weak, graph.edgeTypeNames.indexOf('weak'))
  t.is(graph.nodeName(graph.rootOrdinal), '')
  t.is(graph.nodeTypeName(graph.rootOrdinal), 'synthetic')

  // The root's edges: element 1 -> (GC roots), shortcut "2" -> the global (section 3 of the format notes).
  const root = new NodeView(graph)
  const rootEdges = [...root.edges()]
  const gcRoots = rootEdges.find((edge) => edge.type === 'element' && edge.name === '1')
  t.truthy(gcRoots)
  t.is(graph.nodeName(/** @type {{node: number}} */ (gcRoots).node), '(GC roots)')
  const global = rootEdges.find((edge) => edge.type === 'shortcut')
  t.is(global?.name, '2')

  // mixedHeap is a property of the global, and the global is among mixedHeap's retainers' sources.
  const view = new NodeView(graph, /** @type {{node: number}} */ (global).node)
  const mixedHeap = [...view.edges()].find((edge) => edge.type === 'property' && edge.name === 'mixedHeap')
  t.truthy(mixedHeap)
  view.ordinal = /** @type {{node: number}} */ (mixedHeap).node
  t.is(view.type, 'object')
  t.true([...view.retainers()].some((edge) => edge.node === /** @type {{node: number}} */ (global).node && edge.name === 'mixedHeap'))
  t.is([...view.edges()].length, view.edgeCount)
  t.is([...view.retainers()].length, view.retainerCount)
  t.is(graph.findEdge(view.ordinal, graph.edgeType.property, graph.strings.indexOf('holders')) >= 0, true)
})

test('a graph needs a root inside the node range', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const data = await parsedSnapshot(files[0])
  const error = t.throws(() => new HeapGraph({ ...data, rootOrdinal: data.nodeCount }))
  t.is(/** @type {any} */ (error).code, 'LEAKDIFF_INVALID_ARG')
})

test('released retainers come back the same on first use', async (t) => {
  const data = await captureFixture('engine/mixed-heap').then(({ files }) => parsedSnapshot(files[0]))
  const graph = new HeapGraph(data)
  t.false(graph.hasRetainers, 'built on first use, not by the constructor')
  const firstRetainer = graph.firstRetainer.slice()
  const retainerEdges = graph.retainerEdges.slice()
  graph.releaseRetainers()
  t.false(graph.hasRetainers)
  t.is(arrayDifference(graph.retainerEdges, retainerEdges), '')
  t.is(arrayDifference(graph.firstRetainer, firstRetainer), '')
})
