// The one way code above the engine reads a node's edges: a reference by name and type, the
// first reference or retainer that passes a test, every reference of the heap with a given name,
// and cursors over a node's references and retainers (EdgeCursor). Names follow memlab's (a node's
// references point out of it, its retainers point at it) and types are V8's edge type names.
//
// Nothing here makes an object per node or edge: retainer(), referencedNodes() and the find*
// queries walk with a cursor they borrow from a small pool per graph and give back, so a query
// asked once per node of a large heap allocates nothing (nor does a test that is one function
// made before the loop). A loop
// of its own over many nodes keeps one EdgeCursor and restarts it on each node.

import { EdgeCursor } from '../graph/node-view.js'
/** @import {HeapGraph, EdgeTypeName} from '../graph/heap-graph.js' */

/**
 * The node `ordinal` references under `name` over an edge of `type`, or -1 (also for ordinal -1).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {string | number} name  a property, variable or internal name; for `element` and
 *   `hidden` edges, the index
 * @param {EdgeTypeName} [type]
 */
export function reference (graph, ordinal, name, type = 'property') {
  if (ordinal < 0) return -1
  const edge = graph.findEdge(ordinal, graph.edgeTypeIndex(type), typeof name === 'number' ? name : graph.strings.indexOf(name))
  return edge < 0 ? -1 : graph.edgeTarget(edge)
}

/**
 * The target of the property (or internal field) `name` of `ordinal`, or -1 when it has none
 * (Smis have no edge).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {string} name
 */
export function propertyTarget (graph, ordinal, name) {
  if (ordinal < 0) return -1
  const nameIndex = graph.strings.indexOf(name)
  let edge = graph.findEdge(ordinal, graph.edgeType.property, nameIndex)
  if (edge < 0) edge = graph.findEdge(ordinal, graph.edgeType.internal, nameIndex)
  return edge < 0 ? -1 : graph.edgeTarget(edge)
}

/**
 * The first node that references `ordinal` under `name` over an edge of `type`, or -1. Needs the
 * retainer index (built on first use).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {string | number} name  as for reference()
 * @param {EdgeTypeName} [type]
 */
export function retainer (graph, ordinal, name, type = 'property') {
  const edge = borrow(graph)
  let found = -1
  for (edge.retainers(ordinal); edge.next();) {
    if (edge.is(type, name)) {
      found = edge.source
      break
    }
  }
  giveBack(edge)
  return found
}

/**
 * The node at the end of the first reference of `ordinal` that `test` accepts, or -1.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(edge: EdgeCursor) => boolean} test  given a cursor on each reference in turn
 */
export function findReference (graph, ordinal, test) {
  return findEdge(graph, ordinal, test, true)
}

/**
 * The node at the start of the first retainer of `ordinal` that `test` accepts, or -1.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(edge: EdgeCursor) => boolean} test  given a cursor on each retainer in turn
 */
export function findRetainer (graph, ordinal, test) {
  return findEdge(graph, ordinal, test, false)
}

/**
 * The node at the other end of the first edge of `ordinal` that `test` accepts, or -1.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(edge: EdgeCursor) => boolean} test
 * @param {boolean} outgoing  its references, else its retainers
 */
function findEdge (graph, ordinal, test, outgoing) {
  const edge = borrow(graph)
  if (outgoing) edge.references(ordinal)
  else edge.retainers(ordinal)
  let found = -1
  while (edge.next()) {
    if (test(edge)) {
      found = outgoing ? edge.target : edge.source
      break
    }
  }
  giveBack(edge)
  return found
}

/**
 * The nodes `ordinal` references over edges of `type`, in snapshot order.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {EdgeTypeName} type
 * @returns {number[]}
 */
export function referencedNodes (graph, ordinal, type) {
  const found = []
  const edge = borrow(graph)
  for (edge.references(ordinal); edge.next();) if (edge.is(type)) found.push(edge.target)
  giveBack(edge)
  return found
}

/**
 * Calls `visit(source, target)` for every edge of the heap of `type` whose name is one of `names`
 * ("what holds a `<symbol kResourceStore>`"), in edge order: one pass over the edge columns.
 * @param {HeapGraph} graph
 * @param {string[]} names
 * @param {EdgeTypeName} type
 * @param {(source: number, target: number) => void} visit
 */
export function forEachReferenceNamed (graph, names, type, visit) {
  const wanted = names.map((name) => graph.strings.indexOf(name)).filter((index) => index >= 0)
  const typeIndex = graph.edgeTypeIndex(type)
  if (wanted.length === 0 || typeIndex < 0) return
  const { firstEdge, edgeTypes, edgeNames, edgeTargets, nodeCount } = graph
  // Two names compared in the loop, more through a set: most edges are of the type asked.
  const [first, second = first] = wanted
  const more = wanted.length > 2 ? new Set(wanted) : null
  for (let o = 0; o < nodeCount; o++) {
    for (let e = firstEdge[o], end = firstEdge[o + 1]; e < end; e++) {
      if (edgeTypes[e] !== typeIndex) continue
      const name = edgeNames[e]
      if (name === first || name === second || (more !== null && more.has(name))) visit(o, edgeTargets[e])
    }
  }
}

/**
 * A new cursor on the references of `ordinal`: `for (const edge = references(graph, o); edge.next();)`.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 */
export function references (graph, ordinal) {
  return new EdgeCursor(graph).references(ordinal)
}

/**
 * A new cursor on the retainers of `ordinal`: `for (const edge = retainers(graph, o); edge.next();)`.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 */
export function retainers (graph, ordinal) {
  return new EdgeCursor(graph).retainers(ordinal)
}

/** @type {WeakMap<HeapGraph, EdgeCursor[]>} cursors not in use, per graph */
const spare = new WeakMap()

/**
 * A cursor of `graph` for one walk: a spare one, or a new one when every spare one is in use (a
 * test that asks a query of its own). A walk whose test throws does not give its cursor back; the
 * pool makes another.
 * @param {HeapGraph} graph
 */
function borrow (graph) {
  return spare.get(graph)?.pop() ?? new EdgeCursor(graph)
}

/** @param {EdgeCursor} edge */
function giveBack (edge) {
  const pool = spare.get(edge.graph)
  if (pool === undefined) spare.set(edge.graph, [edge])
  else pool.push(edge)
}

export { EdgeCursor }
