// The edge cursor on a real snapshot: it visits exactly the edges the graph's columns hold, in
// their order, and reads each edge as the graph's own methods do.
import test from 'ava'
import { EdgeCursor } from '../../src/graph/node-view.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

const graphPromise = captureFixture('engine/mixed-heap').then(({ files }) => snapshotGraph(files[0]))

test('references visit every outgoing edge of a node in order, with its type, name and ends', async (t) => {
  const graph = await graphPromise
  const edge = new EdgeCursor(graph)
  let bad = 0
  let visited = 0
  for (let o = 0; o < graph.nodeCount; o++) {
    let expected = graph.firstEdge[o]
    for (edge.references(o); edge.next(); expected++) {
      visited++
      const e = edge.number
      if (e !== expected || edge.source !== o || edge.target !== graph.edgeTargets[e] || edge.type !== graph.edgeTypeName(e) ||
        (o % 97 === 0 && edge.name !== graph.edgeName(e))) bad++
    }
    if (expected !== graph.firstEdge[o + 1] || edge.number !== -1) bad++
  }
  t.is(bad, 0)
  t.is(visited, graph.edgeCount, 'every edge once')
})

test('retainers visit every incoming edge of a node with its source', async (t) => {
  const graph = await graphPromise
  const edge = new EdgeCursor(graph)
  let bad = 0
  let visited = 0
  for (let o = 0; o < graph.nodeCount; o += 7) {
    let slot = graph.firstRetainer[o]
    for (edge.retainers(o); edge.next(); slot++) {
      visited++
      if (edge.number !== graph.retainerEdges[slot] || edge.target !== o || edge.source !== graph.retainerSource(slot)) bad++
    }
    if (slot !== graph.firstRetainer[o + 1]) bad++
  }
  t.is(bad, 0)
  t.true(visited > 0)
})

test('is() matches type and name without decoding, index reads numbered names, and no node has no edges', async (t) => {
  const graph = await graphPromise
  const edge = new EdgeCursor(graph)
  let bad = 0
  let elements = 0
  for (let o = 0; o < graph.nodeCount; o += 31) {
    for (edge.references(o); edge.next();) {
      const { type, name } = edge
      const typed = /** @type {import('../../src/graph/heap-graph.js').EdgeTypeName} */ (type)
      const numbered = type === 'element' || type === 'hidden'
      if (!edge.is(typed) || !edge.is(typed, numbered ? Number(name) : name) || edge.is(typed, numbered ? -1 : 'no edge is named so')) bad++
      if (numbered) {
        elements++
        if (edge.index !== Number(name)) bad++
      } else if (!Object.is(edge.index, /^\d+$/.test(name) ? Number(name) : NaN)) bad++
      if (edge.is(type === 'weak' ? 'property' : 'weak')) bad++
    }
  }
  t.is(bad, 0)
  t.true(elements > 0)
  t.false(edge.references(-1).next(), 'ordinal -1 has no references')
  t.false(edge.retainers(graph.nodeCount).next(), 'nor does an ordinal past the end have retainers')
})
