// Where the code that owns a collection lives, from the heap alone. A snapshot does not record
// where an object was allocated, but it knows who holds it: a variable of a closure scope (then
// the function that closes over that scope, the one the retainer path went through when it did),
// or a property of a class instance (then the constructor).

import { sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {SourceLocation} from './finding.js' */
/** @import {NodeLocation} from '../graph/locations.js' */

/**
 * @typedef {object} HolderLocation
 * @property {SourceLocation} location
 * @property {'closure' | 'module' | 'constructor'} how  a function closing over the variable, the
 *   module body (a module-level variable), or the holder's constructor
 * @property {number} [scriptId]  the V8 script id of that code, when known
 */

/** How the code at a holder location relates to the collection, for the card. */
export const HOLDER_ROLES = Object.freeze({ closure: 'closes over it', module: 'module scope', constructor: 'constructor of its holder' })

/**
 * The location of the code holding the last node of `path`, or null when the heap does not say.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path ends at the collection
 * @param {string} cwd
 * @returns {HolderLocation | null}
 */
export function holderLocation (analysis, path, cwd) {
  if (path.length < 2) return null
  const { graph } = analysis
  const holder = graph.findOrdinalById(path[path.length - 2].id)
  if (holder < 0) return null
  if (graph.nodeName(holder) === 'system / Context') {
    const closure = closureOverContext(analysis, holder, path.length >= 3 ? path[path.length - 3].id : 0)
    const location = closure < 0 ? null : sourceLocation(analysis, closure, cwd)
    if (location === null) return null
    const scriptId = /** @type {NodeLocation} */ (analysis.locations.locationOf(closure)).scriptId
    // A module's own body starts at its first character; functions in it start later.
    return { location, how: location.line === 1 && location.column === 1 ? 'module' : 'closure', scriptId }
  }
  if (graph.nodeTypes[holder] !== graph.nodeType.object) return null
  const location = sourceLocation(analysis, holder, cwd)
  if (location === null) return null
  return { location, how: 'constructor', scriptId: /** @type {NodeLocation} */ (analysis.locations.locationOf(holder)).scriptId }
}

/**
 * A closure whose scope is `context`: the one with V8 id `preferredId` if it is one, else the
 * located one that starts first in its file.
 * @param {HeapAnalysis} analysis
 * @param {number} context
 * @param {number} preferredId
 */
export function closureOverContext (analysis, context, preferredId) {
  const { graph, locations } = analysis
  const contextName = graph.strings.indexOf('context')
  let best = -1
  let bestLine = Infinity
  let bestColumn = Infinity
  for (let slot = graph.firstRetainer[context], end = graph.firstRetainer[context + 1]; slot < end; slot++) {
    const e = graph.retainerEdges[slot]
    const source = graph.edgeSource(e)
    if (graph.edgeTypes[e] !== graph.edgeType.internal || graph.edgeNames[e] !== contextName) continue
    if (graph.nodeTypes[source] !== graph.nodeType.closure) continue
    if (graph.nodeIds[source] === preferredId) return source
    const location = locations.locationOf(source)
    if (location === null) continue
    if (location.line < bestLine || (location.line === bestLine && location.column < bestColumn)) {
      best = source
      bestLine = location.line
      bestColumn = location.column
    }
  }
  return best
}
