// HeapGraph: the parsed snapshot's columns plus a reverse (retainer) index, all flat typed arrays.
//
// Forward edges (from the parser), CSR by source ordinal:
//
//   firstEdge      [ 0 | 3 | 3 | 5 | ... | E ]     n + 1 entries; node o owns edges firstEdge[o] .. firstEdge[o+1]-1
//                    |       |   |
//                    v       v   v
//   edgeTargets    [ t0 t1 t2 | t3 t4 | ... ]      E entries, target ordinals (node 1 has no edges)
//   edgeTypes      [ ...                    ]      same positions: type index, name index / number
//   edgeNames      [ ...                    ]
//
// Retainers (built on first use with a counting sort; releaseRetainers drops them), CSR by target ordinal:
//
//   firstRetainer  [ 0 | 0 | 2 | ... | E ]          n + 1 entries; node o is retained by slots
//                        |                          firstRetainer[o] .. firstRetainer[o+1]-1
//                        v
//   retainerEdges  [ e2 e7 | e9 | ... ]             E entries: the edge number (index into edge* columns)
//
// Within one node the retainer slots are in ascending edge order. Everything is indexed by ordinal
// (0 .. nodeCount-1) or edge number (0 .. edgeCount-1); no object exists per node or edge.
//
// An edge's source is not stored per edge (4 bytes per edge, the largest array after the columns):
// edgeSource(e) starts from the source of the edge 16 * (e >> 4) and walks firstEdge forward,
// about 16 / (edges per node) steps. The samples are built on the first edgeSource call (the
// per-snapshot analysis needs none):
//
//   sourceSamples  [ s0 | s16 | s32 | ... ]          ceil(E / 16) entries: source of edges 0, 16, 32, ...

import { InvalidArgumentError } from '../errors.js'
import { sizeAt } from '../parse/large-sizes.js'
import { IdIndex } from './id-index.js'

/** @import {SnapshotData, SnapshotMeta} from '../parse/snapshot-data.js' */
/** @import {StringTable} from '../parse/string-table.js' */
/** @import {LargeSizes} from '../parse/large-sizes.js' */

/**
 * Node type enum values, looked up by name in `meta` (-1 when this V8 does not have the type).
 * @typedef {object} NodeTypeIndexes
 * @property {number} hidden
 * @property {number} array
 * @property {number} string
 * @property {number} object
 * @property {number} code
 * @property {number} closure
 * @property {number} regexp
 * @property {number} number
 * @property {number} native
 * @property {number} synthetic
 * @property {number} concatenatedString
 * @property {number} slicedString
 * @property {number} symbol
 * @property {number} bigint
 * @property {number} objectShape
 */

/**
 * Edge type enum values, looked up by name in `meta` (-1 when absent). The keys are V8's edge type
 * names.
 * @typedef {object} EdgeTypeIndexes
 * @property {number} context
 * @property {number} element
 * @property {number} property
 * @property {number} internal
 * @property {number} hidden
 * @property {number} shortcut
 * @property {number} weak
 */

/** @typedef {keyof EdgeTypeIndexes} EdgeTypeName */

/** edgeSource samples the source of one edge in this many (a power of two). */
const SOURCE_SAMPLE_SHIFT = 4
const SOURCE_SAMPLE_STEP = 1 << SOURCE_SAMPLE_SHIFT

export class HeapGraph {
  /** @type {IdIndex | undefined} built on first use */
  #byId
  /** @type {Uint32Array | undefined} */
  #retainerNodes
  /** @type {Uint32Array | undefined} source ordinal of every SOURCE_SAMPLE_STEP-th edge (see edgeSource) */
  #sourceSamples
  /** @type {Uint32Array | undefined} */
  #firstRetainer
  /** @type {Uint32Array | undefined} */
  #retainerEdges

  /**
   * Takes over the columns of `data` (no copy). The retainer index is built on first use.
   * @param {SnapshotData} data
   */
  constructor (data) {
    if (!(data.nodeCount > 0) || data.firstEdge.length !== data.nodeCount + 1) {
      throw new InvalidArgumentError(`Expected parsed snapshot data with nodeCount > 0 and nodeCount + 1 firstEdge entries, got nodeCount ${data.nodeCount} and ${data.firstEdge.length} entries`)
    }
    if (!(data.rootOrdinal >= 0 && data.rootOrdinal < data.nodeCount)) {
      throw new InvalidArgumentError(`Expected rootOrdinal in 0..${data.nodeCount - 1}, got ${data.rootOrdinal}`)
    }
    /** @readonly */ this.meta = data.meta
    /** @readonly */ this.label = data.label
    /** @readonly */ this.byteLength = data.byteLength
    /** @readonly */ this.nodeCount = data.nodeCount
    /** @readonly */ this.edgeCount = data.edgeCount
    /** @readonly */ this.rootOrdinal = data.rootOrdinal
    /** @readonly */ this.nodeTypeNames = data.nodeTypeNames
    /** @readonly */ this.edgeTypeNames = data.edgeTypeNames
    /** @readonly */ this.nodeTypes = data.nodeTypes
    /** @readonly */ this.nodeNames = data.nodeNames
    /** @readonly */ this.nodeIds = data.nodeIds
    /**
     * @readonly raw self_size in bytes, LARGE_SIZE for sizes of 2^32 - 1 and more: read exact
     * sizes with selfSize(ordinal) (see analysis/shallow-sizes.js for the DevTools-adjusted ones)
     */
    this.selfSizes = data.selfSizes
    /** @readonly @type {LargeSizes} the exact sizes the selfSizes column marks with LARGE_SIZE */
    this.largeSelfSizes = data.largeSelfSizes
    /** @readonly */ this.detachedness = data.detachedness
    /** @readonly */ this.firstEdge = data.firstEdge
    /** @readonly */ this.edgeTypes = data.edgeTypes
    /** @readonly */ this.edgeNames = data.edgeNames
    /** @readonly */ this.edgeTargets = data.edgeTargets
    /** @readonly 4 values per record: ordinal, script id, line, column (0-based) */
    this.locations = data.locations
    /** @readonly */ this.locationCount = data.locationCount
    /** @readonly @type {StringTable} */
    this.strings = data.strings

    const nodeTypeIndex = (/** @type {string} */ name) => data.nodeTypeNames.indexOf(name)
    /** @readonly @type {Readonly<NodeTypeIndexes>} */
    this.nodeType = Object.freeze({
      hidden: nodeTypeIndex('hidden'),
      array: nodeTypeIndex('array'),
      string: nodeTypeIndex('string'),
      object: nodeTypeIndex('object'),
      code: nodeTypeIndex('code'),
      closure: nodeTypeIndex('closure'),
      regexp: nodeTypeIndex('regexp'),
      number: nodeTypeIndex('number'),
      native: nodeTypeIndex('native'),
      synthetic: nodeTypeIndex('synthetic'),
      concatenatedString: nodeTypeIndex('concatenated string'),
      slicedString: nodeTypeIndex('sliced string'),
      symbol: nodeTypeIndex('symbol'),
      bigint: nodeTypeIndex('bigint'),
      objectShape: nodeTypeIndex('object shape')
    })
    const edgeTypeIndex = (/** @type {string} */ name) => data.edgeTypeNames.indexOf(name)
    /** @readonly @type {Readonly<EdgeTypeIndexes>} */
    this.edgeType = Object.freeze({
      context: edgeTypeIndex('context'),
      element: edgeTypeIndex('element'),
      property: edgeTypeIndex('property'),
      internal: edgeTypeIndex('internal'),
      hidden: edgeTypeIndex('hidden'),
      shortcut: edgeTypeIndex('shortcut'),
      weak: edgeTypeIndex('weak')
    })
  }

  /**
   * n + 1 entries: node o is retained by slots firstRetainer[o] .. firstRetainer[o+1]-1. Built
   * with retainerEdges on first use (4 bytes per node and per edge).
   * @returns {Uint32Array}
   */
  get firstRetainer () {
    if (!this.#firstRetainer) this.#buildRetainers()
    return /** @type {Uint32Array} */ (this.#firstRetainer)
  }

  /**
   * Per retainer slot: the edge number. Built with firstRetainer on first use.
   * @returns {Uint32Array}
   */
  get retainerEdges () {
    if (!this.#retainerEdges) this.#buildRetainers()
    return /** @type {Uint32Array} */ (this.#retainerEdges)
  }

  /** Whether the retainer index is built (it is built on first use). */
  get hasRetainers () {
    return this.#firstRetainer !== undefined
  }

  /**
   * Drops the retainer index (and retainerNodes). The next use of firstRetainer or retainerEdges
   * builds it again, so this only trades time for memory.
   */
  releaseRetainers () {
    this.#firstRetainer = undefined
    this.#retainerEdges = undefined
    this.#retainerNodes = undefined
  }

  /** Builds the retainer index now, unless it is built (firstRetainer and retainerEdges do on first use). */
  buildRetainerIndex () {
    if (!this.#firstRetainer) this.#buildRetainers()
  }

  #buildRetainers () {
    const { firstRetainer, retainerEdges } = buildRetainers(this.edgeTargets, this.nodeCount)
    this.#firstRetainer = firstRetainer
    this.#retainerEdges = retainerEdges
  }

  /**
   * The node's exact raw self size in bytes (selfSizes[ordinal], or its side-list value when
   * the column holds LARGE_SIZE).
   * @param {number} ordinal
   */
  selfSize (ordinal) {
    return sizeAt(this.selfSizes, this.largeSelfSizes, ordinal)
  }

  /**
   * Per retainer slot, the edge's source ordinal, as one array. Built on first use and kept: it
   * costs 4 bytes per edge, so code over many slots should prefer retainerSource(slot).
   * @returns {Uint32Array}
   */
  get retainerNodes () {
    if (!this.#retainerNodes) {
      const { retainerEdges } = this
      const nodes = new Uint32Array(retainerEdges.length)
      for (let slot = 0; slot < nodes.length; slot++) nodes[slot] = this.edgeSource(retainerEdges[slot])
      this.#retainerNodes = nodes
    }
    return this.#retainerNodes
  }

  /**
   * The source ordinal of the edge in retainer slot `slot`.
   * @param {number} slot
   */
  retainerSource (slot) {
    return this.edgeSource(this.retainerEdges[slot])
  }

  /**
   * The node's name (constructor, function, string value, ...), decoded.
   * @param {number} ordinal
   */
  nodeName (ordinal) {
    return this.strings.get(this.nodeNames[ordinal])
  }

  /**
   * The node's type name (`object`, `closure`, `hidden`, ...).
   * @param {number} ordinal
   */
  nodeTypeName (ordinal) {
    return this.nodeTypeNames[this.nodeTypes[ordinal]] ?? ''
  }

  /**
   * The index of the edge type `name` (-1 when this V8 has no such type). A switch rather than
   * `edgeType[name]`: code that asks once per edge with a constant name pays no keyed lookup.
   * @param {EdgeTypeName} name
   */
  edgeTypeIndex (name) {
    const types = this.edgeType
    switch (name) {
      case 'property': return types.property
      case 'element': return types.element
      case 'context': return types.context
      case 'internal': return types.internal
      case 'hidden': return types.hidden
      case 'shortcut': return types.shortcut
      case 'weak': return types.weak
    }
    return -1
  }

  /**
   * The edge's type name (`property`, `element`, `weak`, ...).
   * @param {number} edge
   */
  edgeTypeName (edge) {
    return this.edgeTypeNames[this.edgeTypes[edge]] ?? ''
  }

  /**
   * Whether the edge's name is a string index (false for `element` and `hidden` edges, whose
   * name is a number).
   * @param {number} edge
   */
  edgeHasStringName (edge) {
    const type = this.edgeTypes[edge]
    return type !== this.edgeType.element && type !== this.edgeType.hidden
  }

  /**
   * The edge's name: the property, variable or internal field name, or the index as text for
   * `element` and `hidden` edges.
   * @param {number} edge
   */
  edgeName (edge) {
    return this.edgeHasStringName(edge) ? this.strings.get(this.edgeNames[edge]) : String(this.edgeNames[edge])
  }

  /**
   * The target ordinal of an edge.
   * @param {number} edge
   */
  edgeTarget (edge) {
    return this.edgeTargets[edge]
  }

  /**
   * The source ordinal of an edge: from the sampled source of its block of SOURCE_SAMPLE_STEP
   * edges, forward over the nodes whose edges start before it.
   * @param {number} edge
   */
  edgeSource (edge) {
    const firstEdge = this.firstEdge
    this.#sourceSamples ??= sampleSources(firstEdge, this.nodeCount, this.edgeCount)
    let source = this.#sourceSamples[edge >>> SOURCE_SAMPLE_SHIFT]
    while (firstEdge[source + 1] <= edge) source++
    return source
  }

  /**
   * Number of outgoing edges of a node.
   * @param {number} ordinal
   */
  edgeCountOf (ordinal) {
    return this.firstEdge[ordinal + 1] - this.firstEdge[ordinal]
  }

  /**
   * Number of retainer edges (incoming edges) of a node.
   * @param {number} ordinal
   */
  retainerCountOf (ordinal) {
    return this.firstRetainer[ordinal + 1] - this.firstRetainer[ordinal]
  }

  /**
   * V8 id -> ordinal (id-index.js: about 4 bytes per node), built on first use and kept: the diff
   * matches every node's id between snapshots and the signatures look ids up.
   * @returns {IdIndex}
   */
  idIndex () {
    if (!this.#byId) this.#byId = new IdIndex(this.nodeIds)
    return this.#byId
  }

  /**
   * The ordinal of the node with V8 id `id`, or -1.
   * @param {number} id
   */
  findOrdinalById (id) {
    return this.idIndex().ordinalOf(id)
  }

  /**
   * The first edge of `ordinal` with the given type and string name, or -1.
   * @param {number} ordinal
   * @param {number} type edge type index
   * @param {number} nameIndex string index (from strings.indexOf)
   */
  findEdge (ordinal, type, nameIndex) {
    if (nameIndex < 0) return -1
    const { edgeTypes, edgeNames } = this
    for (let e = this.firstEdge[ordinal], end = this.firstEdge[ordinal + 1]; e < end; e++) {
      if (edgeTypes[e] === type && edgeNames[e] === nameIndex) return e
    }
    return -1
  }
}

/**
 * The source of every SOURCE_SAMPLE_STEP-th edge: entry k is the node whose edge range holds edge
 * k * SOURCE_SAMPLE_STEP.
 * @param {Uint32Array} firstEdge
 * @param {number} nodeCount
 * @param {number} edgeCount
 */
function sampleSources (firstEdge, nodeCount, edgeCount) {
  const samples = new Uint32Array(Math.max(1, Math.ceil(edgeCount / SOURCE_SAMPLE_STEP)))
  let k = 0
  for (let o = 0; o < nodeCount && k < samples.length; o++) {
    const end = firstEdge[o + 1]
    while (k < samples.length && k * SOURCE_SAMPLE_STEP < end) samples[k++] = o
  }
  return samples
}

/**
 * Retainer index by counting sort of the edges by target.
 * @param {Uint32Array} edgeTargets
 * @param {number} nodeCount
 */
function buildRetainers (edgeTargets, nodeCount) {
  const edgeCount = edgeTargets.length
  const firstRetainer = new Uint32Array(nodeCount + 1)
  const retainerEdges = new Uint32Array(edgeCount)
  for (let e = 0; e < edgeCount; e++) firstRetainer[edgeTargets[e]]++
  // Inclusive prefix sums: firstRetainer[o] = end of o's slots. Filling edges from the last one
  // backwards then decrements each entry down to its start, leaving slots in ascending edge order.
  let sum = 0
  for (let o = 0; o < nodeCount; o++) {
    sum += firstRetainer[o]
    firstRetainer[o] = sum
  }
  firstRetainer[nodeCount] = edgeCount
  for (let e = edgeCount - 1; e >= 0; e--) retainerEdges[--firstRetainer[edgeTargets[e]]] = e
  return { firstRetainer, retainerEdges }
}
