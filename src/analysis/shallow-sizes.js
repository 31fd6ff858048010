// Shallow sizes as DevTools shows them (JSHeapSnapshot.calculateShallowSizes, heapsnapshot-format.md
// 4.5). Internal `hidden` and `array` nodes (and `system / ExternalStringData`) that are reachable
// over non-weak edges from exactly one "owner" (any other node), through such nodes only, are folded
// into that owner: a Map's hash table counts as the Map's own size. Synthetic and root owners keep
// nothing. Snapshots without user roots (taken with exposeInternals) keep the raw sizes, as in DevTools.
//
// The owner of each foldable node is a fixed point over the lattice
//   unvisited < one owner < several owners,
// so the visiting order does not matter; nodes that own themselves never change state and are
// scanned in one pass, and only foldable nodes go on the worklist (at most twice each).

import { toFloat64Sizes } from '../parse/large-sizes.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

const UNVISITED = 0xffffffff
const SEVERAL_OWNERS = 0xfffffffe

/**
 * @param {HeapGraph} graph
 * @param {{hasUserRoots: boolean, scratch?: Uint32Array[], storage?: Float64Array}} options
 *   whether the root has a user root (findUserRoots); scratch: up to two arrays the caller no
 *   longer needs, used (and overwritten) for the owners and the worklist when they are long enough;
 *   storage: memory for the result instead of a new array, when long enough
 * @returns {Float64Array} bytes per ordinal, exact; the raw self sizes when nothing is folded
 */
export function computeShallowSizes (graph, { hasUserRoots, scratch = [], storage }) {
  if (!hasUserRoots) return toFloat64Sizes(graph.selfSizes, graph.largeSelfSizes, storage)
  const { nodeCount, nodeTypes, nodeNames, firstEdge, edgeTargets, edgeTypes, selfSizes, rootOrdinal } = graph
  const hiddenType = graph.nodeType.hidden
  const arrayType = graph.nodeType.array
  const nativeType = graph.nodeType.native
  const syntheticType = graph.nodeType.synthetic
  const weakType = graph.edgeType.weak
  const externalStringData = graph.strings.indexOf('system / ExternalStringData')

  const owners = scratch[0] && scratch[0].length >= nodeCount ? scratch[0] : new Uint32Array(nodeCount)
  let foldable = 0
  for (let o = 0; o < nodeCount; o++) {
    const type = nodeTypes[o]
    if (type === hiddenType || type === arrayType || (type === nativeType && nodeNames[o] === externalStringData)) {
      owners[o] = UNVISITED
      foldable++
    } else {
      owners[o] = o
    }
  }

  const worklist = scratch[1] && scratch[1].length >= 2 * foldable ? scratch[1] : new Uint32Array(2 * foldable)
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
          worklist[top++] = target
        } else if (current !== target && current !== owner && current !== SEVERAL_OWNERS) {
          owners[target] = SEVERAL_OWNERS
          worklist[top++] = target
        }
      }
      if (top === 0) break
      ordinal = worklist[--top]
    }
  }

  const shallow = toFloat64Sizes(selfSizes, graph.largeSelfSizes, storage)
  for (let o = 0; o < nodeCount; o++) {
    const owner = owners[o]
    if (owner === UNVISITED || owner === SEVERAL_OWNERS || owner === o) continue
    if (nodeTypes[owner] === syntheticType || owner === rootOrdinal) continue
    shallow[owner] += shallow[o]
    shallow[o] = 0
  }
  return shallow
}
