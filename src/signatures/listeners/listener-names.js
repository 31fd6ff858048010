// The name a person knows an emitter by: the variable or property on the row's path, a field of the
// row's owner, or the first name that holds it; and for an event map, the object holding the Map.

import { shownEdgeName } from '../../analysis/shown-names.js'
import { WeakMapEdgeNames } from '../../analysis/weak-map-edges.js'
import { findRetainer, retainers } from '../../query/references.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */
/** @import {EdgeCursor} from '../../query/references.js' */
/** @import {ListenerList} from './listener-lists.js' */

/**
 * The emitter's name, and the object that offers the way out: the emitter, or for an event map the
 * object holding the Map (mitt's `emitter.all`), named `holder.map`.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path the row's path
 * @param {ListenerList} list
 * @param {string} emitterClass  the name when nothing holds the emitter under one
 * @param {NameResolver} names
 * @returns {{name: string, remover: number, named: number}}  named: the node the name is of (the
 *   emitter, or the object a WeakMap keeps the event map for)
 */
export function namedEmitter (analysis, path, list, emitterClass, names) {
  const { graph } = analysis
  let name = nameOnPath(path, graph.nodeIds[list.emitter]) ?? innerName(graph, path, list.emitter) ?? retainerName(analysis, list.emitter, names) ?? emitterClass
  let remover = list.emitter
  let named = list.emitter
  if (list.kind === 'event map') {
    const up = findRetainer(graph, list.emitter, isNamedProperty)
    if (up >= 0) {
      remover = up
      const holder = nameOnPath(path, graph.nodeIds[up]) ?? retainerName(analysis, up, names)
      if (holder !== null) name = `${holder}.${name}`
    } else {
      // A Map kept for an object in a WeakMap (emittery keeps each instance's events so): the
      // object is the emitter people know, and offers the way out.
      const key = weakMapKeyOf(graph, list.emitter)
      if (key >= 0) {
        remover = key
        named = key
        name = nameOnPath(path, graph.nodeIds[key]) ?? retainerName(analysis, key, names) ?? name
      }
    }
  }
  return { name, remover, named }
}

/**
 * The object a WeakMap keeps `value` for: the source of the key's half of an ephemeron pair (the
 * other half leaves the WeakMap's table), or -1.
 * @param {HeapGraph} graph
 * @param {number} value
 */
function weakMapKeyOf (graph, value) {
  const ephemerons = new WeakMapEdgeNames(graph)
  for (const edge = retainers(graph, value); edge.next();) {
    if (!edge.is('internal')) continue
    const table = ephemerons.tableId(edge.nameIndex)
    if (table >= 0 && graph.nodeIds[edge.source] !== table) return edge.source
  }
  return -1
}

/**
 * A property edge other than a prototype link.
 * @param {EdgeCursor} edge
 */
function isNamedProperty (edge) {
  return edge.is('property') && !edge.is('property', '__proto__')
}

/**
 * The name of the variable or property that holds the node with V8 id `id` on a path.
 * @param {Step[]} path
 * @param {number} id
 */
function nameOnPath (path, id) {
  const at = path.findIndex((s) => s.id === id)
  const step = path[at]
  if (!step || (step.edgeType !== 'property' && step.edgeType !== 'context')) return null
  // A variable of an accessor's closure is read through the accessor: Node 24's global `process`
  // is a getter whose scope holds `_process`, and the program writes `process`.
  const accessor = step.edgeType === 'context' ? path[at - 2] : undefined
  if (accessor?.edgeType === 'property' && path[at - 1]?.edge === 'context' && /^get [A-Za-z_$][\w$]*$/.test(accessor.edge)) return accessor.edge.slice(4)
  return step.edge
}

/**
 * `owner.field` for an emitter held in a field of the row's owner (the path ends at the owner).
 * @param {HeapGraph} graph
 * @param {Step[]} path
 * @param {number} emitter
 */
function innerName (graph, path, emitter) {
  const last = path[path.length - 1]
  if (!last) return null
  const outer = nameOnPath(path, last.id)
  if (outer === null) return null
  for (const edge = retainers(graph, emitter); edge.next();) {
    if (edge.is('property') && graph.nodeIds[edge.source] === last.id) return `${outer}.${edge.name}`
  }
  return null
}

/**
 * The first property or variable name that holds a node, or null.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {NameResolver} names
 */
function retainerName (analysis, o, names) {
  const edge = retainers(analysis.graph, o)
  while (edge.next()) if (isNamedProperty(edge)) return edge.name
  for (edge.retainers(o); edge.next();) if (edge.is('context')) return shownEdgeName(analysis, edge.number, names, edge.name)
  return null
}
