// Readings of acorn's nodes that several questions share: the name a property or a callee is
// written with, and the search of a node list sorted by start.
/** @import {Node} from 'acorn' */

/**
 * A member expression's property name when it is written out (`#name` for a private one), else null.
 * @param {any} node
 * @returns {string | null}
 */
export function propertyName (node) {
  if (node.computed) return null
  if (node.property.type === 'Identifier') return node.property.name
  if (node.property.type === 'PrivateIdentifier') return `#${node.property.name}`
  return null
}

/**
 * A callee's name: a function's, or a method's own (`on` for `emitter.on`).
 * @param {any} callee
 * @returns {string | null}
 */
export function calleeName (callee) {
  if (callee.type === 'Identifier') return callee.name
  if (callee.type === 'MemberExpression') return propertyName(callee)
  return null
}

/**
 * @param {any} node
 * @param {string} name
 */
export function isNamed (node, name) {
  return node?.type === 'Identifier' && node.name === name
}

/**
 * The first node in `nodes` (sorted by start) that starts at or after `offset`.
 * @param {Node[]} nodes
 * @param {number} offset
 */
export function lowerBound (nodes, offset) {
  let low = 0
  let high = nodes.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (nodes[middle].start < offset) low = middle + 1
    else high = middle
  }
  return low
}
