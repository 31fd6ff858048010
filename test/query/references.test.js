// The query vocabulary on a real snapshot: references by name and type, retainers, the first
// reference or retainer where a test holds, and the entries of the program's collections.
import test from 'ava'
import { collectionKind, collectionOfStore, entryCountsById, forEachEntry } from '../../src/query/collection-entries.js'
import { isWeakRef, weakRefTarget } from '../../src/query/heap-values.js'
import { findReference, findRetainer, forEachReferenceNamed, propertyTarget, reference, referencedNodes, retainer } from '../../src/query/references.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

/** @import {HeapGraph} from '../../src/graph/heap-graph.js' */

const fixture = captureFixture('engine/mixed-heap')
const graphPromise = fixture.then(({ files }) => snapshotGraph(files[0]))

/**
 * The object the program stored as `globalThis.mixedHeap`.
 * @param {HeapGraph} graph
 */
function mixedHeap (graph) {
  const global = findReference(graph, graph.rootOrdinal, (edge) => edge.type === 'shortcut')
  return reference(graph, global, 'mixedHeap')
}

test('a reference by name and type, and the retainer that names it back', async (t) => {
  const graph = await graphPromise
  const heap = mixedHeap(graph)
  t.true(heap >= 0)
  const cache = reference(graph, heap, 'cache')
  t.is(graph.nodeName(cache), 'Map')
  t.is(reference(graph, heap, 'cache', 'internal'), -1, 'the type counts')
  t.is(reference(graph, heap, 'no such property'), -1)
  t.is(reference(graph, -1, 'cache'), -1, 'no node has no references')
  t.is(propertyTarget(graph, cache, 'table'), reference(graph, cache, 'table', 'internal'), 'propertyTarget reads internal fields too')
  t.is(retainer(graph, cache, 'cache'), heap)
  t.is(findRetainer(graph, cache, (edge) => edge.is('property', 'cache')), heap)
  t.is(findRetainer(graph, cache, (edge) => edge.is('element')), -1)
})

test('elements are found by index, and referencedNodes lists one type in order', async (t) => {
  const graph = await graphPromise
  const { report } = await fixture
  const holders = reference(graph, mixedHeap(graph), 'holders')
  const elements = referencedNodes(graph, holders, 'element')
  t.is(elements.length, report.leakyHolders)
  t.is(reference(graph, holders, 0, 'element'), elements[0])
  t.is(reference(graph, holders, elements.length - 1, 'element'), elements[elements.length - 1])
  t.true(elements.every((o) => graph.nodeName(o) === 'LeakyHolder'))
})

test('collection entries: a Map, a Set, an array and a plain object, and a store back to its collection', async (t) => {
  const graph = await graphPromise
  const { report } = await fixture
  const heap = mixedHeap(graph)
  const cache = reference(graph, heap, 'cache')
  const seen = reference(graph, heap, 'seen')
  const holders = reference(graph, heap, 'holders')
  t.is(collectionKind(graph, cache), 'Map')
  t.is(collectionKind(graph, seen), 'Set')
  t.is(collectionKind(graph, holders), 'array')
  t.is(collectionKind(graph, heap), 'object')
  let keyed = 0
  t.is(forEachEntry(graph, cache, 'Map', (key, value) => { if (key >= 0 && value >= 0) keyed++ }), report.mapEntries)
  t.is(keyed, report.mapEntries, 'string keys and object values both have edges')
  t.is(forEachEntry(graph, seen, 'Set'), report.setMembers)
  t.is(forEachEntry(graph, holders, 'array'), report.leakyHolders)
  /** @type {string[]} */
  const names = []
  forEachEntry(graph, heap, 'object', (_, __, name) => { if (name !== null) names.push(name) })
  t.true(names.includes('cache') && names.includes('holders') && !names.includes('__proto__'))
  const table = reference(graph, cache, 'table', 'internal')
  t.is(collectionOfStore(graph, table), cache)
  t.is(collectionOfStore(graph, cache), cache)
  // By id, per snapshot, asked twice (the second answer is the first one kept): the kind must match.
  for (let round = 0; round < 2; round++) {
    t.deepEqual(entryCountsById([graph, graph], graph.nodeIds[cache], 'Map'), [report.mapEntries, report.mapEntries])
    t.deepEqual(entryCountsById([graph], graph.nodeIds[seen], 'Set'), [report.setMembers])
    t.deepEqual(entryCountsById([graph], graph.nodeIds[holders], 'array'), [report.leakyHolders])
    t.deepEqual(entryCountsById([graph], graph.nodeIds[cache], 'Set'), [0], 'a Map is no Set')
    t.deepEqual(entryCountsById([graph], 1, 'Map'), [0], 'no such id')
  }
})

test('a WeakRef and what it points at: its object while it lives, nothing once it is collected; its prototype is no WeakRef', async (t) => {
  const graph = await graphPromise
  const live = reference(graph, mixedHeap(graph), 'weakCycle')
  t.true(isWeakRef(graph, live))
  const target = weakRefTarget(graph, live)
  t.is(graph.nodeName(reference(graph, target, 'cycle')), 'first')
  t.false(isWeakRef(graph, propertyTarget(graph, live, '__proto__')))
  t.false(isWeakRef(graph, reference(graph, mixedHeap(graph), 'cache')))
  // A registry whose sessions were dropped: every WeakRef in it points at nothing.
  const { files } = await captureFixture('signatures/weak-registry')
  const registry = await snapshotGraph(files[files.length - 1])
  let weakRefs = 0
  let cleared = 0
  for (let o = 0; o < registry.nodeCount; o++) {
    if (!isWeakRef(registry, o)) continue
    weakRefs++
    if (weakRefTarget(registry, o) < 0) cleared++
  }
  t.true(weakRefs >= 4000, String(weakRefs))
  t.is(cleared, weakRefs)
})

test('every edge of a type with one of the names asked, in edge order, for one, two or more names', async (t) => {
  const graph = await graphPromise
  const property = graph.edgeType.property
  for (const names of [['cache'], ['cache', 'seen'], ['cache', 'seen', 'holders', 'no such name']]) {
    const indexes = names.map((name) => graph.strings.indexOf(name))
    /** @type {number[][]} */
    const expected = []
    for (let o = 0; o < graph.nodeCount; o++) {
      for (let e = graph.firstEdge[o]; e < graph.firstEdge[o + 1]; e++) {
        if (graph.edgeTypes[e] === property && indexes.includes(graph.edgeNames[e])) expected.push([o, graph.edgeTargets[e]])
      }
    }
    /** @type {number[][]} */
    const seen = []
    forEachReferenceNamed(graph, names, 'property', (source, target) => seen.push([source, target]))
    t.true(expected.length >= names.length - 1, names.join())
    t.deepEqual(seen, expected, names.join())
  }
  let none = 0
  forEachReferenceNamed(graph, ['cache'], 'element', () => none++)
  t.is(none, 0, 'the type counts')
})
