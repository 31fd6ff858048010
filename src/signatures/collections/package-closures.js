// Entries that are, or hold, closures a package made: a child logger whose `write` is the
// package's function over the metadata it was given, a wrapper around a handler. What such a
// closure captures is what the program handed the package, and its code is not the program's to
// change: when a collection keeps adding them, the collection is the leak (closure-retention leaves
// these rows to the collection matchers).

import { AGE_OLD } from '../../query/ages.js'
import { EdgeCursor, propertyTarget } from '../../query/references.js'
import { shownEdgeName } from '../../analysis/shown-names.js'
import { packageOf } from '../library-handle.js'
import { locationKey } from '../program-location.js'
import { sourceLocation } from '../source-location.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {SourceLocation} from '../finding.js' */

/** New values looked at. */
const SAMPLE = 200
/** Captured variables named. */
const TOP_VARIABLES = 3

/**
 * @typedef {object} PackageClosures
 * @property {string} library          the package whose code the closures run (`winston`)
 * @property {SourceLocation} location where that function starts
 * @property {string} holderClass      the class of the entries that hold the closures (`DerivedLogger`),
 *                                     '' when the entries are the closures themselves
 * @property {string[]} captured       the variables of the closures' scopes that keep new objects
 * @property {number} count            sampled entries with such a closure
 * @property {number} sampled
 */

/**
 * Whether most new values are closures of one package function, or objects holding one as a
 * property (the outermost new closure of the entry); null otherwise.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {number[]} values new values (ordinals)
 * @param {Uint8Array} ages
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {PackageClosures | null}
 */
export function packageClosures (analysis, values, ages, cwd, names) {
  const { graph } = analysis
  const edge = new EdgeCursor(graph)
  /** @type {Map<string, {location: SourceLocation, closure: number, holder: number, count: number}>} */
  const byFunction = new Map()
  let sampled = 0
  for (const o of values) {
    if (sampled === SAMPLE) break
    sampled++
    const closure = graph.nodeTypes[o] === graph.nodeType.closure ? o : newClosureOf(edge, o, ages)
    if (closure < 0) continue
    const location = sourceLocation(analysis, closure, cwd, names)
    if (location === null || packageOf(location.file) === null) continue
    const key = locationKey(location)
    const seen = byFunction.get(key)
    if (seen === undefined) byFunction.set(key, { location, closure, holder: closure === o ? -1 : o, count: 1 })
    else seen.count++
  }
  let best = null
  for (const found of byFunction.values()) if (best === null || found.count > best.count) best = found
  if (best === null || best.count < sampled / 2) return null
  return {
    library: /** @type {string} */ (packageOf(best.location.file)),
    location: best.location,
    holderClass: best.holder < 0 ? '' : analysis.classes.names[analysis.classOf[best.holder]],
    captured: capturedNew(analysis, best.closure, ages, names),
    count: best.count,
    sampled
  }
}

/**
 * The first new closure an object holds as a property, or -1.
 * @param {EdgeCursor} edge
 * @param {number} o
 * @param {Uint8Array} ages
 */
function newClosureOf (edge, o, ages) {
  const { graph } = edge
  if (graph.nodeTypes[o] !== graph.nodeType.object) return -1
  for (edge.references(o); edge.next();) {
    if (edge.is('property') && graph.nodeTypes[edge.target] === graph.nodeType.closure && ages[edge.target] !== AGE_OLD) return edge.target
  }
  return -1
}

/**
 * The variables of a closure's scope that point at objects made since the first snapshot.
 * @param {HeapAnalysis} analysis
 * @param {number} closure
 * @param {Uint8Array} ages
 * @param {NameResolver} names
 */
function capturedNew (analysis, closure, ages, names) {
  const { graph } = analysis
  const context = propertyTarget(graph, closure, 'context')
  /** @type {string[]} */
  const captured = []
  if (context < 0) return captured
  for (const edge = new EdgeCursor(graph).references(context); edge.next() && captured.length < TOP_VARIABLES;) {
    if (edge.is('context') && ages[edge.target] !== AGE_OLD && graph.nodeTypes[edge.target] !== graph.nodeType.closure) captured.push(shownEdgeName(analysis, edge.number, names))
  }
  return captured
}
