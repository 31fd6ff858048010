// Reusable cursors over a HeapGraph, for cold code (matchers, reporters). A NodeView reads one
// node: set `view.ordinal` and read. An EdgeCursor walks one node's references (outgoing edges) or
// retainers (incoming edges): start it on a node, call next() until it returns false, and read the
// edge it is on. One cursor serves any number of nodes (DevTools: `node.nodeIndex = i`, its
// HeapSnapshotEdgeIterator), so walking the heap never creates an object per node or edge:
//
//   const edge = new EdgeCursor(graph)
//   for (edge.references(o); edge.next();) if (edge.type === 'context') use(edge.name, edge.target)
//
// Hot loops of the engine (graph/, analysis/) use the graph's arrays directly.

/** @import {HeapGraph, EdgeTypeName} from './heap-graph.js' */

/**
 * One edge as seen from a node: its number, type, name and the node at the other end.
 * @typedef {object} EdgeInfo
 * @property {number} edge   edge number
 * @property {string} type   edge type name
 * @property {string} name   property / variable / internal name, or the index as text
 * @property {number} node   ordinal at the other end (target for edges(), source for retainers())
 */

export class NodeView {
  /**
   * @param {HeapGraph} graph
   * @param {number} [ordinal]
   */
  constructor (graph, ordinal = graph.rootOrdinal) {
    /** @readonly */
    this.graph = graph
    /** The node the view reads; reassign to move the cursor. */
    this.ordinal = ordinal
  }

  /** V8 object id. */
  get id () {
    return this.graph.nodeIds[this.ordinal]
  }

  /** Raw node name from the snapshot. */
  get name () {
    return this.graph.nodeName(this.ordinal)
  }

  /** Node type name. */
  get type () {
    return this.graph.nodeTypeName(this.ordinal)
  }

  /** Raw self_size in bytes, exact. */
  get selfSize () {
    return this.graph.selfSize(this.ordinal)
  }

  get edgeCount () {
    return this.graph.edgeCountOf(this.ordinal)
  }

  get retainerCount () {
    return this.graph.retainerCountOf(this.ordinal)
  }

  /**
   * Outgoing edges in snapshot order.
   * @returns {Generator<EdgeInfo>}
   */
  * edges () {
    const graph = this.graph
    for (let e = graph.firstEdge[this.ordinal], end = graph.firstEdge[this.ordinal + 1]; e < end; e++) {
      yield { edge: e, type: graph.edgeTypeName(e), name: graph.edgeName(e), node: graph.edgeTargets[e] }
    }
  }

  /**
   * Incoming edges (who holds this node), in ascending edge order.
   * @returns {Generator<EdgeInfo>}
   */
  * retainers () {
    const graph = this.graph
    for (let slot = graph.firstRetainer[this.ordinal], end = graph.firstRetainer[this.ordinal + 1]; slot < end; slot++) {
      const e = graph.retainerEdges[slot]
      yield { edge: e, type: graph.edgeTypeName(e), name: graph.edgeName(e), node: graph.edgeSource(e) }
    }
  }
}

export class EdgeCursor {
  // The graph's columns, read once: the cursor's methods are called once per edge.
  #types
  #names
  #targets
  /** true: the references of #node; false: its retainers */
  #outgoing = true
  #node = -1
  /** edge number (references) or retainer slot (retainers) the cursor is on */
  #at = 0
  #end = 0
  /** @type {Uint32Array} */
  #retainerEdges

  /** @param {HeapGraph} graph */
  constructor (graph) {
    /** @readonly */
    this.graph = graph
    /** The edge the cursor is on (an index into the graph's edge columns), -1 when on none. */
    this.number = -1
    this.#types = graph.edgeTypes
    this.#names = graph.edgeNames
    this.#targets = graph.edgeTargets
    this.#retainerEdges = new Uint32Array(0)
  }

  /**
   * Starts the cursor on the references of `ordinal` (its outgoing edges, in snapshot order); an
   * ordinal outside the graph (-1: "no node") has none.
   * @param {number} ordinal
   * @returns {this}
   */
  references (ordinal) {
    this.#outgoing = true
    this.#start(ordinal, this.graph.firstEdge)
    return this
  }

  /**
   * Starts the cursor on the retainers of `ordinal` (its incoming edges, in ascending edge
   * order). Builds the graph's retainer index on first use.
   * @param {number} ordinal
   * @returns {this}
   */
  retainers (ordinal) {
    const { firstRetainer, retainerEdges } = this.graph
    this.#outgoing = false
    this.#retainerEdges = retainerEdges
    this.#start(ordinal, firstRetainer)
    return this
  }

  /**
   * @param {number} ordinal
   * @param {Uint32Array} first  CSR offsets: firstEdge or firstRetainer
   */
  #start (ordinal, first) {
    const inside = ordinal >= 0 && ordinal < this.graph.nodeCount
    this.#node = ordinal
    this.#at = inside ? first[ordinal] - 1 : 0
    this.#end = inside ? first[ordinal + 1] : 0
    this.number = -1
  }

  /**
   * Moves to the next edge; false (and `number` -1) when there is none.
   * @returns {boolean}
   */
  next () {
    const at = this.#at + 1
    if (at >= this.#end) {
      this.#at = this.#end
      this.number = -1
      return false
    }
    this.#at = at
    this.number = this.#outgoing ? at : this.#retainerEdges[at]
    return true
  }

  /** The edge's type name (`property`, `element`, `context`, `internal`, `hidden`, `shortcut`, `weak`). */
  get type () {
    return this.graph.edgeTypeNames[this.#types[this.number]] ?? ''
  }

  /**
   * The edge's name: the property, variable or internal field name, or the index as text for
   * `element` and `hidden` edges. Decodes a string: compare names with is() in long loops.
   */
  get name () {
    return this.graph.edgeName(this.number)
  }

  /**
   * The string-table index of the edge's name (for `element` and `hidden` edges, the index
   * itself): loops over many edges compare it with `graph.strings.indexOf(name)` looked up once.
   */
  get nameIndex () {
    return this.#names[this.number]
  }

  /**
   * The number the edge's name is: the index of an `element` or `hidden` edge, or the slot an
   * internal edge names in digits (a hash table's entries); NaN for other names.
   */
  get index () {
    const { graph, number } = this
    if (!graph.edgeHasStringName(number)) return this.#names[number]
    const value = graph.strings.digits(this.#names[number])
    return value < 0 ? NaN : value
  }

  /** The node the edge leads to. */
  get target () {
    return this.#outgoing ? this.#targets[this.number] : this.#node
  }

  /** The node the edge comes from. */
  get source () {
    return this.#outgoing ? this.#node : this.graph.edgeSource(this.number)
  }

  /**
   * Whether the edge has this type and, when given, this name (a string, or the index of an
   * `element` or `hidden` edge). Compares string-table indexes: no name is decoded.
   * @param {EdgeTypeName} type
   * @param {string | number} [name]
   */
  is (type, name) {
    const number = this.number
    if (this.#types[number] !== this.graph.edgeTypeIndex(type)) return false
    if (name === undefined) return true
    return this.#names[number] === (typeof name === 'number' ? name : this.graph.strings.indexOf(name))
  }
}
