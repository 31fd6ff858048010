// The one way code above the engine reads a node's edges: a reference by name and type, the
// first reference or retainer that passes a test, and cursors over all of them (EdgeCursor). Names
// follow memlab's (a node's references point out of it, its retainers point at it) and types are
// V8's edge type names. None of these allocates per edge; findReference and findRetainer make one
// cursor per call, so a loop over many nodes keeps its own EdgeCursor and restarts it on each node.

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
  const edge = graph.findEdge(ordinal, graph.edgeType[type], typeof name === 'number' ? name : graph.strings.indexOf(name))
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
  const target = reference(graph, ordinal, name, 'property')
  return target >= 0 ? target : reference(graph, ordinal, name, 'internal')
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
  const edge = new EdgeCursor(graph)
  for (edge.retainers(ordinal); edge.next();) if (edge.is(type, name)) return edge.source
  return -1
}

/**
 * The node at the end of the first reference of `ordinal` that `test` accepts, or -1.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(edge: EdgeCursor) => boolean} test  given the cursor on each reference in turn
 */
export function findReference (graph, ordinal, test) {
  const edge = new EdgeCursor(graph)
  for (edge.references(ordinal); edge.next();) if (test(edge)) return edge.target
  return -1
}

/**
 * The node at the start of the first retainer of `ordinal` that `test` accepts, or -1.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {(edge: EdgeCursor) => boolean} test  given the cursor on each retainer in turn
 */
export function findRetainer (graph, ordinal, test) {
  const edge = new EdgeCursor(graph)
  for (edge.retainers(ordinal); edge.next();) if (test(edge)) return edge.source
  return -1
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

/**
 * The nodes `ordinal` references over edges of `type`, in snapshot order.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {EdgeTypeName} type
 * @returns {number[]}
 */
export function referencedNodes (graph, ordinal, type) {
  const found = []
  for (const edge = references(graph, ordinal); edge.next();) if (edge.is(type)) found.push(edge.target)
  return found
}

export { EdgeCursor }
