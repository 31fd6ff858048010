// Calls in a stretch of code: the call of a named function or class in the function a stack
// frame is in (the frame's calling line), and the method calls on a line with the call each is
// an argument of.
import { calleeName, lowerBound, propertyName } from './syntax-nodes.js'
/** @import {Node} from 'acorn' */

/**
 * The first call of one of `names` in [start, end) (ScriptSyntax#callIn), or -1.
 * @param {Node[]} calls  CallExpression, NewExpression and ImportExpression nodes, by start
 * @param {number} start
 * @param {number} end
 * @param {string[]} names
 * @param {boolean} constructs
 */
export function firstCallOf (calls, start, end, names, constructs) {
  const wanted = new Set(names)
  let best = -1
  for (let i = lowerBound(calls, start); i < calls.length && calls[i].start < end; i++) {
    const call = /** @type {any} */ (calls[i])
    if (call.type === 'ImportExpression' || (constructs && call.type !== 'NewExpression')) continue
    const callee = call.callee
    const name = constructs ? (callee.type === 'Identifier' ? callee.name : null) : calleeName(callee)
    if (name === null || !wanted.has(name)) continue
    const at = constructs ? call.start : callee.type === 'MemberExpression' ? callee.property.start : callee.start
    if (best < 0 || at < best) best = at
  }
  return best
}

/**
 * The calls of `methods` that start in [from, to) (ScriptSyntax#methodCallsIn).
 * @param {Node[]} calls  as for firstCallOf
 * @param {Array<Node | undefined>} parents  the parent of each of `calls`
 * @param {number} from
 * @param {number} to
 * @param {Set<string>} methods
 * @returns {Array<{start: number, end: number, argumentOf: string | null}>}
 */
export function methodCallsBetween (calls, parents, from, to, methods) {
  const found = []
  for (let i = lowerBound(calls, from); i < calls.length && calls[i].start < to; i++) {
    const call = /** @type {any} */ (calls[i])
    if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || !methods.has(propertyName(call.callee) ?? '')) continue
    const parent = /** @type {any} */ (parents[i])
    const outer = (parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.arguments.includes(call) ? parent : null
    const name = outer === null ? null : calleeName(outer.callee)
    found.push({ start: call.start, end: call.end, argumentOf: name === null ? null : outer.type === 'NewExpression' ? `new ${name}` : name })
  }
  return found
}
