// The Summary view: per class, the count, shallow size and retained size DevTools shows
// (buildAggregates + calculateClassesRetainedSize, heapsnapshot-format.md 4.7).
//   - Only nodes with a shallow size > 0 (after 4.5 reassignment) count.
//   - A class's retained size adds the retained sizes of its nodes, except those below another
//     node of the same class in the dominator tree (already inside that one's retained size).
// The second rule is a DFS down the dominator tree with one "open" flag per class: a class opens at
// its topmost counted node that has children and closes when that subtree is done. Only one node
// per class is open on any path, so the stack of open classes never exceeds the class count. The
// sums are of integers below 2^53, so the order of the walk does not change them.

/** @import {ClassNames} from './class-names.js' */

const NONE = 0xffffffff

/**
 * @typedef {object} ClassSummary
 * @property {string[]} names             display name per class
 * @property {string[]} keys              class key per class
 * @property {Uint32Array} counts         objects with shallow size > 0
 * @property {Float64Array} selfSizes     sum of their shallow sizes, bytes
 * @property {Float64Array} retainedSizes bytes, without double counting nested same-class nodes
 * @property {Int32Array} minDistances    smallest distance among the counted nodes
 */

/**
 * One Summary row (the JSON report's `classes` entries).
 * @typedef {object} ClassRow
 * @property {string} name
 * @property {string} key
 * @property {number} count
 * @property {number} selfSize
 * @property {number} retainedSize
 */

/**
 * The Summary: per class, the count, shallow size and smallest distance of its counted objects, with
 * the retained sizes from classRetainedSizes.
 * @param {ClassNames} classNames
 * @param {Float64Array} shallowSizes
 * @param {Int32Array} distances
 * @param {Float64Array} classRetained per class (classRetainedSizes)
 * @returns {ClassSummary}
 */
export function summarizeClasses (classNames, shallowSizes, distances, classRetained) {
  const { classOf, names, keys } = classNames
  const classCount = names.length
  const nodeCount = classOf.length
  const counts = new Uint32Array(classCount)
  const selfSizes = new Float64Array(classCount)
  const minDistances = new Int32Array(classCount).fill(0x7fffffff)
  for (let o = 0; o < nodeCount; o++) {
    const size = shallowSizes[o]
    if (!(size > 0)) continue
    const c = classOf[o]
    counts[c]++
    selfSizes[c] += size
    if (distances[o] < minDistances[c]) minDistances[c] = distances[o]
  }
  return { names, keys, counts, selfSizes, retainedSizes: classRetained, minDistances }
}

/**
 * Retained size per class, without counting a node inside the retained size of another node of
 * its class (the second rule above).
 * @param {ClassNames} classNames
 * @param {Float64Array} shallowSizes
 * @param {Float64Array} retainedSizes
 * @param {Uint32Array} dominators
 * @param {number} rootOrdinal
 * @param {{scratch?: Uint32Array[]}} [options] scratch: up to two arrays of at least one entry per
 *   node that the caller no longer needs, used (and overwritten) instead of allocating them
 * @returns {Float64Array} bytes per class
 */
export function classRetainedSizes (classNames, shallowSizes, retainedSizes, dominators, rootOrdinal, { scratch } = {}) {
  const { classOf } = classNames
  const classCount = classNames.names.length
  const classRetained = new Float64Array(classCount)

  // The dominator tree as first-child / next-sibling links, walked without a stack: down to the
  // first child, else on to the next sibling, else back up through `dominators`.
  const { firstChild, nextSibling } = linkDominatedNodes(dominators, rootOrdinal, scratch ?? [])
  const open = new Uint8Array(classCount)
  const openClasses = new Uint32Array(classCount)
  const openNodes = new Uint32Array(classCount)
  let openCount = 0
  let o = rootOrdinal
  for (;;) {
    // Enter o.
    const c = classOf[o]
    if (open[c] === 0 && shallowSizes[o] > 0) {
      classRetained[c] += retainedSizes[o]
      if (firstChild[o] !== NONE) {
        open[c] = 1
        openClasses[openCount] = c
        openNodes[openCount++] = o
      }
    }
    if (firstChild[o] !== NONE) {
      o = firstChild[o]
      continue
    }
    // Leave o and every ancestor whose last child it was; a class closes with the node that opened it.
    for (;;) {
      if (openCount > 0 && openNodes[openCount - 1] === o) open[openClasses[--openCount]] = 0
      if (o === rootOrdinal) break
      if (nextSibling[o] !== NONE) break
      o = dominators[o]
    }
    if (o === rootOrdinal) break
    o = nextSibling[o]
  }
  return classRetained
}

/**
 * Summary rows for classes with at least one counted object, largest retained size first.
 * @param {ClassSummary} summary
 * @returns {ClassRow[]}
 */
export function classRows (summary) {
  /** @type {ClassRow[]} */
  const rows = []
  for (let c = 0; c < summary.names.length; c++) {
    if (summary.counts[c] === 0) continue
    rows.push({
      name: summary.names[c],
      key: summary.keys[c],
      count: summary.counts[c],
      selfSize: summary.selfSizes[c],
      retainedSize: summary.retainedSizes[c]
    })
  }
  return rows.sort((a, b) => b.retainedSize - a.retainedSize || b.selfSize - a.selfSize)
}

/**
 * Children of each node in the dominator tree as linked lists (NONE ends a list), root excluded
 * as a child. Children come in ascending ordinal order.
 * @param {Uint32Array} dominators
 * @param {number} rootOrdinal
 * @param {Uint32Array[]} scratch reused for the sibling links, then the first children, when long enough
 */
function linkDominatedNodes (dominators, rootOrdinal, scratch) {
  const nodeCount = dominators.length
  const reuse = (/** @type {Uint32Array | undefined} */ array) =>
    (array && array.length >= nodeCount ? array.subarray(0, nodeCount) : new Uint32Array(nodeCount)).fill(NONE)
  const nextSibling = reuse(scratch[0])
  const firstChild = reuse(scratch[1])
  for (let o = nodeCount - 1; o >= 0; o--) {
    if (o === rootOrdinal) continue
    const d = dominators[o]
    nextSibling[o] = firstChild[d]
    firstChild[d] = o
  }
  return { firstChild, nextSibling }
}
