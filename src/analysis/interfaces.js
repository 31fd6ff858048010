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
 * The property lists of a snapshot's plain Objects (type `object`, name `Object`), each distinct
 * list once.
 * @typedef {object} PlainObjectLists
 * @property {PropertyLists} lists
 * @property {number[]} counts  objects per list
 * @property {number} plainObjects
 */

/**
 * Interns every plain Object's property list (`__proto__` left out: no definition has it, so the
 * matches are the same) and writes list id + 1 into `listOf` (0 for any other node).
 * @param {HeapGraph} graph
 * @param {Uint32Array} listOf one entry per node, all 0
 * @returns {PlainObjectLists}
 */
export function internPlainObjects (graph, listOf) {
  const lists = new PropertyLists(graph)
  /** @type {number[]} */
  const counts = []
  const objectName = graph.strings.indexOf('Object')
  if (objectName < 0) return { lists, counts, plainObjects: 0 }
  const plainObjects = internLoop(graph.nodeTypes, graph.nodeNames, graph.nodeType.object, objectName, graph.strings.indexOf('__proto__'), lists, counts, listOf)
  return { lists, counts, plainObjects }
}

/**
 * The loop of internPlainObjects, a function of its own so that V8 compiles it alone (it compiles
 * a long-running loop together with the rest of its function).
 * @param {Uint8Array} nodeTypes
 * @param {Uint32Array} nodeNames
 * @param {number} objectType
 * @param {number} objectName
 * @param {number} protoName
 * @param {PropertyLists} lists
 * @param {number[]} counts
 * @param {Uint32Array} listOf
 * @returns {number} plain Objects
 */
function internLoop (nodeTypes, nodeNames, objectType, objectName, protoName, lists, counts, listOf) {
  let plainObjects = 0
  for (let o = 0; o < nodeTypes.length; o++) {
    if (nodeTypes[o] !== objectType || nodeNames[o] !== objectName) continue
    plainObjects++
    const list = lists.intern(o, protoName)
    // A new list is always the next id.
    if (list === counts.length) counts.push(1)
    else counts[list]++
    listOf[o] = list + 1
  }
  return plainObjects
}

/**
 * The popular property lists of plain Objects, most popular first.
 * @param {HeapGraph} graph
 * @param {PlainObjectLists} interned internPlainObjects
 * @returns {InterfaceDefinition[]}
 */
export function inferInterfaceDefinitions (graph, { lists, counts, plainObjects }) {
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
    if (candidate) candidate.count += counts[list]
    else candidates.set(name, { name, properties: properties.map((p) => formatted.raw(p)), count: counts[list] })
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
 * @property {Map<number, PropertyTreeNode>} next  successors by property rank
 * @property {MatchInfo | null} match             the definition ending here, if any
 * @property {number} greatestNext                 largest rank in `next` (-1: none): past it no
 *                                                 transition is possible
 */

/**
 * @typedef {object} MatchInfo
 * @property {number} definition  index into the definitions
 * @property {number} propertyCount
 */

/**
 * For each interned property list, the index of the interface definition it matches, or -1.
 *
 * Properties are compared as ranks, their names' places in the sorted list of every name the
 * definitions use: the lists are sorted and walked as numbers, and a property no definition names
 * is left out, as it could neither extend a match nor end one. Each name is decoded once.
 * @param {HeapGraph} graph
 * @param {PropertyLists} lists
 * @param {InterfaceDefinition[]} definitions
 * @returns {Int32Array}
 */
export function matchInterfaces (graph, lists, definitions) {
  const matches = new Int32Array(lists.size).fill(-1)
  if (definitions.length === 0) return matches
  const sortedNames = [...new Set(definitions.flatMap((definition) => definition.properties))].sort()
  const rankOfName = new Map(sortedNames.map((name, rank) => [name, rank]))
  const tree = buildPropertyTree(definitions, rankOfName)
  /** string index -> rank + 1, 0 for a name no definition uses; -1 until decoded */
  const rankOfString = new Int32Array(graph.strings.length).fill(-1)
  let longest = 0
  for (let list = 0; list < lists.size; list++) longest = Math.max(longest, lists.get(list).length)
  const ranks = new Int32Array(longest)
  /** @type {PropertyTreeNode[]} */
  const states = []
  for (let list = 0; list < lists.size; list++) {
    let length = 0
    for (const property of lists.get(list)) {
      let rank = rankOfString[property]
      if (rank < 0) {
        rank = (rankOfName.get(graph.strings.get(property)) ?? -1) + 1
        rankOfString[property] = rank
      }
      if (rank > 0) ranks[length++] = rank - 1
    }
    sortAscending(ranks, length)
    matches[list] = matchList(tree, ranks, length, states)
  }
  return matches
}

/**
 * Sorts the first `length` numbers in place: an insertion sort, as a plain Object has a few
 * properties (V8 keeps more than a few hundred in a dictionary, which lists them all the same).
 * @param {Int32Array} values
 * @param {number} length
 */
function sortAscending (values, length) {
  if (length > 64) {
    values.subarray(0, length).sort()
    return
  }
  for (let i = 1; i < length; i++) {
    const value = values[i]
    let j = i - 1
    while (j >= 0 && values[j] > value) {
      values[j + 1] = values[j]
      j--
    }
    values[j + 1] = value
  }
}

/**
 * The definition whose properties are all among the first `length` of `ranks` and that has the
 * most of them (ties: the earlier, more popular one), or -1. Walks the trie with every state still
 * able to advance.
 * @param {PropertyTreeNode} tree
 * @param {Int32Array} ranks  ascending
 * @param {number} length
 * @param {PropertyTreeNode[]} states  an array to work in
 */
function matchList (tree, ranks, length, states) {
  states.length = 0
  states.push(tree)
  let best = tree.match
  for (let r = 0; r < length && states.length > 0; r++) {
    const rank = ranks[r]
    const count = states.length
    let kept = 0
    for (let i = 0; i < count; i++) {
      const state = states[i]
      // A state whose largest key is behind this property can take none of the later ones.
      if (rank < state.greatestNext) states[kept++] = state
      const next = state.next.get(rank)
      if (next) {
        states.push(next)
        best = betterMatch(next.match, best)
      }
    }
    // The states that stay, then the ones this property led to (at most one per state: a tree).
    states.copyWithin(kept, count)
    states.length = kept + states.length - count
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
 * A trie over each definition's properties, by ascending rank; an earlier definition keeps a
 * shared end node.
 * @param {InterfaceDefinition[]} definitions
 * @param {Map<string, number>} rankOfName
 * @returns {PropertyTreeNode}
 */
function buildPropertyTree (definitions, rankOfName) {
  /** @type {PropertyTreeNode} */
  const root = { next: new Map(), match: null, greatestNext: -1 }
  for (let index = 0; index < definitions.length; index++) {
    const ranks = definitions[index].properties.map((name) => /** @type {number} */ (rankOfName.get(name))).sort((a, b) => a - b)
    let node = root
    for (const rank of ranks) {
      let next = node.next.get(rank)
      if (!next) {
        next = { next: new Map(), match: null, greatestNext: -1 }
        node.next.set(rank, next)
        if (node.greatestNext < rank) node.greatestNext = rank
      }
      node = next
    }
    if (!node.match) node.match = { definition: index, propertyCount: ranks.length }
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
export class PropertyLists {
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
