// When the code that subscribes is a library's own (readline's `onerror`, a stream's `pipe()`
// handler), the program never wrote the listener and cannot remove it: it made an object of that
// library per request and never closed it, and the object's subscription on a long-lived emitter
// is what stays. The listener's closure (or a bound function's `this`) holds that object; the heap
// shows its class and the method that ends it.

import { AGE_OLD } from '../query/ages.js'
import { CLOSE_METHODS, methodNames, nearestMethod } from '../query/heap-methods.js'
import { EdgeCursor, propertyTarget, referencedNodes } from '../query/references.js'
import { unwrapBound } from '../query/heap-values.js'
import { constructorOf, packageOf } from './library-handle.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */

// The name a fix's snippet gives such an object is a word of the cards: unbounded-collection.js
// takes it from here.

/** Methods that end an object's work, most specific first: a client's, a stream's, an iterator's. */
// shutdown() first: an object that offers it beside close() may mean something else by close() (a
// circuit breaker's close() closes the circuit).
export const END_METHODS = ['shutdown', ...CLOSE_METHODS, 'return', 'dispose', 'unsubscribe', 'stop', 'cancel', 'abort']
/** New listeners looked at for the object they close over. */
const SAMPLE = 50
/**
 * The objects a request is served with: they end with the request, and closing them is not the fix
 * even when a library's listener holds one.
 */
const EXCHANGE_CLASSES = new Set(['IncomingMessage', 'ServerResponse', 'Socket', 'TLSSocket', 'ClientRequest'])

/**
 * @typedef {object} UnclosedMaker
 * @property {string} className  the class of the objects left open (`Interface`)
 * @property {string} from       where the class comes from: a package (`winston`) or Node's module
 *                               (`node:internal/readline/interface`)
 * @property {string} method     the method that ends one (`close`)
 * @property {number} classIndex their class in the analysis' class table
 * @property {number} object     one of them (last snapshot)
 * @property {number} count      sampled listeners that hold such a new object
 * @property {number} sampled
 */

/**
 * The library object the new listeners belong to: the class of new objects held by at least half
 * of the sampled listeners (through their closure's scope or a bound `this`) that offers a method
 * ending its work, or null. Only asked when the listeners are library or Node code.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {number[]} fresh  new listener functions
 * @param {Uint8Array} ages
 * @param {number} emitter  the object the listeners are added to: not a candidate
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {UnclosedMaker | null}
 */
export function unclosedMaker (analysis, fresh, ages, emitter, cwd, names) {
  const { graph } = analysis
  const sample = fresh.slice(-SAMPLE)
  /** @type {Map<number, {count: number, object: number}>} few entries: one per class held */
  const byClass = new Map()
  for (const fn of sample) {
    const seen = new Set()
    for (const value of heldBy(analysis, fn)) {
      if (value === emitter || ages[value] === AGE_OLD || graph.nodeTypes[value] !== graph.nodeType.object) continue
      const cls = analysis.classOf[value]
      if (seen.has(cls)) continue
      seen.add(cls)
      const entry = byClass.get(cls) ?? { count: 0, object: value }
      entry.count++
      byClass.set(cls, entry)
    }
  }
  /** @type {UnclosedMaker | null} */
  let best = null
  for (const [cls, entry] of byClass) {
    if (entry.count * 2 < sample.length || (best !== null && entry.count <= best.count)) continue
    const className = analysis.classes.names[cls]
    if (EXCHANGE_CLASSES.has(className)) continue
    const method = nearestMethod(graph, entry.object, END_METHODS)
    if (method === null) continue
    const made = constructorOf(analysis, entry.object, cwd, names)
    const file = made.location?.file ?? ''
    const from = packageOf(file) ?? (file.startsWith('node:') ? file : null)
    if (from === null) continue
    best = { className: made.name, from, method, classIndex: cls, object: entry.object, count: entry.count, sampled: sample.length }
  }
  return best
}

/** Methods of a holder that take back an object it was given, besides `remove<Class>`. */
const TAKE_BACK_METHODS = ['remove', 'detach', 'unregister', 'unpipe']
/** The method that gave the object, for each way of taking it back. */
const GIVE_METHODS = /** @type {Record<string, string>} */ ({ remove: 'add', detach: 'attach', unregister: 'register', unpipe: 'pipe' })
/** Steps from the emitter to the list where it keeps what it was given (`_readableState.pipes[i]`). */
const MAX_HOLD_DEPTH = 3
const MAX_HOLD_NODES = 2000

/**
 * The method of the emitter that takes one made object back, when the emitter keeps the object
 * itself (in its own fields, not only through the listener): winston's `logger.add(transport)`
 * pipes into the transport and `logger.remove(transport)` unpipes it. Null when the emitter does
 * not hold the object or offers no such method: a readline Interface reads from its input, which
 * never heard of it, so only the Interface's close() ends it.
 * @param {HeapAnalysis} analysis
 * @param {number} emitter
 * @param {UnclosedMaker} maker
 * @returns {{take: string, give: string | null} | null} the method taking one back, and the one
 *   that gives one when the emitter offers it too
 */
export function takeBackMethod (analysis, emitter, maker) {
  const { graph } = analysis
  if (graph.nodeTypes[emitter] !== graph.nodeType.object || !holds(analysis, emitter, maker.object)) return null
  const methods = methodNames(graph, emitter)
  const own = `remove${maker.className}`
  const take = methods.has(own) ? own : TAKE_BACK_METHODS.find((name) => methods.has(name))
  if (take === undefined) return null
  const give = take === own ? `add${maker.className}` : GIVE_METHODS[take]
  return { take, give: methods.has(give) ? give : null }
}

/**
 * Whether `target` is reachable from `holder` within a few property, element or internal steps
 * that do not go through its listeners (`_events`) or prototypes.
 * @param {HeapAnalysis} analysis
 * @param {number} holder
 * @param {number} target
 */
function holds (analysis, holder, target) {
  const { graph } = analysis
  const skip = new Set(['_events', '__proto__', 'map', 'constructor'].map((name) => graph.strings.indexOf(name)))
  const seen = new Set([holder])
  const edge = new EdgeCursor(graph)
  let level = [holder]
  for (let depth = 1; depth <= MAX_HOLD_DEPTH && level.length > 0; depth++) {
    /** @type {number[]} */
    const next = []
    for (const o of level) {
      for (edge.references(o); seen.size < MAX_HOLD_NODES && edge.next();) {
        const named = edge.is('property') || edge.is('internal')
        if ((!named && !edge.is('element')) || (named && skip.has(edge.nameIndex))) continue
        const to = edge.target
        if (to === target) return true
        if (seen.has(to) || graph.nodeTypes[to] !== graph.nodeType.object) continue
        seen.add(to)
        next.push(to)
      }
    }
    level = next
  }
  return false
}

/**
 * The values a function holds: its scope's variables and, for a bound function, its `this` and the
 * arguments bound with it (rxjs runs an interval as its scheduler's `flush` bound to the action).
 * @param {HeapAnalysis} analysis
 * @param {number} fn
 * @returns {number[]}
 */
export function heldBy (analysis, fn) {
  const { graph } = analysis
  const values = []
  const boundThis = propertyTarget(graph, fn, 'bound_this')
  if (boundThis >= 0) {
    values.push(boundThis)
    for (const edge = new EdgeCursor(graph).references(fn); edge.next();) if (edge.name.startsWith('bound_argument_')) values.push(edge.target)
  }
  const context = propertyTarget(graph, unwrapBound(graph, fn), 'context')
  if (context >= 0) values.push(...referencedNodes(graph, context, 'context'))
  return values
}
