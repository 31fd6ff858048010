// The statements that add entries to a collection, found in the syntax tree rather than in the
// text, so that comments, strings, regular expressions and other names never count.
import { isNamed, propertyName } from './syntax-nodes.js'
/** @import {Occurrence} from './occurrences.js' */

/** Methods that add an entry to the collection they are called on. */
const ADDING_METHODS = new Set(['push', 'unshift', 'set', 'add', 'splice'])
/** Assignments through a key that store an entry (`+=` changes one). */
const STORING_OPERATORS = new Set(['=', '??=', '||=', '&&='])

/**
 * Offsets (ascending) of the writes among the occurrences of a collection (ScriptSyntax#writesTo).
 * @param {Occurrence[]} occurrences  of the collection's variable or property
 * @returns {number[]}
 */
export function collectionWrites (occurrences) {
  const offsets = new Set()
  for (const { node, parent, grand } of occurrences) {
    if (parent?.type === 'MemberExpression' && /** @type {any} */ (parent).object === node) {
      const p = /** @type {any} */ (parent)
      const g = /** @type {any} */ (grand)
      const adds = !p.computed && ADDING_METHODS.has(propertyName(p) ?? '') && g?.type === 'CallExpression' && g.callee === p
      const stores = p.computed && g?.type === 'AssignmentExpression' && g.left === p && STORING_OPERATORS.has(g.operator)
      if (adds || stores) offsets.add(node.start)
    } else if (parent?.type === 'CallExpression' && /** @type {any} */ (parent).arguments[0] === node && isObjectAssign(/** @type {any} */ (parent).callee)) {
      offsets.add(parent.start)
    }
  }
  return [...offsets].sort((a, b) => a - b)
}

/**
 * @param {any} callee
 */
function isObjectAssign (callee) {
  return callee.type === 'MemberExpression' && isNamed(callee.object, 'Object') && propertyName(callee) === 'assign'
}
