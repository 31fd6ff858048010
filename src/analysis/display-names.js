// A node's name as DevTools lists it (JSHeapSnapshotNode.name): a concatenated string shows its
// text (leaves joined, up to ~1024 chars), a plain Object shows its property names
// `{first, second, …, last}` taken from both ends, anything else its raw name. Cold code: for
// the handful of nodes a report prints.

import { formatPropertyName } from './interfaces.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */

const MAX_CONS_STRING_LENGTH = 1024
const MAX_OBJECT_NAME_LENGTH = 100

/**
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {string}
 */
export function displayName (graph, ordinal) {
  const type = graph.nodeTypes[ordinal]
  if (type === graph.nodeType.concatenatedString) return consStringText(graph, ordinal)
  if (type === graph.nodeType.object && graph.nodeName(ordinal) === 'Object') return plainObjectName(graph, ordinal)
  return graph.nodeName(ordinal)
}

/**
 * The leaves of a cons-string tree, left to right, on an explicit stack.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 */
function consStringText (graph, ordinal) {
  const { firstEdge, edgeTypes, edgeNames, edgeTargets, nodeTypes } = graph
  const consType = graph.nodeType.concatenatedString
  const internalType = graph.edgeType.internal
  const firstName = graph.strings.indexOf('first')
  const secondName = graph.strings.indexOf('second')
  const stack = [ordinal]
  let text = ''
  while (stack.length > 0 && text.length < MAX_CONS_STRING_LENGTH) {
    const node = /** @type {number} */ (stack.pop())
    if (nodeTypes[node] !== consType) {
      text += graph.nodeName(node)
      continue
    }
    let first = -1
    let second = -1
    for (let e = firstEdge[node], end = firstEdge[node + 1]; e < end; e++) {
      if (edgeTypes[e] !== internalType) continue
      if (edgeNames[e] === firstName) first = edgeTargets[e]
      else if (edgeNames[e] === secondName) second = edgeTargets[e]
    }
    if (second >= 0) stack.push(second)
    if (first >= 0) stack.push(first)
  }
  return text
}

/**
 * `{a, b, …, y, z}`: property names alternately from the first and the last edge inward, while the
 * name stays within about 100 characters (at least one property always shows).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 */
function plainObjectName (graph, ordinal) {
  const { edgeTypes, edgeNames } = graph
  const propertyType = graph.edgeType.property
  const proto = graph.strings.indexOf('__proto__')
  let start = '{'
  let end = '}'
  let fromStart = graph.firstEdge[ordinal]
  let fromEnd = graph.firstEdge[ordinal + 1] - 1
  let takeFromEnd = false
  while (fromStart <= fromEnd) {
    const e = takeFromEnd ? fromEnd : fromStart
    if (edgeTypes[e] !== propertyType || edgeNames[e] === proto) {
      if (takeFromEnd) fromEnd--
      else fromStart++
      continue
    }
    const name = formatPropertyName(graph.strings.get(edgeNames[e]))
    if (start.length > 1 && start.length + end.length + name.length > MAX_OBJECT_NAME_LENGTH) break
    if (takeFromEnd) {
      fromEnd--
      if (end.length > 1) end = ', ' + end
      end = name + end
    } else {
      fromStart++
      if (start.length > 1) start += ', '
      start += name
    }
    takeFromEnd = !takeFromEnd
  }
  if (fromStart <= fromEnd) start += ', …'
  if (end.length > 1) start += ', '
  return start + end
}
