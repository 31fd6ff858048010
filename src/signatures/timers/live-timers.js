// Live timers as the heap holds them. Node links each Timeout (and Immediate) that has not fired
// or been cleared into a list, a ring linked both ways (`timerListMap[ms]` → TimersList ⇄ Timeout
// ⇄ Timeout ...), and marks the ones that fired or were cleared `_destroyed`. A live timer is an
// object of class Timeout or Immediate that is not `_destroyed` and has a callback; timers are
// counted by the location of that callback.

import { classMask, membersOf } from '../../query/class-members.js'
import { oddballValue, unwrapBound } from '../../query/heap-values.js'
import { propertyTarget, reference, retainers } from '../../query/references.js'
import { locationKey } from '../program-location.js'
import { readableFunctionName, sourceLocation } from '../source-location.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {SourceLocation} from '../finding.js' */

/** Timer classes and the property holding their callback (lib/internal/timers.js). */
export const TIMER_CALLBACKS = new Map([['Timeout', '_onTimeout'], ['Immediate', '_onImmediate']])
/** Steps walked along a timer list to find its TimersList head. */
const MAX_LIST_WALK = 1 << 22

/**
 * @typedef {object} TimerTally
 * @property {number} count      live timers with this callback location
 * @property {number} intervals  of them, repeating (setInterval)
 * @property {number} retained   bytes the timers retain, summed
 * @property {SourceLocation | null} location
 * @property {string} fn         the callback's name, '' when anonymous
 * @property {number[]} timers   ordinals (kept for the last snapshot only)
 */

/**
 * Live timers of one snapshot by the location of their callback.
 * @param {HeapAnalysis} analysis
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {boolean} keepOrdinals
 * @returns {Map<string, TimerTally>}
 */
export function tallyTimers (analysis, cwd, names, keepOrdinals) {
  const { graph, classOf, retainedSizes, locations } = analysis
  const callbackOfClass = analysis.classes.names.map((name) => TIMER_CALLBACKS.get(name) ?? null)
  const timerClasses = classMask(analysis, (name) => TIMER_CALLBACKS.has(name))
  /** @type {Map<string, TimerTally>} */
  const byKey = new Map()
  // Thousands of timers run a few functions: where each is, and its key, found once per function
  // (the SharedFunctionInfo every closure of it shares).
  /** @type {Map<number, {location: SourceLocation | null, name: string, key: string}>} */
  const byFunction = new Map()
  for (const o of membersOf(analysis, timerClasses)) {
    const callbackName = /** @type {string} */ (callbackOfClass[classOf[o]])
    if (graph.nodeTypes[o] !== graph.nodeType.object) continue
    // Cleared and fired one-shot timers are marked destroyed; the lists no longer hold them.
    if (oddballValue(graph, propertyTarget(graph, o, '_destroyed')) !== 'false') continue
    const callback = propertyTarget(graph, o, callbackName)
    if (callback < 0 || graph.nodeTypes[callback] !== graph.nodeType.closure) continue
    const fn = unwrapBound(graph, callback)
    const shared = reference(graph, fn, 'shared', 'internal')
    let where = shared < 0 ? undefined : byFunction.get(shared)
    if (where === undefined) {
      const location = sourceLocation(analysis, fn, cwd, names)
      const name = readableFunctionName(locations.functionName(fn))
      where = { location, name, key: location === null ? `function ${name}` : locationKey(location) }
      if (shared >= 0) byFunction.set(shared, where)
    }
    const { location, name, key } = where
    // A socket's idle timeout is Node's own function run for the socket: the open connection is
    // what piles up (retained-sockets counts those), not a timer the program started.
    if (location !== null && location.file.startsWith('node:') && isSocketTimeout(analysis, o, callback)) continue
    let tally = byKey.get(key)
    if (!tally) byKey.set(key, (tally = { count: 0, intervals: 0, retained: 0, location, fn: name, timers: [] }))
    tally.count++
    tally.retained += retainedSizes.at(o)
    // `_repeat` is null for a timeout and the interval in ms (a Smi, no edge) for an interval.
    const repeat = oddballValue(graph, propertyTarget(graph, o, '_repeat'))
    if (callbackName === '_onTimeout' && repeat !== 'null' && repeat !== 'undefined') tally.intervals++
    if (keepOrdinals) tally.timers.push(o)
  }
  return byKey
}

/**
 * Whether a timer runs its callback for a socket: bound to it (`socket._onTimeout.bind(socket)`,
 * Node 20 and 22) or given it as the timer's first argument (`onStreamTimeout` with the socket in
 * `_timerArgs`, Node 24).
 * @param {HeapAnalysis} analysis
 * @param {number} timer
 * @param {number} callback
 */
function isSocketTimeout (analysis, timer, callback) {
  const { graph } = analysis
  if (isSocket(analysis, propertyTarget(graph, callback, 'bound_this'))) return true
  const args = propertyTarget(graph, timer, '_timerArgs')
  if (args < 0 || graph.nodeName(args) !== 'Array') return false
  return isSocket(analysis, reference(graph, args, 0, 'element'))
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 */
function isSocket (analysis, ordinal) {
  if (ordinal < 0) return false
  const name = analysis.classes.names[analysis.classOf[ordinal]]
  return (name === 'Socket' || name === 'TLSSocket') && propertyTarget(analysis.graph, ordinal, '_readableState') >= 0
}

/**
 * The head of the list a timer is linked into (a TimersList or ImmediateList), or -1.
 * @param {HeapAnalysis} analysis
 * @param {number} timer
 */
export function timerList (analysis, timer) {
  const { graph, classOf } = analysis
  const timerClass = classOf[timer]
  let current = timer
  for (let step = 0; step < MAX_LIST_WALK; step++) {
    const next = propertyTarget(graph, current, '_idleNext')
    if (next < 0 || next === timer || graph.nodeTypes[next] !== graph.nodeType.object) return -1
    if (classOf[next] !== timerClass) return next
    current = next
  }
  return -1
}

/**
 * The delay of a TimersList: its key in `timerListMap`, an element edge from a non-array object.
 * @param {HeapAnalysis} analysis
 * @param {number} list
 * @returns {number | null}
 */
export function listDuration (analysis, list) {
  const { graph } = analysis
  for (const edge = retainers(graph, list); edge.next();) {
    const source = edge.source
    if (edge.is('element') && graph.nodeTypes[source] === graph.nodeType.object && graph.nodeName(source) !== 'Array') return edge.index
  }
  return null
}
