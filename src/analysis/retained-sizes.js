// Retained sizes, and the Summary's retained size per class, in one walk down the dominator tree.
//
// A node's retained size is its (adjusted) shallow size plus the retained sizes of the nodes it
// immediately dominates, summed as each node is left. A class's retained size adds the retained
// sizes of its counted nodes (shallow size > 0), except those below another node of the same class
// (already inside that one's): one "open" flag per class, set at the topmost counted node of the
// class on the current path and cleared when its subtree is left (DevTools'
// calculateClassesRetainedSize, heapsnapshot-format.md 4.7). Only one node per class is open on any
// path, so the stack of open classes never exceeds the class count. The sums are of integers below
// 2^53, so the order of the walk does not change them.
//
// Memory: the tree is walked without a stack in two arrays. `firstChild` is lent by the caller;
// the dominators array itself holds, during the walk, each node's next sibling, or for the last
// child its parent with THREAD set, and gets its dominators back as each subtree is left.

/** @import {SizeColumn} from './size-column.js' */

const NONE = 0xffffffff
const THREAD = 0x80000000
const ORDINAL_MASK = 0x7fffffff

/**
 * @param {Uint32Array} dominators immediate dominator per ordinal (buildDominators); overwritten
 *   during the walk, the same again at the end
 * @param {number} rootOrdinal
 * @param {SizeColumn} sizes each node's shallow size on entry, its retained size on return
 * @param {Uint16Array | Uint32Array} classOf
 * @param {number} classCount
 * @param {{scratch?: Uint32Array}} [options] an array of one entry per node the caller no longer
 *   needs, for the first children
 * @returns {Float64Array} retained bytes per class
 */
export function computeRetainedSizes (dominators, rootOrdinal, sizes, classOf, classCount, { scratch } = {}) {
  const nodeCount = dominators.length
  const column = sizes.column
  const firstChild = (scratch && scratch.length >= nodeCount ? scratch.subarray(0, nodeCount) : new Uint32Array(nodeCount)).fill(NONE)
  const links = dominators
  threadChildren(links, firstChild, rootOrdinal)

  const classRetained = new Float64Array(classCount)
  const open = new Uint8Array(classCount)
  const openClasses = new Uint32Array(classCount)
  const openNodes = new Uint32Array(classCount)
  let openCount = 0
  let o = rootOrdinal
  for (;;) {
    // Enter o, then its first children down to a leaf. The column still holds o's shallow size.
    for (;;) {
      const c = classOf[o]
      const counted = open[c] === 0 && column[o] > 0
      const child = firstChild[o]
      if (counted) {
        if (child === NONE) {
          classRetained[c] += sizes.at(o)
        } else {
          open[c] = 1
          openClasses[openCount] = c
          openNodes[openCount++] = o
        }
      }
      if (child === NONE) break
      o = child
    }
    // Leave o, and each parent whose last child it was: sum the children, give them their
    // dominator back, and close the class o opened.
    let sibling = NONE
    for (;;) {
      const child = firstChild[o]
      if (child !== NONE) {
        let total = sizes.at(o)
        let c = child
        for (;;) {
          total += sizes.at(c)
          const link = links[c]
          links[c] = o
          if (link >= THREAD) break
          c = link
        }
        sizes.set(o, total)
      }
      if (openCount > 0 && openNodes[openCount - 1] === o) {
        const c = openClasses[--openCount]
        open[c] = 0
        classRetained[c] += sizes.at(o)
      }
      if (o === rootOrdinal) break
      const link = links[o]
      if (link < THREAD) {
        sibling = link
        break
      }
      o = link & ORDINAL_MASK
    }
    if (sibling === NONE) break
    o = sibling
  }
  links[rootOrdinal] = rootOrdinal
  return classRetained
}

/**
 * Threads each node's children into `links` (a child's next sibling, or THREAD | its parent after
 * the last), in ascending ordinal order; a loop of its own, so that V8 compiles it apart from the
 * walk (on-stack replacement compiles the whole function around a running loop).
 * @param {Uint32Array} links the dominators on entry
 * @param {Uint32Array} firstChild all NONE on entry
 * @param {number} rootOrdinal
 */
function threadChildren (links, firstChild, rootOrdinal) {
  // Each child is put in front of those after it.
  for (let o = links.length - 1; o >= 0; o--) {
    if (o === rootOrdinal) continue
    const parent = links[o]
    const first = firstChild[parent]
    links[o] = first === NONE ? (parent | THREAD) : first
    firstChild[parent] = o
  }
}
