// The async resources that keep AsyncLocalStorage stores alive: their classes, and the program code
// that created them, as far as the heap tells it (a timer's callback, the async function awaiting
// a promise, a reaction's handlers).

import { propertyTarget, references, retainers } from '../../query/references.js'
import { unwrapBound } from '../../query/heap-values.js'
import { isProgramLocation, mostCommonLocation } from '../program-location.js'
import { sourceLocation } from '../source-location.js'
import { TIMER_CALLBACKS } from '../timers/live-timers.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {SourceLocation} from '../finding.js' */

/** Retainers of a resource looked at for the code that created it. */
const MAX_HOLDERS = 8

/**
 * @param {HeapAnalysis} analysis
 * @param {number[]} ordinals
 * @returns {Array<{name: string, count: number}>} the three most common classes
 */
export function classCounts (analysis, ordinals) {
  /** @type {Map<string, number>} */
  const counts = new Map()
  const { graph } = analysis
  for (const o of ordinals) {
    // Engine objects (a promise reaction) share the class `(system)`: their own name says more.
    const name = graph.nodeTypes[o] === graph.nodeType.hidden ? graph.nodeName(o).replace(/^system \/ /, '') : analysis.classes.names[analysis.classOf[o]]
    counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, count]) => ({ name, count }))
}

/**
 * The program location most resources trace back to, with its share of the located ones.
 * @param {HeapAnalysis} analysis
 * @param {number[]} resources
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, locationShare: number}}
 */
export function creatorLocation (analysis, resources, cwd, names) {
  const best = mostCommonLocation(function * () {
    for (const resource of resources) {
      const location = resourceLocation(analysis, resource, cwd, names)
      if (location !== null) yield { location, count: 1 }
    }
  }())
  return best === null ? { location: null, locationShare: 0 } : { location: best.location, locationShare: best.count / best.total }
}

/**
 * The program code behind one resource, when the heap knows it: a timer's callback; for a promise,
 * the async function that awaits it or created it (its suspended generator object names it), or a
 * program handler of the reaction that holds it; for a reaction, its own handlers.
 * @param {HeapAnalysis} analysis
 * @param {number} resource
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {SourceLocation | null}
 */
function resourceLocation (analysis, resource, cwd, names) {
  const { graph } = analysis
  const callbackName = TIMER_CALLBACKS.get(analysis.classes.names[analysis.classOf[resource]])
  if (callbackName !== undefined) {
    const callback = propertyTarget(graph, resource, callbackName)
    const location = callback >= 0 && graph.nodeTypes[callback] === graph.nodeType.closure ? sourceLocation(analysis, unwrapBound(graph, callback), cwd, names) : null
    if (isProgramLocation(location)) return location
  }
  const holders = [resource]
  for (const edge = retainers(graph, resource); holders.length <= MAX_HOLDERS && edge.next();) holders.push(edge.source)
  for (const holder of holders) {
    const own = holder === resource ? null : functionOf(analysis, holder, cwd, names)
    if (own !== null) return own
    // A reaction holds the promise it settles next to its handlers.
    for (const edge = references(graph, holder); edge.next();) {
      const target = edge.target
      if (graph.nodeTypes[target] !== graph.nodeType.closure) continue
      const fn = unwrapBound(graph, target)
      const location = sourceLocation(analysis, fn, cwd, names)
      if (isProgramLocation(location)) return location
      const context = propertyTarget(graph, fn, 'context')
      const inContext = context < 0 ? null : suspendedFunctionIn(analysis, context, cwd, names)
      if (inContext !== null) return inContext
    }
  }
  return null
}

/**
 * The program function a suspended async function or generator object runs, or null.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {string} cwd
 * @param {NameResolver} names
 */
function functionOf (analysis, o, cwd, names) {
  const { graph } = analysis
  if (graph.nodeTypes[o] !== graph.nodeType.object) return null
  const fn = propertyTarget(graph, o, 'function')
  if (fn < 0 || graph.nodeTypes[fn] !== graph.nodeType.closure) return null
  const location = sourceLocation(analysis, fn, cwd, names)
  return isProgramLocation(location) ? location : null
}

/**
 * The suspended async function a built-in `await` handler's scope holds, located; or null.
 * @param {HeapAnalysis} analysis
 * @param {number} context
 * @param {string} cwd
 * @param {NameResolver} names
 */
function suspendedFunctionIn (analysis, context, cwd, names) {
  const { graph } = analysis
  for (const edge = references(graph, context); edge.next();) {
    const location = functionOf(analysis, edge.target, cwd, names)
    if (location !== null) return location
  }
  return null
}
