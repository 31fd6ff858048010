// The names a report shows. A minifier renames variables, classes and functions, and a compiler
// makes a script of each source file; the sources layer (src/sources/) reads the scripts' source
// maps and the files on disk, and knows the names as written. It sits above every layer that shows
// a name (paths, owners, the signatures' titles and fixes), so its answers come down as an
// argument, a NameResolver, never as a hook kept on the analysis or its graph: each question says
// which analysis it is about. HEAP_NAMES keeps the heap's own names (no sources are read).
//
// Only what reports show asks: questions about the code that ran (a scan of its text, a match of a
// property) keep the heap's names.

import { blockSlotCandidates, blockVariableName } from './block-scope-names.js'

/** @import {HeapAnalysis} from './analyze-heap.js' */

/**
 * @typedef {object} NameResolver
 * @property {(analysis: HeapAnalysis, edge: number) => string | null} variableName  the name
 *   people wrote for the variable of a context edge a minifier renamed; null keeps the heap's
 * @property {(analysis: HeapAnalysis, ordinal: number, name: string) => string | null} className
 *   likewise for the class of an object whose constructor was renamed (`name`: the class table's)
 * @property {(analysis: HeapAnalysis, url: string, name: string, start: {line: number, column: number}) => string | null} functionName
 *   likewise for a function (or class) given its name in the code that ran and its 0-based start
 * @property {(analysis: HeapAnalysis, url: string) => string | null} moduleName  the source file
 *   a script was compiled from (its source map's one source), as reports show files; null to
 *   show the script
 * @property {(analysis: HeapAnalysis, edge: number, candidates: string[]) => string | null} blockVariable
 *   which of `candidates` a block scope's hidden slot holds, when the slots and the names do not
 *   pair up (block-scope-names.js): the one whose declaration starts it as the value's class
 * @property {(url: string, snapshotText: string | null) => string | null} scriptText  a script's
 *   whole text given its URL and the snapshot's copy (V8 cuts it at 1,024 characters by default):
 *   the file on disk when it starts with that copy; null when nothing better than the copy is known
 */

/** @type {Readonly<NameResolver>} the heap's names, and the snapshot's copies of the scripts */
export const HEAP_NAMES = Object.freeze({
  variableName: () => null,
  className: () => null,
  functionName: () => null,
  moduleName: () => null,
  blockVariable: () => null,
  scriptText: () => null
})

/**
 * The edge's name as a report shows it: a variable's name as written when `names` knows it, a
 * block scope's variable by its name (block-scope-names.js), else the heap's.
 * @param {HeapAnalysis} analysis
 * @param {number} edge
 * @param {NameResolver} names
 * @param {string} [heapName]  graph.edgeName(edge), when the caller has it already
 */
export function shownEdgeName (analysis, edge, names, heapName = analysis.graph.edgeName(edge)) {
  const { graph } = analysis
  if (graph.edgeTypes[edge] === graph.edgeType.hidden) return blockVariable(analysis, edge, names) ?? heapName
  return graph.edgeTypes[edge] === graph.edgeType.context ? names.variableName(analysis, edge) ?? heapName : heapName
}

/**
 * The variable a hidden edge out of a block scope's context stands for: by its slot when the slots
 * and the names pair up, else as `names` tells from the script; null when neither knows.
 * @param {HeapAnalysis} analysis
 * @param {number} edge
 * @param {NameResolver} names
 * @returns {string | null}
 */
export function blockVariable (analysis, edge, names) {
  const { graph } = analysis
  const named = blockVariableName(graph, edge)
  if (named !== null) return named
  const candidates = blockSlotCandidates(graph, edge)
  return candidates === null ? null : names.blockVariable(analysis, edge, candidates)
}

/**
 * A node's class as reports show it: the class table's name, or the name people wrote when a
 * minifier renamed the class and `names` knows the original.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 * @param {NameResolver} names
 */
export function shownClassName (analysis, ordinal, names) {
  const name = analysis.classes.names[analysis.classOf[ordinal]]
  return names.className(analysis, ordinal, name) ?? name
}
