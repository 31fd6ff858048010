// What the new listeners' scopes say: the per-request emitter they close over and the event that
// ends its work (what the fix waits for), what their shared scopes buffer, and a function in them
// that would end the subscription.

import { shownEdgeName } from '../../analysis/shown-names.js'
import { AGE_OLD } from '../../query/ages.js'
import { EdgeCursor, propertyTarget } from '../../query/references.js'
import { unwrapBound } from '../../query/heap-values.js'
import { measureList } from './listener-lists.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {ListenerList} from './listener-lists.js' */

/** Events that end the work of a per-request emitter, in the order a fix prefers them. */
const ENDING_EVENTS = ['close', 'disconnect']
/** New listeners looked at for the emitter they close over. */
const ENDING_SAMPLE = 50

/**
 * The per-request emitter the new listeners close over (a response, a socket, a socket.io
 * connection) and the event that ends its work: the fix removes the listener on that event. A
 * variable counts when at least half of the sampled listeners hold a new emitter under that name;
 * its event is the first of ENDING_EVENTS the emitter already has listeners for (socket.io's Socket
 * has the program's 'disconnect' handler), else 'close'. Null when they capture none: the fix then
 * says `res`, the common case.
 * @param {HeapAnalysis} analysis
 * @param {number[]} fresh  new listener functions
 * @param {Uint8Array} ages
 * @param {NameResolver} names
 * @param {number} [skipClass]  the class of the library object that made the listeners: it is what
 *   the fix closes, not what ends the work
 * @returns {{variable: string, event: string} | null}
 */
export function endOfWork (analysis, fresh, ages, names, skipClass = -1) {
  const { graph } = analysis
  const sample = fresh.slice(-ENDING_SAMPLE)
  /** @type {Map<string, {count: number, emitter: number}>} */
  const byName = new Map()
  const edge = new EdgeCursor(graph)
  for (const fn of sample) {
    const context = propertyTarget(graph, unwrapBound(graph, fn), 'context')
    if (context < 0) continue
    for (edge.references(context); edge.next();) {
      if (!edge.is('context')) continue
      const value = edge.target
      if (ages[value] === AGE_OLD || analysis.classOf[value] === skipClass || propertyTarget(graph, value, '_events') < 0) continue
      const name = shownEdgeName(analysis, edge.number, names)
      const entry = byName.get(name) ?? { count: 0, emitter: value }
      entry.count++
      byName.set(name, entry)
    }
  }
  // Between a request and its response, both held by every listener, the response's 'close' is
  // the end of the exchange.
  const rank = (/** @type {{count: number, emitter: number}} */ entry) => 2 * entry.count + (analysis.classes.names[analysis.classOf[entry.emitter]] === 'ServerResponse' ? 1 : 0)
  /** @type {{name: string, count: number, emitter: number} | null} */
  let best = null
  for (const [name, entry] of byName) {
    if (entry.count * 2 >= sample.length && /^[A-Za-z_$][\w$]*$/.test(name) && (best === null || rank(entry) > rank(best))) best = { name, ...entry }
  }
  if (best === null) return null
  const events = propertyTarget(graph, best.emitter, '_events')
  return { variable: best.name, event: ENDING_EVENTS.find((event) => propertyTarget(graph, events, event) >= 0) ?? 'close' }
}

/**
 * What the listeners' shared scopes keep that grows the most (an iterator's queue of events
 * nobody reads), summed over the scopes of every snapshot; null when nothing in them grows.
 * @param {HeapAnalysis[]} analyses
 * @param {ListenerList[]} lists
 * @param {NameResolver} names
 * @returns {{variable: string, className: string, retained: number[]} | null}
 */
export function bufferedGrowth (analyses, lists, names) {
  /** @type {Map<string, {className: string, retained: number[]}>} */
  const byName = new Map()
  analyses.forEach((analysis, i) => {
    const { graph, dominators, retainedSizes } = analysis
    const edge = new EdgeCursor(graph)
    for (const list of lists) {
      for (const scope of measureList(analysis, list).scopes) {
        for (edge.references(scope); edge.next();) {
          const value = edge.target
          if (!edge.is('context') || dominators[value] !== scope) continue
          const name = shownEdgeName(analysis, edge.number, names)
          const entry = byName.get(name) ?? { className: '', retained: analyses.map(() => 0) }
          entry.retained[i] += retainedSizes.at(value)
          if (i === analyses.length - 1) entry.className = analysis.classes.names[analysis.classOf[value]]
          byName.set(name, entry)
        }
      }
    }
  })
  let best = null
  for (const [variable, entry] of byName) {
    const growth = entry.retained[entry.retained.length - 1] - entry.retained[0]
    if (growth > 0 && /^[A-Za-z_$][\w$]*$/.test(variable) && (best === null || growth > best.retained[best.retained.length - 1] - best.retained[0])) best = { variable, ...entry }
  }
  return best
}

/** Names of the functions that end an iterator or a subscription from inside its own scope. */
const CLOSER = /^(?:close|return|end|finish|stop|dispose|cancel|unsubscribe|remove)[A-Z]?\w*$/

/**
 * The name of a function that at least half of the scopes hold and whose name says it ends the
 * work they serve (`closeHandler`, `removeAll`), or null.
 * @param {HeapAnalysis} analysis
 * @param {number[]} scopes
 * @param {NameResolver} names
 * @returns {string | null}
 */
export function closerIn (analysis, scopes, names) {
  const { graph } = analysis
  /** @type {Map<string, number>} */
  const counts = new Map()
  const edge = new EdgeCursor(graph)
  for (const scope of scopes.slice(-ENDING_SAMPLE)) {
    for (edge.references(scope); edge.next();) {
      if (!edge.is('context') || graph.nodeTypes[edge.target] !== graph.nodeType.closure) continue
      const name = shownEdgeName(analysis, edge.number, names)
      if (CLOSER.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1)
    }
  }
  const sampled = Math.min(scopes.length, ENDING_SAMPLE)
  let best = null
  for (const [name, count] of counts) if (count * 2 >= sampled && (best === null || count > best.count)) best = { name, count }
  return best?.name ?? null
}
