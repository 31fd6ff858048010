// What a list of handlers holds: the function each entry registers (a bare function, or the one a
// handler record holds: express's Layer `{handle}`, axios' `{fulfilled, rejected}`), where most of
// those functions come from, and what their scopes keep alive.

import { shownEdgeName } from '../../analysis/shown-names.js'
import { unwrapBound } from '../../query/heap-values.js'
import { EdgeCursor, propertyTarget, references } from '../../query/references.js'
import { isProgramLocation, mostCommonLocation } from '../program-location.js'
import { sourceLocation } from '../source-location.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {SourceLocation} from '../finding.js' */

/** Fields of middleware and interceptor records that hold the function called. The fields of
 * listener records (fn, listener, callback, handler) are listener-accumulation's. */
export const RECORD_FIELDS = /^(?:handle|fulfilled|rejected|middleware|hook)$/i
const TOP_VARIABLES = 3

/**
 * The function an array element registers: the element itself when it is a function, or the
 * function a handler record holds (its first field that is a function, preferring known names).
 * @param {HeapAnalysis} analysis
 * @param {number} element
 * @returns {{fn: number, field: string, fields: string[]} | null} field: '' for a bare function;
 *   fields: the record's fields that hold functions
 */
export function handlerOf (analysis, element) {
  const { graph } = analysis
  if (graph.nodeTypes[element] === graph.nodeType.closure) return { fn: unwrapBound(graph, element), field: '', fields: [] }
  if (graph.nodeTypes[element] !== graph.nodeType.object) return null
  /** @type {{fn: number, field: string} | null} */
  let chosen = null
  /** @type {string[]} */
  const fields = []
  for (const edge = references(graph, element); edge.next();) {
    const target = edge.target
    if (!edge.is('property') || graph.nodeTypes[target] !== graph.nodeType.closure) continue
    const field = edge.name
    if (field === 'constructor' || field === '__proto__') continue
    fields.push(field)
    if (chosen === null || (RECORD_FIELDS.test(field) && !RECORD_FIELDS.test(chosen.field))) chosen = { fn: unwrapBound(graph, target), field }
  }
  return chosen === null ? null : { ...chosen, fields }
}

/**
 * The program location most functions share, and how many share it.
 * @param {HeapAnalysis} analysis
 * @param {number[]} functions
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, fromLocation: number}}
 */
export function dominantLocation (analysis, functions, cwd, names) {
  /** @type {Map<number, {fn: number, count: number}>} by SharedFunctionInfo: one function's closures share it */
  const byShared = new Map()
  for (const fn of functions) {
    const shared = propertyTarget(analysis.graph, fn, 'shared')
    const key = shared < 0 ? fn : shared
    const tally = byShared.get(key)
    if (tally) tally.count++
    else byShared.set(key, { fn, count: 1 })
  }
  const best = mostCommonLocation(function * () {
    for (const { fn, count } of byShared.values()) {
      const location = sourceLocation(analysis, fn, cwd, names)
      if (isProgramLocation(location)) yield { location, count }
    }
  }())
  return best === null ? { location: null, fromLocation: 0 } : { location: best.location, fromLocation: best.count }
}

/**
 * The variables the functions' scopes keep alive on their own, summed over the functions.
 * @param {HeapAnalysis} analysis
 * @param {number[]} functions
 * @param {NameResolver} names
 * @returns {Array<{name: string, bytes: number}>}
 */
export function capturedVariables (analysis, functions, names) {
  const { graph, dominators, retainedSizes } = analysis
  /** @type {Map<string, number>} */
  const bytes = new Map()
  const seen = new Set()
  const edge = new EdgeCursor(graph)
  for (const fn of functions) {
    const context = propertyTarget(graph, fn, 'context')
    if (context < 0 || seen.has(context)) continue
    seen.add(context)
    for (edge.references(context); edge.next();) {
      const target = edge.target
      if (!edge.is('context') || dominators[target] !== context) continue
      const name = shownEdgeName(analysis, edge.number, names)
      bytes.set(name, (bytes.get(name) ?? 0) + retainedSizes.at(target))
    }
  }
  return [...bytes].filter(([, total]) => total > 0).sort((a, b) => b[1] - a[1]).slice(0, TOP_VARIABLES).map(([name, total]) => ({ name, bytes: total }))
}
