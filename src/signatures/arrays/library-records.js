// A library's own list (a scheduler's pending invocations) is not the program's to bound: each new
// record is work the program started and never ended. When the records, or an object one field
// away (an invocation's `job`), offer a method that ends them, that method is the way out.

import { offeredMethod } from '../../query/heap-methods.js'
import { references } from '../../query/references.js'
import { packageOf } from '../library-handle.js'
import { END_METHODS } from '../unclosed-makers.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */

/**
 * @typedef {object} LibraryRecord
 * @property {string} library       the package whose list it is
 * @property {string} elementClass  the class of its new records
 * @property {string} via           the record's field that holds the object ending it, '' for the record itself
 * @property {string} targetClass   the class of that object
 * @property {string} method        the method that ends it
 */

/**
 * What ends the new records of a library's list, or null when the list is not a library's or
 * neither its records nor their fields offer a way to end them.
 * @param {HeapAnalysis} analysis
 * @param {string | null} holderFile  where the list's holder is
 * @param {number[]} values  new elements (ordinals, last snapshot)
 * @returns {LibraryRecord | null}
 */
export function libraryRecord (analysis, holderFile, values) {
  const library = holderFile === null ? null : packageOf(holderFile)
  const { graph } = analysis
  const element = values.find((o) => graph.nodeTypes[o] === graph.nodeType.object)
  if (library === null || element === undefined) return null
  const elementClass = analysis.classes.names[analysis.classOf[element]]
  let target = element
  let method = offeredMethod(graph, element, END_METHODS)
  let via = ''
  for (const edge = references(graph, element); method === null && edge.next();) {
    const field = edge.target
    if (!edge.is('property') || graph.nodeTypes[field] !== graph.nodeType.object || edge.is('property', '__proto__')) continue
    method = offeredMethod(graph, field, END_METHODS)
    if (method !== null) {
      target = field
      via = edge.name
    }
  }
  if (method === null) return null
  return { library, elementClass, via, targetClass: analysis.classes.names[analysis.classOf[target]], method }
}
