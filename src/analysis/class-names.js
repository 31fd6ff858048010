// Class names as DevTools' Summary view shows them (calculateObjectNames, heapsnapshot-format.md 4.7):
//
//   hidden -> (system)    code -> (compiled code)    closure -> Function    regexp -> RegExp
//   object, native -> the node name ("<div id=x>" -> "<div>"); plain Objects may become "{a, b}"
//   anything else -> "(" + type + ")": (string), (array), (number), (concatenated string), ...
//
// Native nodes that Node's embedder marks detached, and the native nodes reachable from them (but
// not from an attached one), are named "Detached <name>" (DevTools' propagateDOMState).
//
// Classes are keyed like DevTools' public class keys: `scriptId,line,column,Name` for `object`
// nodes with a location (two constructors of one name in two files are two classes), `,Name` for
// everything else. Nodes get a class index into one table; there is no string per node.

import { inferInterfaceDefinitions, internPlainObjects, matchInterfaces } from './interfaces.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {NodeLocations} from '../graph/locations.js' */
/** @import {InterfaceDefinition} from './interfaces.js' */

const ATTACHED = 1
const DETACHED = 2
const LINK_STATE_MASK = 3
const VISITED = 1
const DETACHED_NAME = 2

/**
 * @typedef {object} ClassNames
 * @property {Uint16Array | Uint32Array} classOf  class index per ordinal (16 bits while the classes fit)
 * @property {string[]} names        display name per class (the Summary view's "Constructor" column)
 * @property {string[]} keys         class key per class (`,Name` or `scriptId,line,column,Name`)
 * @property {InterfaceDefinition[]} interfaceDefinitions  the definitions applied to plain Objects
 */

/**
 * @param {HeapGraph} graph
 * @param {NodeLocations} locations
 * @param {{interfaceDefinitions?: InterfaceDefinition[], storage?: Uint32Array, scratch?: Uint32Array}} [options]
 *   interfaceDefinitions: definitions to apply instead of inferring them from this snapshot (a diff
 *   applies the newer snapshot's to the older one); storage: an array of at least one entry per
 *   node that the caller no longer needs, to work in (classOf ends there only past 65536 classes); scratch: one
 *   more such array, for the detached-node flags (one byte per node)
 * @returns {ClassNames}
 */
export function computeClassNames (graph, locations, { interfaceDefinitions, storage, scratch } = {}) {
  const { nodeCount, nodeTypes, nodeNames, strings } = graph
  const classOf = storage && storage.length >= nodeCount ? storage.subarray(0, nodeCount) : new Uint32Array(nodeCount)
  const detachedFlags = scratch && scratch.byteLength >= nodeCount ? new Uint8Array(scratch.buffer, scratch.byteOffset, nodeCount) : undefined
  const detached = findDetachedNodes(graph, classOf, detachedFlags)
  // Before the loop below gives each node its class, classOf holds each plain Object's property
  // list + 1 (0: none), which saves a second array of 4 bytes per node.
  const interned = internPlainObjects(graph, classOf.fill(0))
  const definitions = interfaceDefinitions ?? inferInterfaceDefinitions(graph, interned)
  const listMatches = matchInterfaces(graph, interned.lists, definitions)

  const table = new ClassTable()
  const objectType = graph.nodeType.object
  const nativeType = graph.nodeType.native
  /** @type {Int32Array} class per node type, for types whose class is fixed */
  const byType = new Int32Array(graph.nodeTypeNames.length).fill(-1)
  /** @type {Map<number, number>} name string index -> class, for object/native names */
  const byName = new Map()
  /** @type {Map<number, number>} the same for detached names */
  const byDetachedName = new Map()
  /** @type {Int32Array} class per interface definition, for unlocated plain Objects */
  const byInterface = new Int32Array(definitions.length).fill(-1)
  const recordOf = locations.ascendingRecordLookup()

  for (let o = 0; o < nodeCount; o++) {
    const type = nodeTypes[o]
    if (type !== objectType && type !== nativeType) {
      let index = byType[type]
      if (index < 0) {
        index = table.add(fixedClassName(graph, type))
        byType[type] = index
      }
      classOf[o] = index
      continue
    }
    const record = type === objectType ? recordOf(o) : -1
    const list = classOf[o]
    const definition = list === 0 ? -1 : listMatches[list - 1]
    if (record < 0) {
      if (definition >= 0) {
        let index = byInterface[definition]
        if (index < 0) {
          index = table.add(definitions[definition].name)
          byInterface[definition] = index
        }
        classOf[o] = index
        continue
      }
      const isDetached = detached !== null && (detached[o] & DETACHED_NAME) !== 0
      const cache = isDetached ? byDetachedName : byName
      let index = cache.get(nodeNames[o])
      if (index === undefined) {
        index = table.add(objectClassName(strings.get(nodeNames[o]), isDetached))
        cache.set(nodeNames[o], index)
      }
      classOf[o] = index
      continue
    }
    const name = definition >= 0 ? definitions[definition].name : objectClassName(strings.get(nodeNames[o]), false)
    const [scriptId, line, column] = locations.recordFields(record)
    classOf[o] = table.add(name, `${scriptId},${line},${column},${name}`)
  }
  // Two bytes per node instead of four: a heap has thousands of classes, rarely 65536.
  const narrow = table.names.length <= 0x10000 ? new Uint16Array(classOf) : classOf
  return { classOf: narrow, names: table.names, keys: table.keys, interfaceDefinitions: definitions }
}

/**
 * Class name of a node type whose class does not depend on the node.
 * @param {HeapGraph} graph
 * @param {number} type
 */
function fixedClassName (graph, type) {
  switch (type) {
    case graph.nodeType.hidden: return '(system)'
    case graph.nodeType.code: return '(compiled code)'
    case graph.nodeType.closure: return 'Function'
    case graph.nodeType.regexp: return 'RegExp'
    default: return '(' + (graph.nodeTypeNames[type] ?? 'unknown') + ')'
  }
}

/**
 * Class name of an object or native node: DOM-like names `<div id="a">` are cut to `<div>`.
 * @param {string} name raw node name
 * @param {boolean} detached
 */
function objectClassName (name, detached) {
  if (detached) name = 'Detached ' + name
  if (name.startsWith('<')) {
    const space = name.indexOf(' ')
    return space === -1 ? name : name.substring(0, space) + '>'
  }
  if (name.startsWith('Detached <')) {
    const space = name.indexOf(' ', 10)
    return space === -1 ? name : name.substring(0, space) + '>'
  }
  return name
}

/** Classes by key, in order of first appearance. */
class ClassTable {
  /** @type {string[]} */
  names = []
  /** @type {string[]} */
  keys = []
  /** @type {Map<string, number>} */
  #byKey = new Map()

  /**
   * Index of the class with this key, added when new.
   * @param {string} name
   * @param {string} [key]
   */
  add (name, key = ',' + name) {
    let index = this.#byKey.get(key)
    if (index === undefined) {
      index = this.names.length
      this.names.push(name)
      this.keys.push(key)
      this.#byKey.set(key, index)
    }
    return index
  }
}

/**
 * Native nodes DevTools renames "Detached ...": those the snapshot marks detached, and native
 * nodes reachable from them over non-hidden, non-weak edges through native nodes only, unless an
 * attached native node reaches them first. Null when no node carries a link state.
 * @param {HeapGraph} graph
 * @param {Uint32Array} work scratch of one entry per node, overwritten
 * @param {Uint8Array} [storage] memory for the flags (one byte per node, overwritten)
 * @returns {Uint8Array | null} flags per node; DETACHED_NAME set for the renamed ones
 */
function findDetachedNodes (graph, work, storage) {
  const { nodeCount, nodeTypes, detachedness, firstEdge, edgeTargets, edgeTypes } = graph
  let any = false
  for (let o = 0; o < nodeCount && !any; o++) any = (detachedness[o] & LINK_STATE_MASK) !== 0
  if (!any) return null
  const nativeType = graph.nodeType.native
  const hiddenEdge = graph.edgeType.hidden
  const weakEdge = graph.edgeType.weak
  // Per node: VISITED once its state is settled, plus DETACHED_NAME when it gets the prefix.
  const flags = storage ? storage.fill(0) : new Uint8Array(nodeCount)
  // Attached nodes stack up from the front of `work`, detached ones from the back: each node is
  // visited once, so the two never meet.
  let attachedTop = 0
  let detachedBottom = nodeCount

  const visit = (/** @type {number} */ o, /** @type {number} */ state) => {
    if (flags[o] !== 0) return
    flags[o] = VISITED
    if (nodeTypes[o] !== nativeType) return
    if (state === ATTACHED) work[attachedTop++] = o
    else if (state === DETACHED) {
      flags[o] |= DETACHED_NAME
      work[--detachedBottom] = o
    }
  }

  for (let o = 0; o < nodeCount; o++) {
    const state = detachedness[o] & LINK_STATE_MASK
    if (state !== 0) visit(o, state)
  }
  while (attachedTop > 0) {
    const o = work[--attachedTop]
    for (let e = firstEdge[o], end = firstEdge[o + 1]; e < end; e++) {
      const type = edgeTypes[e]
      if (type !== hiddenEdge && type !== weakEdge) visit(edgeTargets[e], ATTACHED)
    }
  }
  while (detachedBottom < nodeCount) {
    const o = work[detachedBottom++]
    for (let e = firstEdge[o], end = firstEdge[o + 1]; e < end; e++) {
      const type = edgeTypes[e]
      if (type !== hiddenEdge && type !== weakEdge) visit(edgeTargets[e], DETACHED)
    }
  }
  return flags
}
