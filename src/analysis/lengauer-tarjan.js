// Immediate dominators by Lengauer–Tarjan, for the heaps on which the iterative algorithm of
// dominators.js would take quadratic time. That algorithm finds each node's dominator as the
// nearest common ancestor of its retainers, climbing the tree one level at a time: a node held from
// every link of a long chain (the shared map of a linked list of a million nodes, a payload a chain
// node and an array both hold) costs a climb per link, as long as the chain. Lengauer–Tarjan does
// not climb: it takes O(m α(m, n)) whatever the shape, at about twice the memory.
//
// Thomas Lengauer and Robert Endre Tarjan. 1979. A fast algorithm for finding dominators in a
// flowgraph. ACM Trans. Program. Lang. Syst. 1, 1, 121–141. https://doi.org/10.1145/357062.357071
// (the "simple" version: EVAL and LINK with path compression, as Chrome DevTools' worker runs it).
//
// DevTools' handling of nodes the DFS from the root misses is the same as in dominators.js: a node
// no essential edge points to starts an extra DFS hung under the root, and counts as having the
// root as its only retainer; a node still unvisited after that gets the root, and its own edges
// take no part.
//
// Predecessors without a retainer index: a retainer v of w that comes before w in the DFS is not
// linked yet when w is processed, so EVAL(v) = v and it offers its own DFS number; the smallest such
// number is found in one pass over the edges. Only the retainers that come after w need EVAL, and
// only they are listed, grouped by target in the order the main loop takes the targets.

import { markEssentialTargets } from './essential-edges.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

const NONE = 0xffffffff
// Top bit of a listed retainer: the last one of its target's group. Ordinals stay below it.
const GROUP_END = 0x80000000
const ORDINAL_MASK = 0x7fffffff

/**
 * Immediate dominators by ordinal (the root's is itself).
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential one bit per edge (buildEssentialEdges)
 * @param {Uint32Array[]} storage three arrays of at least nodeCount entries the caller lends; the
 *   first holds the result
 * @returns {Uint32Array}
 */
export function lengauerTarjan (graph, essential, storage) {
  const { nodeCount, rootOrdinal } = graph
  const lend = (/** @type {number} */ k) => {
    const array = storage[k]
    return array && array.length >= nodeCount ? array.subarray(0, nodeCount) : new Uint32Array(nodeCount)
  }
  // DFS number (1-based, 0 = unvisited) per ordinal until the node's turn in the main loop, then
  // the DFS number of its semidominator.
  const semi = lend(1).fill(0)
  // DFS number - 1 -> ordinal.
  const vertex = lend(2)
  const parent = new Uint32Array(nodeCount)
  // During the DFS each node's next edge; then the ends of the listed retainers' groups; in the
  // main loop, the forest of linked nodes (NONE: a root of it).
  const ancestor = new Uint32Array(nodeCount)
  // First, each node's smallest DFS number among its earlier retainers; in the main loop, EVAL's labels.
  const label = new Uint32Array(nodeCount)
  // Buckets: the first node of each, and the next one of each node. A node's immediate dominator
  // (or, before the last pass, the node to take it from) replaces its link once it leaves its bucket.
  const bucket = new Uint32Array(nodeCount).fill(NONE)
  const dom = lend(0)

  let n = depthFirst(rootOrdinal, NONE, graph, essential, semi, vertex, parent, ancestor, 0)
  /** @type {Uint8Array | null} */
  let leftovers = null
  if (n < nodeCount) {
    const retained = markEssentialTargets(graph, essential)
    for (let v = 0; v < nodeCount; v++) {
      if (semi[v] !== 0 || ((retained[v >>> 3] >>> (v & 7)) & 1) !== 0) continue
      n = depthFirst(v, rootOrdinal, graph, essential, semi, vertex, parent, ancestor, n)
    }
    leftovers = markLeftovers(semi)
  }

  const { later, hasGroup } = listLaterRetainers(graph, essential, semi, vertex, n, label, ancestor)
  ancestor.fill(NONE)
  mainLoop(later, hasGroup, semi, vertex, parent, ancestor, label, bucket, dom, n)
  finishDominators(semi, vertex, dom, n)
  dom[rootOrdinal] = rootOrdinal
  if (leftovers) {
    for (let v = 0; v < nodeCount; v++) {
      if (((leftovers[v >>> 3] >>> (v & 7)) & 1) !== 0) dom[v] = rootOrdinal
    }
  }
  return dom
}

/**
 * Iterative DFS in preorder over essential edges from `start`, numbering the nodes it reaches;
 * climbs back through `parent` and ends above `start`.
 * @param {number} start
 * @param {number} startParent
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 * @param {Uint32Array} number DFS number per ordinal, 0 = unvisited
 * @param {Uint32Array} vertex
 * @param {Uint32Array} parent
 * @param {Uint32Array} nextEdge
 * @param {number} n nodes numbered so far
 * @returns {number} nodes numbered after the search
 */
function depthFirst (start, startParent, graph, essential, number, vertex, parent, nextEdge, n) {
  const { firstEdge, edgeTargets } = graph
  parent[start] = startParent
  number[start] = ++n
  vertex[n - 1] = start
  nextEdge[start] = firstEdge[start]
  let v = start
  while (v !== startParent) {
    let next = parent[v]
    for (let e = nextEdge[v], end = firstEdge[v + 1]; e < end; e++) {
      if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
      const w = edgeTargets[e]
      if (number[w] === 0) {
        parent[w] = v
        number[w] = ++n
        vertex[n - 1] = w
        nextEdge[w] = firstEdge[w]
        nextEdge[v] = e + 1
        next = w
        break
      }
    }
    v = next
  }
  return n
}

/**
 * The unvisited nodes, one bit each, or null when there are none.
 * @param {Uint32Array} number
 * @returns {Uint8Array | null}
 */
function markLeftovers (number) {
  /** @type {Uint8Array | null} */
  let leftovers = null
  for (let v = 0; v < number.length; v++) {
    if (number[v] !== 0) continue
    leftovers ??= new Uint8Array((number.length + 7) >>> 3)
    leftovers[v >>> 3] |= 1 << (v & 7)
  }
  return leftovers
}

/**
 * Sets `smallest[w]` to the smallest DFS number among w's earlier retainers (its own number when it
 * has none), and lists its later retainers, grouped by target in descending DFS number, the last of
 * each group marked by GROUP_END; `groupEnd[w]` ends w's group (0: no group).
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 * @param {Uint32Array} number
 * @param {Uint32Array} vertex
 * @param {number} n
 * @param {Uint32Array} smallest
 * @param {Uint32Array} groupEnd
 * @returns {{later: Uint32Array, hasGroup: Uint8Array}} and a bit per node that has a group
 */
function listLaterRetainers (graph, essential, number, vertex, n, smallest, groupEnd) {
  smallest.set(number)
  groupEnd.fill(0)
  scanRetainers(graph, essential, number, smallest, groupEnd, null)
  // Group starts, in the main loop's order.
  const hasGroup = new Uint8Array((graph.nodeCount + 7) >>> 3)
  let listed = 0
  for (let i = n; i >= 2; i--) {
    const w = vertex[i - 1]
    const count = groupEnd[w]
    if (count > 0) hasGroup[w >>> 3] |= 1 << (w & 7)
    groupEnd[w] = listed
    listed += count
  }
  const later = new Uint32Array(listed)
  scanRetainers(graph, essential, number, smallest, groupEnd, later)
  markGroupEnds(vertex, n, later, groupEnd)
  return { later, hasGroup }
}

/**
 * One pass over the essential edges of the numbered nodes. Without `later`: lowers `smallest` by
 * each earlier retainer and counts each target's later ones in `groupEnd`; with it: lists the
 * later ones at `groupEnd`, which moves to the end of each group.
 * @param {HeapGraph} graph
 * @param {Uint8Array} essential
 * @param {Uint32Array} number
 * @param {Uint32Array} smallest
 * @param {Uint32Array} groupEnd
 * @param {Uint32Array | null} later
 */
function scanRetainers (graph, essential, number, smallest, groupEnd, later) {
  const { nodeCount, firstEdge, edgeTargets, rootOrdinal } = graph
  for (let source = 0; source < nodeCount; source++) {
    const sourceNumber = number[source]
    if (sourceNumber === 0) continue
    for (let e = firstEdge[source], end = firstEdge[source + 1]; e < end; e++) {
      if (((essential[e >>> 3] >>> (e & 7)) & 1) === 0) continue
      const w = edgeTargets[e]
      if (sourceNumber < number[w]) {
        if (later === null && sourceNumber < smallest[w]) smallest[w] = sourceNumber
      } else if (w !== rootOrdinal) {
        if (later === null) groupEnd[w]++
        else later[groupEnd[w]++] = source
      }
    }
  }
}

/**
 * @param {Uint32Array} vertex
 * @param {number} n
 * @param {Uint32Array} later
 * @param {Uint32Array} groupEnd
 */
function markGroupEnds (vertex, n, later, groupEnd) {
  let start = 0
  for (let i = n; i >= 2; i--) {
    const end = groupEnd[vertex[i - 1]]
    if (end > start) later[end - 1] |= GROUP_END
    start = end
  }
}

/**
 * The paper's steps 2 and 3: semidominators in reverse DFS order, each node linked to its parent,
 * and the parent's bucket emptied into `dom`.
 * @param {Uint32Array} later
 * @param {Uint8Array} hasGroup a bit per node: whether it has listed retainers
 * @param {Uint32Array} semi DFS numbers on entry
 * @param {Uint32Array} vertex
 * @param {Uint32Array} parent
 * @param {Uint32Array} ancestor all NONE
 * @param {Uint32Array} label the smallest earlier retainer numbers on entry
 * @param {Uint32Array} bucket all NONE
 * @param {Uint32Array} dom
 * @param {number} n
 */
function mainLoop (later, hasGroup, semi, vertex, parent, ancestor, label, bucket, dom, n) {
  let cursor = 0
  for (let i = n; i >= 2; i--) {
    const w = vertex[i - 1]
    let s = label[w]
    label[w] = w
    if (((hasGroup[w >>> 3] >>> (w & 7)) & 1) !== 0) {
      for (;;) {
        const entry = later[cursor++]
        const u = evaluate(entry & ORDINAL_MASK, ancestor, label, semi)
        if (semi[u] < s) s = semi[u]
        if (entry >= GROUP_END) break
      }
    } else if (s === i) {
      // No essential retainer at all (an extra start): it hangs under the root, number 1.
      s = 1
    }
    semi[w] = s
    const top = vertex[s - 1]
    dom[w] = bucket[top]
    bucket[top] = w
    const p = parent[w]
    ancestor[w] = p
    let v = bucket[p]
    bucket[p] = NONE
    while (v !== NONE) {
      const next = dom[v]
      const u = evaluate(v, ancestor, label, semi)
      dom[v] = semi[u] < semi[v] ? u : p
      v = next
    }
  }
}

/**
 * The paper's step 4: a node whose semidominator is not its immediate dominator takes that of
 * the node `dom` names.
 * @param {Uint32Array} semi
 * @param {Uint32Array} vertex
 * @param {Uint32Array} dom
 * @param {number} n
 */
function finishDominators (semi, vertex, dom, n) {
  for (let i = 2; i <= n; i++) {
    const w = vertex[i - 1]
    if (dom[w] !== vertex[semi[w] - 1]) dom[w] = dom[dom[w]]
  }
}

/**
 * EVAL of the paper: the node with the smallest semi on the compressed path above v. COMPRESS runs
 * without a stack: the climb reverses the `ancestor` links it passes (pointer reversal), and the
 * way back down follows them, restoring and compressing top-down as the recursive version would.
 * @param {number} v
 * @param {Uint32Array} ancestor
 * @param {Uint32Array} label
 * @param {Uint32Array} semi
 */
function evaluate (v, ancestor, label, semi) {
  if (ancestor[v] === NONE) return v
  let below = NONE
  let x = v
  while (ancestor[ancestor[x]] !== NONE) {
    const above = ancestor[x]
    ancestor[x] = below
    below = x
    x = above
  }
  // x is the highest node to keep its ancestor; relabel each node below it from the one above.
  while (below !== NONE) {
    const w = below
    below = ancestor[w]
    if (semi[label[x]] < semi[label[w]]) label[w] = label[x]
    ancestor[w] = ancestor[x]
    x = w
  }
  return label[v]
}
