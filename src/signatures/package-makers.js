// The package object behind functions a package keeps running or registered (its timers'
// callbacks, the listeners it adds), whose own method ends them: opossum's Status, made for each
// CircuitBreaker, with its shutdown(); chokidar's FSWatcher with its close(). The functions keep
// some inner part of it (the Status' window of statistics, the watcher's fs handler); the object
// is found by going up from what they keep, through objects made since the first snapshot, to the
// outermost one of the package that offers a method ending it. What the program made may be gone
// already (a breaker nothing holds, its Status kept by its own timers), so the object found is a
// clue to it, not always it. A package may hand out a function instead, made in the same call as
// the functions it keeps running and carrying the method that ends them (lodash's debounced
// function, with its `cancel()`).

import { AGE_OLD } from '../query/ages.js'
import { nearestMethod } from '../query/heap-methods.js'
import { unwrapBound } from '../query/heap-values.js'
import { EdgeCursor, propertyTarget } from '../query/references.js'
import { constructorOf, packageOf } from './library-handle.js'
import { readableFunctionName } from './source-location.js'
import { END_METHODS, heldBy } from './unclosed-makers.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */

/** Functions looked at. */
const SAMPLE = 50
/** Retainer steps up from what a function keeps, and nodes looked at per function. */
const MAX_DEPTH = 4
const MAX_NODES = 256

/**
 * @typedef {object} PackageMaker
 * @property {string} className  the class of the package's object made per call (`Status`)
 * @property {string} method     its method that ends it (`shutdown`)
 * @property {number} count      sampled functions under one of them
 * @property {number} sampled
 */

/**
 * The package class whose objects, made per call, the new functions run for, with the method
 * ending one; null when no such class is above at least half of the sampled functions.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {number[]} functions  new closures of the package (a timer's callback, a listener)
 * @param {Uint8Array} ages
 * @param {string} library  the package they are in
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {PackageMaker | null}
 */
export function packageMaker (analysis, functions, ages, library, cwd, names) {
  const { graph } = analysis
  const sample = functions.slice(-SAMPLE)
  /** @type {Map<number, {count: number, object: number}>} by class */
  const byClass = new Map()
  /** @type {Map<number, boolean>} whether an object is the package's and offers an end, by ordinal */
  const known = new Map()
  const qualifies = (/** @type {number} */ o) => {
    let yes = known.get(o)
    if (yes === undefined) {
      const made = constructorOf(analysis, o, cwd, names)
      // A function is asked for its own methods only when found as a timer's sibling (an express
      // app's own properties are its routes, `delete` among them).
      yes = made.location !== null && packageOf(made.location.file) === library && nearestMethod(graph, o, END_METHODS, { ownFunction: true }) !== null
      known.set(o, yes)
    }
    return yes
  }
  const edge = new EdgeCursor(graph)
  for (const fn of sample) {
    const seen = new Set([fn])
    let level = heldBy(analysis, fn).filter((o) => ages[o] !== AGE_OLD && !seen.has(o))
    let outermost = -1
    for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && seen.size < MAX_NODES; depth++) {
      /** @type {number[]} */
      const next = []
      for (const o of level) {
        seen.add(o)
        if (graph.nodeTypes[o] === graph.nodeType.object && qualifies(o)) outermost = o
        for (edge.retainers(o); edge.next();) {
          const up = edge.source
          if (seen.has(up) || ages[up] === AGE_OLD || edge.is('weak') || graph.nodeTypes[up] !== graph.nodeType.object) continue
          seen.add(up)
          next.push(up)
        }
      }
      level = next
    }
    if (outermost < 0) outermost = endingSibling(analysis, fn, ages, qualifies)
    if (outermost < 0) continue
    const cls = analysis.classOf[outermost]
    const entry = byClass.get(cls) ?? { count: 0, object: outermost }
    entry.count++
    byClass.set(cls, entry)
  }
  let best = null
  for (const [, entry] of byClass) if (entry.count * 2 >= sample.length && (best === null || entry.count > best.count)) best = entry
  if (best === null) return null
  const method = /** @type {string} */ (nearestMethod(graph, best.object, END_METHODS, { ownFunction: true }))
  // A function handed out is named as one (`function debounced`), not by its class, Function.
  const fnName = graph.nodeTypes[best.object] === graph.nodeType.closure ? readableFunctionName(analysis.locations.functionName(best.object)) : null
  const className = fnName === null ? constructorOf(analysis, best.object, cwd, names).name : fnName === '' ? 'function' : `function ${fnName}`
  return { className, method, count: best.count, sampled: sample.length }
}

/**
 * A new function made in the same call of the package as `fn` (it shares `fn`'s scope) that
 * qualifies as the package's handle, or -1.
 * @param {HeapAnalysis} analysis
 * @param {number} fn
 * @param {Uint8Array} ages
 * @param {(o: number) => boolean} qualifies
 */
function endingSibling (analysis, fn, ages, qualifies) {
  const { graph } = analysis
  const scope = propertyTarget(graph, unwrapBound(graph, fn), 'context')
  if (scope < 0) return -1
  for (const edge = new EdgeCursor(graph).retainers(scope); edge.next();) {
    const sibling = edge.source
    if (sibling !== fn && edge.is('internal', 'context') && graph.nodeTypes[sibling] === graph.nodeType.closure && ages[sibling] !== AGE_OLD && qualifies(sibling)) return sibling
  }
  return -1
}
