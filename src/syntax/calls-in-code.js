// Calls in a stretch of code: the call of a named function or class in the function a stack
// frame is in (the frame's calling line), the method calls on a line with the call each is
// an argument of, and the parts of the call at a position (what it is called on, its arguments,
// the variable it is assigned to).
import { calleeName, lowerBound, propertyName } from './syntax-nodes.js'
/** @import {Node} from 'acorn' */

/**
 * The calls of one of `names` in [start, end) (ScriptSyntax#callIn), in text order: where each
 * call's name starts (`new`'s for a construction).
 * @param {Node[]} calls  CallExpression, NewExpression and ImportExpression nodes, by start
 * @param {number} start
 * @param {number} end
 * @param {string[]} names
 * @param {boolean} constructs
 * @returns {number[]}
 */
export function callsOf (calls, start, end, names, constructs) {
  const wanted = new Set(names)
  /** @type {number[]} */
  const found = []
  for (let i = lowerBound(calls, start); i < calls.length && calls[i].start < end; i++) {
    const call = /** @type {any} */ (calls[i])
    if (call.type === 'ImportExpression' || (constructs && call.type !== 'NewExpression')) continue
    const callee = call.callee
    const name = constructs ? (callee.type === 'Identifier' ? callee.name : null) : calleeName(callee)
    if (name === null || !wanted.has(name)) continue
    found.push(constructs ? call.start : callee.type === 'MemberExpression' ? callee.property.start : callee.start)
  }
  return found.sort((a, b) => a - b)
}

/**
 * The calls of `methods` that start in [from, to) (ScriptSyntax#methodCallsIn).
 * @param {Node[]} calls  as for callsOf
 * @param {Array<Node | undefined>} parents  the parent of each of `calls`
 * @param {number} from
 * @param {number} to
 * @param {Set<string>} methods
 * @returns {Array<{start: number, end: number, at: number, receiver: {start: number, end: number}, argumentOf: string | null}>}
 *   at: where the method's name starts (where V8 places the call); receiver: what it is called on
 */
export function methodCallsBetween (calls, parents, from, to, methods) {
  const found = []
  for (let i = lowerBound(calls, from); i < calls.length && calls[i].start < to; i++) {
    const call = /** @type {any} */ (calls[i])
    if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || !methods.has(propertyName(call.callee) ?? '')) continue
    const parent = /** @type {any} */ (parents[i])
    const outer = (parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.arguments.includes(call) ? parent : null
    const name = outer === null ? null : calleeName(outer.callee)
    found.push({ start: call.start, end: call.end, at: call.callee.property.start, receiver: { start: call.callee.object.start, end: call.callee.object.end }, argumentOf: name === null ? null : outer.type === 'NewExpression' ? `new ${name}` : name })
  }
  return found
}

/**
 * The parts of a call as written (ScriptSyntax#callAt).
 * @typedef {object} CallParts
 * @property {number} start
 * @property {number} end
 * @property {string} name         the function's or method's own name (`add` of `winston.loggers.add(`)
 * @property {string | null} receiver  what a method is called on (`winston.loggers`), null for a plain call
 * @property {boolean} constructs  a `new` expression
 * @property {string[]} args       the arguments as written
 * @property {string | null} assignedTo  the variable the call's value is declared as or assigned to (`log`)
 */

/**
 * The call whose name (a method's property, a function's or a class's identifier) or `new` starts
 * at `offset`, as callsOf gives it and as a profile's call column points at, or null.
 * @param {Node[]} calls  as for callsOf
 * @param {Array<Node | undefined>} parents  the parent of each of `calls`
 * @param {number} offset
 * @param {string} text  the script's
 * @returns {CallParts | null}
 */
export function callAt (calls, parents, offset, text) {
  // The call starts at or before its name: look back from the first call that starts after it.
  for (let i = lowerBound(calls, offset + 1) - 1; i >= 0; i--) {
    const call = /** @type {any} */ (calls[i])
    if (call.end <= offset || call.type === 'ImportExpression') continue
    const callee = call.callee
    const member = callee.type === 'MemberExpression'
    const at = member ? callee.property.start : callee.start
    // A profile's call column points at a construction's class name; callIn gives its `new`.
    if (at !== offset && !(call.type === 'NewExpression' && call.start === offset)) continue
    const name = calleeName(callee)
    if (name === null) return null
    const parent = /** @type {any} */ (parents[i])
    const assignedTo = parent?.type === 'VariableDeclarator' && parent.init === call && parent.id.type === 'Identifier'
      ? parent.id.name
      : parent?.type === 'AssignmentExpression' && parent.right === call && parent.left.type === 'Identifier' ? parent.left.name : null
    return {
      start: call.start,
      end: call.end,
      name,
      receiver: member && call.type === 'CallExpression' ? text.slice(callee.object.start, callee.object.end) : null,
      constructs: call.type === 'NewExpression',
      args: call.arguments.map((/** @type {any} */ argument) => text.slice(argument.start, argument.end)),
      assignedTo
    }
  }
  return null
}
