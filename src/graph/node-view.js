// A reusable cursor over one node of a HeapGraph, for cold code (matchers, reporters): set
// `view.ordinal` and read. One view serves any number of nodes (DevTools: `node.nodeIndex = i`),
// so walking the heap never creates an object per node. Hot loops use the graph's arrays directly.

/** @import {HeapGraph} from './heap-graph.js' */

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
