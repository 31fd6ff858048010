// Node's own lists of records it makes for the program (its enabled async hooks, each an AsyncHook
// holding the program's init/before/after callbacks): what each record is, where the callbacks in
// it come from, and the method that ends one.

import { offeredMethod } from '../../query/heap-methods.js'
import { EdgeCursor } from '../../query/references.js'
import { packageOf } from '../library-handle.js'
import { mostCommonLocation } from '../program-location.js'
import { sourceLocation } from '../source-location.js'
import { END_METHODS } from '../unclosed-makers.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {SourceLocation} from '../finding.js' */

/** New elements looked at for the program's functions they hold. */
const SAMPLE = 200

/**
 * @typedef {object} NodeRecords
 * @property {string} elementClass          the records' class (`AsyncHook`)
 * @property {SourceLocation | null} callbacks  where most of the callbacks they hold start
 * @property {string | null} library        the package those callbacks are in, null for the program's
 * @property {string | null} end            the method that ends one (`disable`)
 */

/**
 * Facts of a Node-owned list whose new elements are Node objects made for the program (an
 * AsyncHook holding the program's init/before/after callbacks): where the callbacks come from,
 * and the method that ends one.
 * @param {HeapAnalysis} analysis
 * @param {number[]} values new elements (ordinals, last snapshot)
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {NodeRecords | null}
 */
export function nodeRecords (analysis, values, cwd, names) {
  const { graph } = analysis
  const objects = values.filter((o) => graph.nodeTypes[o] === graph.nodeType.object).slice(0, SAMPLE)
  if (objects.length === 0) return null
  const elementClass = analysis.classes.names[analysis.classOf[objects[0]]]
  /** @type {Array<{location: SourceLocation, count: number}>} */
  const located = []
  const edge = new EdgeCursor(graph)
  for (const o of objects) {
    for (edge.references(o); edge.next();) {
      const f = edge.target
      if (!edge.is('property') || graph.nodeTypes[f] !== graph.nodeType.closure) continue
      const location = sourceLocation(analysis, f, cwd, names)
      if (location !== null && !location.file.startsWith('node:')) located.push({ location, count: 1 })
    }
  }
  const callbacks = mostCommonLocation(located)?.location ?? null
  return {
    elementClass,
    callbacks,
    library: callbacks === null ? null : packageOf(callbacks.file),
    end: offeredMethod(graph, objects[0], ['disable', ...END_METHODS])
  }
}
