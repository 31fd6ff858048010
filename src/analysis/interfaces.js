// Plain-object "interfaces" (heapsnapshot-format.md 4.7, DevTools npm 1.0.1705227): objects of
// type `object` named `Object` are re-classed by their property names, e.g. `{host, port}`, when
// enough objects share a property list. Inference walks every plain Object once; matching gives
// each plain Object the definition with the most properties that are all among its own (ties:
// the more popular definition). Diffs apply the newer snapshot's definitions to the older one,
// hence the two separate steps.

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** At least this many properties go into a name, however long. */
const MIN_INTERFACE_PROPERTY_COUNT = 1
/** Names stop growing past this length. */
const MAX_INTERFACE_NAME_LENGTH = 120
/** A definition must match at least this many objects ... */
const MIN_OBJECT_COUNT_PER_INTERFACE = 2
/** ... and at least 1 in this many plain Objects. */
const MIN_OBJECT_PROPORTION_PER_INTERFACE = 1000

/**
 * @typedef {object} InterfaceDefinition
 * @property {string} name          display name, e.g. `{host, port}`
 * @property {string[]} properties  property names in the order the name lists them
 */

/**
 * Property name as DevTools prints it inside `{...}`: names with `,'"{}` are JSON-quoted.
 * @param {string} name
 */
export function formatPropertyName (name) {
  if (/[,'"{}]/.test(name)) {
    const quoted = JSON.stringify({ [name]: 0 })
    return quoted.substring(1, quoted.length - 3)
  }
  return name
}

/**
 * Whether a node is a plain JS object (type `object`, name `Object`).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {number} objectName string index of 'Object'
 */
function isPlainObject (graph, ordinal, objectName) {
  return graph.nodeTypes[ordinal] === graph.nodeType.object && graph.nodeNames[ordinal] === objectName
}

/**
 * The popular property lists of plain Objects, most popular first.
 * @param {HeapGraph} graph
 * @returns {InterfaceDefinition[]}
 */
export function inferInterfaceDefinitions (graph) {
  const objectName = graph.strings.indexOf('Object')
  if (objectName < 0) return []
  const protoName = graph.strings.indexOf('__proto__')
  // Objects with the same property names in the same order get the same candidate: count each
  // distinct list once, then build names per list, not per object.
  const lists = new PropertyLists(graph)
  /** @type {number[]} objects per list */
  const listCounts = []
  let plainObjects = 0
  for (let o = 0; o < graph.nodeCount; o++) {
    if (!isPlainObject(graph, o, objectName)) continue
    plainObjects++
    const list = lists.intern(o, protoName)
    listCounts[list] = (listCounts[list] ?? 0) + 1
  }
  const formatted = new PropertyNames(graph)
  /** @type {Map<string, {name: string, properties: string[], count: number}>} */
  const candidates = new Map()
  for (let list = 0; list < lists.size; list++) {
    let name = '{'
    /** @type {number[]} */
    const properties = []
    for (const property of lists.get(list)) {
      const text = formatted.formatted(property)
      if (name.length > MIN_INTERFACE_PROPERTY_COUNT && name.length + text.length > MAX_INTERFACE_NAME_LENGTH) break
      if (name.length !== 1) name += ', '
      name += text
      properties.push(property)
    }
    // `{}` would read as "objects without properties", which it is not.
    if (properties.length === 0) continue
    name += '}'
    const candidate = candidates.get(name)
    if (candidate) candidate.count += listCounts[list]
    else candidates.set(name, { name, properties: properties.map((p) => formatted.raw(p)), count: listCounts[list] })
  }
  // Stable sort: equally popular candidates stay in order of first appearance, as in DevTools.
  const sorted = Array.from(candidates.values()).sort((a, b) => b.count - a.count)
  const minCount = Math.max(MIN_OBJECT_COUNT_PER_INTERFACE, plainObjects / MIN_OBJECT_PROPORTION_PER_INTERFACE)
  /** @type {InterfaceDefinition[]} */
  const definitions = []
  for (const candidate of sorted) {
    if (candidate.count < minCount) break
    definitions.push({ name: candidate.name, properties: candidate.properties })
  }
  return definitions
}

/**
 * @typedef {object} PropertyTreeNode
 * @property {Map<string, PropertyTreeNode>} next  successors by property name (added in sorted order)
 * @property {MatchInfo | null} match             the definition ending here, if any
 * @property {string | null} greatestNext          largest key of `next`: past it no transition is possible
 */

/**
 * @typedef {object} MatchInfo
 * @property {number} definition  index into the definitions
 * @property {number} propertyCount
 */

/**
 * For each plain Object, the index of the interface definition it matches, via a callback (so the
 * caller keeps its own typed arrays). Objects matching none are not reported.
 * @param {HeapGraph} graph
 * @param {InterfaceDefinition[]} definitions
 * @param {(ordinal: number, definition: number) => void} onMatch
 */
export function matchInterfaces (graph, definitions, onMatch) {
  const objectName = graph.strings.indexOf('Object')
  if (objectName < 0 || definitions.length === 0) return
  const tree = buildPropertyTree(definitions)
  const names = new PropertyNames(graph)
  const lists = new PropertyLists(graph)
  /** @type {number[]} per property list: matched definition, or -1 */
  const matches = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (!isPlainObject(graph, o, objectName)) continue
    const list = lists.intern(o, -1)
    if (list === matches.length) matches.push(matchList(tree, lists.get(list).map((p) => names.raw(p))))
    if (matches[list] >= 0) onMatch(o, matches[list])
  }
}

/**
 * The definition whose properties are all among `properties` and that has the most of them (ties:
 * the earlier, more popular one), or -1. Walks the trie with every state still able to advance.
 * @param {PropertyTreeNode} tree
 * @param {string[]} properties
 */
function matchList (tree, properties) {
  properties.sort()
  /** @type {Set<PropertyTreeNode>} */
  const states = new Set([tree])
  let best = tree.match
  for (const property of properties) {
    for (const state of Array.from(states)) {
      if (state.greatestNext === null || property >= state.greatestNext) states.delete(state)
      const next = state.next.get(property)
      if (next) {
        states.add(next)
        best = betterMatch(next.match, best)
      }
    }
  }
  return best === null ? -1 : best.definition
}

/**
 * @param {MatchInfo | null} a
 * @param {MatchInfo | null} b
 * @returns {MatchInfo | null}
 */
function betterMatch (a, b) {
  if (a === null) return b
  if (b === null) return a
  if (a.propertyCount !== b.propertyCount) return a.propertyCount > b.propertyCount ? a : b
  return a.definition <= b.definition ? a : b
}

/**
 * A trie over each definition's sorted properties; an earlier definition keeps a shared end node.
 * @param {InterfaceDefinition[]} definitions
 * @returns {PropertyTreeNode}
 */
function buildPropertyTree (definitions) {
  /** @type {PropertyTreeNode} */
  const root = { next: new Map(), match: null, greatestNext: null }
  for (let index = 0; index < definitions.length; index++) {
    const properties = definitions[index].properties.toSorted()
    let node = root
    for (const property of properties) {
      let next = node.next.get(property)
      if (!next) {
        next = { next: new Map(), match: null, greatestNext: null }
        node.next.set(property, next)
        if (node.greatestNext === null || node.greatestNext < property) node.greatestNext = property
      }
      node = next
    }
    if (!node.match) node.match = { definition: index, propertyCount: properties.length }
  }
  return root
}

/** Decoded (and formatted) property names by string index, each decoded once. */
class PropertyNames {
  #strings
  /** @type {Map<number, string>} */
  #raw = new Map()
  /** @type {Map<number, string>} */
  #formatted = new Map()

  /** @param {HeapGraph} graph */
  constructor (graph) {
    this.#strings = graph.strings
  }

  /** @param {number} index */
  raw (index) {
    let name = this.#raw.get(index)
    if (name === undefined) {
      name = this.#strings.get(index)
      this.#raw.set(index, name)
    }
    return name
  }

  /** @param {number} index */
  formatted (index) {
    let name = this.#formatted.get(index)
    if (name === undefined) {
      name = formatPropertyName(this.raw(index))
      this.#formatted.set(index, name)
    }
    return name
  }
}

/**
 * Interned lists of property-name string indexes (a plain Object's `property` edges in edge order),
 * so that work per distinct list is done once however many objects share it. Lists are hashed
 * and compared as numbers; nothing is decoded.
 */
class PropertyLists {
  #graph
  /** @type {number[][]} */
  #lists = []
  /** @type {Map<number, number[]>} hash -> list ids */
  #byHash = new Map()
  /** @type {number[]} */
  #scratch = []

  /** @param {HeapGraph} graph */
  constructor (graph) {
    this.#graph = graph
  }

  /** Number of distinct lists. */
  get size () {
    return this.#lists.length
  }

  /**
   * The list with this id.
   * @param {number} id
   */
  get (id) {
    return this.#lists[id]
  }

  /**
   * Id of the property list of object `ordinal` (new ids count up from 0), leaving out edges named
   * `skipName`.
   * @param {number} ordinal
   * @param {number} skipName string index, or -1
   */
  intern (ordinal, skipName) {
    const { firstEdge, edgeTypes, edgeNames } = this.#graph
    const propertyType = this.#graph.edgeType.property
    const scratch = this.#scratch
    let length = 0
    let hash = 0x811c9dc5
    for (let e = firstEdge[ordinal], end = firstEdge[ordinal + 1]; e < end; e++) {
      if (edgeTypes[e] !== propertyType || edgeNames[e] === skipName) continue
      scratch[length++] = edgeNames[e]
      hash = Math.imul(hash ^ edgeNames[e], 0x01000193)
    }
    let ids = this.#byHash.get(hash)
    if (ids) {
      for (const id of ids) {
        if (startsEqual(this.#lists[id], scratch, length)) return id
      }
    } else {
      ids = []
      this.#byHash.set(hash, ids)
    }
    const id = this.#lists.length
    this.#lists.push(scratch.slice(0, length))
    ids.push(id)
    return id
  }
}

/**
 * Whether `list` equals the first `length` entries of `scratch`.
 * @param {number[]} list
 * @param {number[]} scratch
 * @param {number} length
 */
function startsEqual (list, scratch, length) {
  if (list.length !== length) return false
  for (let i = 0; i < length; i++) {
    if (list[i] !== scratch[i]) return false
  }
  return true
}
