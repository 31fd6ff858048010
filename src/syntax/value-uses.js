// Where a value is used, and how: handed to a call, a method called on it, read.
import { calleeName, propertyName } from './syntax-nodes.js'
/** @import {Occurrence} from './occurrences.js' */

/**
 * Where a value is used, and how.
 * @typedef {object} Use
 * @property {number} offset  the variable's start, or the start of the member expression ending in the property
 * @property {{callee: string, argument: number, iterated: boolean} | null} call  set when the value is
 *   an argument of a call: the callee's name (a method's own name for `a.on(...)`), which argument
 *   (0-based), and whether a `for ... of` loops over what the call returns
 * @property {string | null} method  the method called on the value (`value.on(...)`), or null
 */

/**
 * The uses among the occurrences of a value (ScriptSyntax#usesOf).
 * @param {Occurrence[]} occurrences  of the value's variable or property
 * @returns {Use[]} ascending by offset
 */
export function valueUses (occurrences) {
  /** @type {Use[]} */
  const uses = []
  for (const { node, parent, grand, declares } of occurrences) {
    const p = /** @type {any} */ (parent)
    const g = /** @type {any} */ (grand)
    if (declares || (p?.type === 'AssignmentExpression' && p.left === node && p.operator === '=')) continue
    const argument = (p?.type === 'CallExpression' || p?.type === 'NewExpression') ? p.arguments.indexOf(node) : -1
    const call = argument < 0
      ? null
      : { callee: calleeName(p.callee) ?? '', argument, iterated: g?.type === 'ForOfStatement' && g.right === p }
    const calls = p?.type === 'MemberExpression' && p.object === node && !p.computed && g?.type === 'CallExpression' && g.callee === p
    uses.push({ offset: node.start, call, method: calls ? propertyName(p) : null })
  }
  return uses.sort((a, b) => a.offset - b.offset)
}
