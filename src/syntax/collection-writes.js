// The statements that add entries to a collection, found in the syntax tree rather than in the
// text, so that comments, strings, regular expressions and other names never count; and the parts
// of one of them (the key and the value as written), for a fix written in the program's own terms.
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

/**
 * The parts of a write (ScriptSyntax#writeAt).
 * @typedef {object} WriteParts
 * @property {number} start   the write expression's start (the collection's)
 * @property {number} end
 * @property {string} target  the collection as written (`tokens`, `this.#byUrl`)
 * @property {string | null} method  `set`, `add`, `push`, ...; null for a store through a key
 * @property {string | null} key    the key as written (`id`), null when the write has none
 * @property {string | null} value  the value as written (`body.subarray(0, 16)`)
 * @property {number} valueStart  where the value starts, -1 when it has none
 */

/**
 * The write among the occurrences of a collection that starts at `offset`, or null.
 * @param {Occurrence[]} occurrences  of the collection's variable or property
 * @param {number} offset  as ScriptSyntax#writesTo gives it
 * @param {string} text    the script's
 * @returns {WriteParts | null}
 */
export function writeParts (occurrences, offset, text) {
  const span = (/** @type {any} */ node) => node === undefined ? null : text.slice(node.start, node.end)
  for (const { node, parent, grand } of occurrences) {
    if (node.start !== offset || parent?.type !== 'MemberExpression' || /** @type {any} */ (parent).object !== node) continue
    const p = /** @type {any} */ (parent)
    const g = /** @type {any} */ (grand)
    const target = text.slice(node.start, node.end)
    if (!p.computed && g?.type === 'CallExpression' && g.callee === p) {
      const method = propertyName(p)
      const [first, second] = g.arguments
      const keyed = method === 'set'
      const value = keyed ? second : first
      return { start: node.start, end: g.end, target, method, key: keyed ? span(first) : null, value: span(value), valueStart: value === undefined ? -1 : value.start }
    }
    if (p.computed && g?.type === 'AssignmentExpression' && g.left === p) {
      return { start: node.start, end: g.end, target, method: null, key: span(p.property), value: span(g.right), valueStart: g.right.start }
    }
  }
  return null
}
