// The Summary view: per class, the count, shallow size and retained size DevTools shows
// (buildAggregates + calculateClassesRetainedSize, heapsnapshot-format.md 4.7).
//   - Only nodes with a shallow size > 0 (after 4.5 reassignment) count.
//   - A class's retained size adds the retained sizes of its nodes, except those below another
//     node of the same class in the dominator tree (already inside that one's retained size).
// The second rule is a DFS down the dominator tree with one "open" flag per class: a class opens at
// its topmost counted node that has children and closes when that subtree is done. Only one node
// per class is open on any path, so the stack of open classes never exceeds the class count.

/** @import {ClassNames} from './class-names.js' */

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
 * @param {ClassNames} classNames
 * @param {Float64Array} shallowSizes
 * @param {Float64Array} retainedSizes
 * @param {Uint32Array} dominators
 * @param {Int32Array} distances
 * @param {number} rootOrdinal
 * @returns {ClassSummary}
 */
export function summarizeClasses (classNames, shallowSizes, retainedSizes, dominators, distances, rootOrdinal) {
  const { classOf, names, keys } = classNames
  const classCount = names.length
  const nodeCount = classOf.length
  const counts = new Uint32Array(classCount)
  const selfSizes = new Float64Array(classCount)
  const classRetained = new Float64Array(classCount)
  const minDistances = new Int32Array(classCount).fill(0x7fffffff)
  for (let o = 0; o < nodeCount; o++) {
    const size = shallowSizes[o]
    if (!(size > 0)) continue
    const c = classOf[o]
    counts[c]++
    selfSizes[c] += size
    if (distances[o] < minDistances[c]) minDistances[c] = distances[o]
  }

  const { firstChild, children } = buildDominatedNodes(dominators, rootOrdinal)
  const stack = new Uint32Array(nodeCount)
  const open = new Uint8Array(classCount)
  const openClasses = new Uint32Array(classCount)
  const openAtLength = new Uint32Array(classCount)
  let openCount = 0
  let length = 0
  stack[length++] = rootOrdinal
  while (length > 0) {
    const o = stack[--length]
    const c = classOf[o]
    const from = firstChild[o]
    const to = firstChild[o + 1]
    if (open[c] === 0 && shallowSizes[o] > 0) {
      classRetained[c] += retainedSizes[o]
      if (from !== to) {
        open[c] = 1
        openClasses[openCount] = c
        openAtLength[openCount++] = length
      }
    }
    for (let i = from; i < to; i++) stack[length++] = children[i]
    // A class closes once the stack is back to where it was when its node was taken: the node's
    // whole dominator subtree has been visited.
    while (openCount > 0 && openAtLength[openCount - 1] === length) open[openClasses[--openCount]] = 0
  }
  return { names, keys, counts, selfSizes, retainedSizes: classRetained, minDistances }
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
 * Children lists of the dominator tree (CSR by dominator, counting sort), root excluded as a child.
 * @param {Uint32Array} dominators
 * @param {number} rootOrdinal
 */
function buildDominatedNodes (dominators, rootOrdinal) {
  const nodeCount = dominators.length
  const firstChild = new Uint32Array(nodeCount + 1)
  const children = new Uint32Array(Math.max(nodeCount - 1, 0))
  for (let o = 0; o < nodeCount; o++) {
    if (o !== rootOrdinal) firstChild[dominators[o]]++
  }
  let sum = 0
  for (let o = 0; o < nodeCount; o++) {
    sum += firstChild[o]
    firstChild[o] = sum
  }
  firstChild[nodeCount] = sum
  for (let o = nodeCount - 1; o >= 0; o--) {
    if (o !== rootOrdinal) children[--firstChild[dominators[o]]] = o
  }
  return { firstChild, children }
}
