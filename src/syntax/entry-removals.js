// The statements that take an entry out of a collection (`name.delete(key)`, `delete name[key]`),
// and whether each runs on every path out of the code around it: in a `finally`, beside a twin in
// the `catch` of the `try` it is in, or in a callback that runs however the work ends (a promise's
// `.finally(`, a `'close'` listener, `finished(` / `onFinished(` of a stream or a response).
// A removal that is none of these runs only where the code reaches it: not after a throw, an
// early return or a rejected await before it.
import { calleeName, propertyName } from './syntax-nodes.js'
/** @import {Node} from 'acorn' */
/** @import {Occurrence} from './occurrences.js' */

/** Methods that take one entry out of the collection they are called on. */
const REMOVING_METHODS = new Set(['delete', 'remove'])
/** Calls whose callback runs on every way a piece of work ends. */
const EVERY_END_CALLS = new Set(['finally', 'finished', 'onFinished', 'eos'])
/** Events every way out of a request or a stream emits. */
const EVERY_END_EVENTS = new Set(['close'])
const LISTENING_METHODS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'])

/**
 * A statement that takes an entry out of a collection.
 * @typedef {object} EntryRemoval
 * @property {number} start   where the removal starts (the collection's name, or `delete`)
 * @property {number} end
 * @property {string | null} key  the key's text as written (`id`), null when it has none
 * @property {'finally' | 'catch and try' | 'callback' | null} everyPath  how it runs on every
 *   path out of the code around it; null when only some paths reach it
 */

/**
 * The removals among the occurrences of a collection (ScriptSyntax#removalsFrom).
 * @param {Occurrence[]} occurrences  of the collection's variable or property
 * @param {{tries: Node[], calls: Node[], text: string}} tree  the script's try statements and calls, by start
 * @returns {EntryRemoval[]} ascending by start
 */
export function entryRemovals (occurrences, { tries, calls, text }) {
  /** @type {Array<{start: number, end: number, key: string | null}>} */
  const found = []
  for (const { node, parent, grand } of occurrences) {
    const p = /** @type {any} */ (parent)
    const g = /** @type {any} */ (grand)
    if (p?.type !== 'MemberExpression' || p.object !== node) continue
    if (!p.computed && REMOVING_METHODS.has(propertyName(p) ?? '') && g?.type === 'CallExpression' && g.callee === p) {
      const key = g.arguments[0]
      found.push({ start: node.start, end: g.end, key: key === undefined ? null : text.slice(key.start, key.end) })
    } else if (p.computed && g?.type === 'UnaryExpression' && g.operator === 'delete') {
      found.push({ start: g.start, end: g.end, key: text.slice(p.property.start, p.property.end) })
    }
  }
  found.sort((a, b) => a.start - b.start)
  return found.map((removal) => ({ ...removal, everyPath: everyPath(removal, found, tries, calls) }))
}

/**
 * @param {{start: number, key: string | null}} removal
 * @param {Array<{start: number, key: string | null}>} all
 * @param {Node[]} tries
 * @param {Node[]} calls
 * @returns {EntryRemoval['everyPath']}
 */
function everyPath (removal, all, tries, calls) {
  const at = removal.start
  for (const node of tries) {
    const t = /** @type {any} */ (node)
    if (t.start > at) break
    if (t.finalizer !== null && inside(t.finalizer, at)) return 'finally'
    // The same entry taken out in the try and again in its catch: both ways out are covered.
    if (t.handler !== null && inside(t.block, at) && all.some((other) => other.key === removal.key && inside(t.handler, other.start))) return 'catch and try'
    if (t.handler !== null && inside(t.handler, at) && all.some((other) => other.key === removal.key && inside(t.block, other.start))) return 'catch and try'
  }
  for (const node of calls) {
    const call = /** @type {any} */ (node)
    if (call.start > at) break
    if (call.type !== 'CallExpression' || call.end < at) continue
    const name = calleeName(call.callee)
    const callback = call.arguments.find((/** @type {any} */ argument) => isFunction(argument) && inside(argument, at))
    if (callback === undefined || name === null) continue
    if (EVERY_END_CALLS.has(name)) return 'callback'
    const event = call.arguments[0]
    if (LISTENING_METHODS.has(name) && event?.type === 'Literal' && EVERY_END_EVENTS.has(event.value)) return 'callback'
  }
  return null
}

/**
 * @param {any} node
 * @param {number} offset
 */
function inside (node, offset) {
  return node.start <= offset && offset < node.end
}

/** @param {any} node */
function isFunction (node) {
  return node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression'
}
