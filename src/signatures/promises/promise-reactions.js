// Pending promises and their reactions as the heap holds them. A pending promise's
// `reactions_or_result` is its newest PromiseReaction, linked to older ones through each
// reaction's `next` slot; a settled promise holds its result there instead. A reaction's handler is
// the program's own function for `.then(fn)`; for `await` it is a built-in whose scope holds the
// suspended async function, which the snapshot locates.

import { unwrapBound } from '../../query/heap-values.js'
import { findReference, propertyTarget, references, retainers } from '../../query/references.js'
import { packageOf } from '../library-handle.js'
import { isProgramLocation, mostCommonLocation } from '../program-location.js'
import { sourceLocation } from '../source-location.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {SourceLocation} from '../finding.js' */

const REACTION = 'system / PromiseReaction'
/** Reactions walked per promise at most. */
const MAX_CHAIN = 1 << 24
/** Fewer new reactions (or promises) than this is too little to call a leak. */
export const MIN_NEW_REACTIONS = 20
/** Handlers sampled per finding for its location. */
export const MAX_HANDLERS = 10_000

/**
 * A pending promise that something waits on: its reactions slot holds a PromiseReaction.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
export function isAwaitedPromise (analysis, o) {
  if (!isPromise(analysis, o)) return false
  const head = propertyTarget(analysis.graph, o, 'reactions_or_result')
  return head >= 0 && analysis.graph.nodeName(head) === REACTION
}

/**
 * The handler closures of one reaction (not of the reactions linked after it).
 * @param {HeapGraph} graph
 * @param {number} reaction
 * @param {number[]} handlers
 */
export function collectHandlers (graph, reaction, handlers) {
  for (const edge = references(graph, reaction); edge.next();) {
    if (graph.nodeTypes[edge.target] === graph.nodeType.closure) handlers.push(unwrapBound(graph, edge.target))
  }
}

/**
 * The pending promise with reactions that `ordinal` is, or whose reaction list it is part of; -1.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 */
export function pendingPromiseOf (analysis, ordinal) {
  const { graph } = analysis
  let current = ordinal
  // An old reaction of the list can be the owner when the promise itself is shared: climb to it.
  for (let step = 0; step < MAX_CHAIN && graph.nodeName(current) === REACTION; step++) {
    let up = -1
    for (const edge = retainers(graph, current); edge.next();) {
      const source = edge.source
      if (graph.nodeName(source) === REACTION || isPromise(analysis, source)) up = source
    }
    if (up < 0) return -1
    current = up
  }
  if (!isPromise(analysis, current)) return -1
  const head = propertyTarget(graph, current, 'reactions_or_result')
  return head >= 0 && graph.nodeName(head) === REACTION ? current : -1
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isPromise (analysis, o) {
  return analysis.graph.nodeTypes[o] === analysis.graph.nodeType.object && analysis.classes.names[analysis.classOf[o]] === 'Promise'
}

/**
 * Walks the reaction list of a pending promise, newest first; returns its length.
 * @param {HeapGraph} graph
 * @param {number} promise
 * @param {(reaction: number) => void} visit
 */
export function countReactions (graph, promise, visit) {
  let reaction = propertyTarget(graph, promise, 'reactions_or_result')
  let count = 0
  while (reaction >= 0 && graph.nodeName(reaction) === REACTION && count < MAX_CHAIN) {
    visit(reaction)
    count++
    // The `next` slot is the one edge to another reaction.
    const current = reaction
    reaction = findReference(graph, current, (edge) => edge.target !== current && graph.nodeName(edge.target) === REACTION)
  }
  return count
}

/**
 * Where a handler's code is: its own function, or for the built-in handlers of `await` the
 * suspended async function (a generator object) its scope holds.
 * @param {HeapAnalysis} analysis
 * @param {number} fn
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {SourceLocation | null}
 */
function handlerLocation (analysis, fn, cwd, names) {
  const own = sourceLocation(analysis, fn, cwd, names)
  if (isProgramLocation(own)) return own
  const { graph } = analysis
  const context = propertyTarget(graph, fn, 'context')
  if (context < 0) return null
  for (const edge = references(graph, context); edge.next();) {
    const target = edge.target
    if (graph.nodeTypes[target] !== graph.nodeType.object || graph.nodeName(target) === 'system / Context') continue
    // A suspended async function names its function; other objects name their constructor.
    const fn = propertyTarget(graph, target, 'function')
    const location = sourceLocation(analysis, fn >= 0 && graph.nodeTypes[fn] === graph.nodeType.closure ? fn : target, cwd, names)
    if (isProgramLocation(location)) return location
  }
  return null
}

/**
 * The program location most new handlers share.
 * @param {HeapAnalysis} analysis
 * @param {number[]} handlers
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, locationShare: number}}
 */
export function dominantHandler (analysis, handlers, cwd, names) {
  const located = handlers.map((fn) => handlerLocation(analysis, fn, cwd, names)).filter((location) => isProgramLocation(location))
  // The program's own handlers first: a package's are its machinery around the program's call.
  const own = located.filter((location) => packageOf(location.file) === null)
  const best = mostCommonLocation((own.length > 0 ? own : located).map((location) => ({ location, count: 1 })))
  return best === null ? { location: null, locationShare: 0 } : { location: best.location, locationShare: best.count / best.total }
}
