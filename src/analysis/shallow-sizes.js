// Shallow sizes as DevTools shows them (JSHeapSnapshot.calculateShallowSizes, heapsnapshot-format.md
// 4.5). Internal `hidden` and `array` nodes (and `system / ExternalStringData`) that are reachable
// over non-weak edges from exactly one "owner" (any other node), through such nodes only, are folded
// into that owner: a Map's hash table counts as the Map's own size. Synthetic and root owners keep
// nothing. Snapshots without user roots (taken with exposeInternals) keep the raw sizes, as in DevTools.
//
// The owner of each foldable node is a fixed point over the lattice
//   unvisited < one owner < several owners,
// so the visiting order does not matter; nodes that own themselves never change state and are
// scanned in one pass, and only foldable nodes go on the worklist (never twice at once, so it
// fits in one entry per node).
//
// The sizes are needed in full only once, for the class totals and as the start of the retained
// sizes. What stays afterwards is a bit per folded node: a node's shallow size is then 0 when it
// is folded, else its raw size plus the raw sizes of the folded nodes it reaches through folded
// nodes only (exactly those it owns: a node reached from two owners would have two).

import { SizeColumn } from './size-column.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

const UNVISITED = 0xffffffff
const SEVERAL_OWNERS = 0xfffffffe
// Past this many folded nodes under one owner, a set instead of a linear search.
const SMALL_LIST = 16

/** One node's shallow size on demand, from the folded-node bits (see above). */
export class ShallowSizes {
  #graph
  #folded
  #anyFolded
  #externalStringData

  /**
   * @param {HeapGraph} graph
   * @param {Uint8Array} folded one bit per ordinal
   * @param {boolean} anyFolded whether any bit is set
   */
  constructor (graph, folded, anyFolded) {
    this.#graph = graph
    this.#folded = folded
    this.#anyFolded = anyFolded
    this.#externalStringData = graph.strings.indexOf('system / ExternalStringData')
  }

  /** The bits, to send them to another thread. */
  get folded () {
    return { bits: this.#folded, any: this.#anyFolded }
  }

  /**
   * Bytes, as DevTools' Summary shows them.
   * @param {number} ordinal
   */
  at (ordinal) {
    const graph = this.#graph
    if (!this.#anyFolded) return graph.selfSize(ordinal)
    const folded = this.#folded
    if ((folded[ordinal >>> 3] >>> (ordinal & 7)) & 1) return 0
    let size = graph.selfSize(ordinal)
    const type = graph.nodeTypes[ordinal]
    if (type === graph.nodeType.hidden || type === graph.nodeType.array ||
      (type === graph.nodeType.native && graph.nodeNames[ordinal] === this.#externalStringData)) return size
    const { firstEdge, edgeTargets, edgeTypes } = graph
    const weakType = graph.edgeType.weak
    // The folded nodes found so far, in the order found; most owners have one or two (a property or
    // elements array, a hash table), so the list is made only for a first one, and a set past a few.
    /** @type {number[] | null} */
    let found = null
    /** @type {Set<number> | null} */
    let foundSet = null
    let next = 0
    let o = ordinal
    for (;;) {
      for (let e = firstEdge[o], end = firstEdge[o + 1]; e < end; e++) {
        const target = edgeTargets[e]
        if (edgeTypes[e] === weakType || ((folded[target >>> 3] >>> (target & 7)) & 1) === 0) continue
        if (found === null) {
          found = [target]
        } else {
          if (foundSet ? foundSet.has(target) : found.includes(target)) continue
          found.push(target)
          if (foundSet) foundSet.add(target)
          else if (found.length > SMALL_LIST) foundSet = new Set(found)
        }
        size += graph.selfSize(target)
      }
      if (found === null || next === found.length) return size
      o = found[next++]
    }
  }
}

/**
 * @param {HeapGraph} graph
 * @param {{hasUserRoots: boolean, scratch?: Uint32Array, storage?: Uint32Array}} options
 *   whether the root has a user root (findUserRoots); scratch: an array of one entry per node the
 *   caller no longer needs, for the owners; storage: memory for the sizes, one entry per node
 * @returns {{column: SizeColumn, sizes: ShallowSizes}} every node's size, and the lasting form
 */
export function computeShallowSizes (graph, { hasUserRoots, scratch, storage }) {
  const { nodeCount, nodeTypes, nodeNames, firstEdge, edgeTargets, edgeTypes, selfSizes, rootOrdinal } = graph
  const lend = (/** @type {Uint32Array | undefined} */ array) =>
    array && array.length >= nodeCount ? array.subarray(0, nodeCount) : new Uint32Array(nodeCount)
  const shallow = lend(storage)
  const folded = new Uint8Array((nodeCount + 7) >>> 3)
  const column = new SizeColumn(shallow)
  const rawSizes = () => {
    shallow.set(selfSizes)
    const { ordinals, sizes } = graph.largeSelfSizes
    for (let k = 0; k < ordinals.length; k++) column.large.set(ordinals[k], sizes[k])
  }
  if (!hasUserRoots) {
    rawSizes()
    return { column, sizes: new ShallowSizes(graph, folded, false) }
  }
  const hiddenType = graph.nodeType.hidden
  const arrayType = graph.nodeType.array
  const nativeType = graph.nodeType.native
  const syntheticType = graph.nodeType.synthetic
  const weakType = graph.edgeType.weak
  const externalStringData = graph.strings.indexOf('system / ExternalStringData')

  const owners = lend(scratch)
  markFoldable(nodeTypes, nodeNames, owners, hiddenType, arrayType, nativeType, externalStringData)
  // The worklist lives in the sizes' memory until the sizes are written; `folded` marks the nodes
  // on it meanwhile.
  findOwners(owners, firstEdge, edgeTargets, edgeTypes, weakType, shallow, folded)
  rawSizes()
  const anyFolded = foldIntoOwners(owners, nodeTypes, syntheticType, rootOrdinal, column, folded)
  return { column, sizes: new ShallowSizes(graph, folded, anyFolded) }
}

// Each loop below is a function of its own: V8 compiles a long-running loop while it runs
// (on-stack replacement) together with the rest of its function, whose code has not run yet and
// so is compiled to bail out; one loop per function means one compilation per loop, not one more
// after each loop.

/**
 * Self-owned nodes own themselves; foldable ones start UNVISITED.
 * @param {Uint8Array} nodeTypes
 * @param {Uint32Array} nodeNames
 * @param {Uint32Array} owners
 * @param {number} hiddenType
 * @param {number} arrayType
 * @param {number} nativeType
 * @param {number} externalStringData
 */
function markFoldable (nodeTypes, nodeNames, owners, hiddenType, arrayType, nativeType, externalStringData) {
  for (let o = 0; o < owners.length; o++) {
    const type = nodeTypes[o]
    const foldable = type === hiddenType || type === arrayType || (type === nativeType && nodeNames[o] === externalStringData)
    owners[o] = foldable ? UNVISITED : o
  }
}

/**
 * The owners' fixed point (see the top of the file).
 * @param {Uint32Array} owners
 * @param {Uint32Array} firstEdge
 * @param {Uint32Array} edgeTargets
 * @param {Uint8Array} edgeTypes
 * @param {number} weakType
 * @param {Uint32Array} worklist one entry per node
 * @param {Uint8Array} listed one bit per node, all clear; clear again at the end
 */
function findOwners (owners, firstEdge, edgeTargets, edgeTypes, weakType, worklist, listed) {
  const nodeCount = owners.length
  let top = 0
  for (let start = 0; start < nodeCount; start++) {
    if (owners[start] !== start) continue
    let ordinal = start
    // Scan the self-owned node, then drain whatever foldable nodes that made change.
    for (;;) {
      const owner = owners[ordinal]
      for (let e = firstEdge[ordinal], end = firstEdge[ordinal + 1]; e < end; e++) {
        if (edgeTypes[e] === weakType) continue
        const target = edgeTargets[e]
        const current = owners[target]
        if (current === UNVISITED) {
          owners[target] = owner
        } else if (current !== target && current !== owner && current !== SEVERAL_OWNERS) {
          owners[target] = SEVERAL_OWNERS
        } else {
          continue
        }
        if (((listed[target >>> 3] >>> (target & 7)) & 1) === 0) {
          listed[target >>> 3] |= 1 << (target & 7)
          worklist[top++] = target
        }
      }
      if (top === 0) break
      ordinal = worklist[--top]
      listed[ordinal >>> 3] &= ~(1 << (ordinal & 7))
    }
  }
}

/**
 * Moves each folded node's size into its owner's and marks it folded.
 * @param {Uint32Array} owners
 * @param {Uint8Array} nodeTypes
 * @param {number} syntheticType
 * @param {number} rootOrdinal
 * @param {SizeColumn} column the raw sizes
 * @param {Uint8Array} folded one bit per node, all clear
 * @returns {boolean} whether any node was folded
 */
function foldIntoOwners (owners, nodeTypes, syntheticType, rootOrdinal, column, folded) {
  const shallow = column.column
  let anyFolded = false
  for (let o = 0; o < owners.length; o++) {
    const owner = owners[o]
    if (owner === UNVISITED || owner === SEVERAL_OWNERS || owner === o) continue
    if (nodeTypes[owner] === syntheticType || owner === rootOrdinal) continue
    const size = column.at(o)
    if (size > 0) column.set(owner, column.at(owner) + size)
    shallow[o] = 0
    folded[o >>> 3] |= 1 << (o & 7)
    anyFolded = true
  }
  return anyFolded
}
