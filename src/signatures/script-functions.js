// The program's scripts as the heap knows them, for the questions that find a line in a script's
// text (write sites, the line that hands an object over, an `import(`): the functions of each script
// the heap has closures of, one per start position, the script's text as the snapshot holds it,
// and the innermost of those functions around a place in that text, which names a site found there.

import { scriptSourceOf } from './script-source.js'
import { readableFunctionName, readableScriptName } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {ScriptSyntax} from '../syntax/script-syntax.js' */
/** @import {SourceLocation} from './finding.js' */

/**
 * @typedef {object} ScriptFunction
 * @property {number} ordinal  a closure of the function
 * @property {number} line     0-based
 * @property {number} column   0-based
 * @property {string} name
 */

/**
 * @typedef {object} FunctionSpan
 * @property {number} start   offset in the text
 * @property {number} end
 * @property {number} ordinal a closure of the function
 * @property {string} name
 * @property {number} line    1-based
 * @property {number} column  1-based
 */

/** @type {WeakMap<HeapAnalysis, Map<number, number[]>>} per analysis, its closures' location records by script id */
const closureRecords = new WeakMap()

/**
 * The location records of an analysis's closures by script id, found in one pass over the records
 * the first time the analysis is asked (several signatures ask of the same scripts).
 * @param {HeapAnalysis} analysis
 */
function closureRecordsOf (analysis) {
  let byScript = closureRecords.get(analysis)
  if (byScript !== undefined) return byScript
  byScript = new Map()
  const { graph, locations } = analysis
  const { nodeTypes } = graph
  const closure = graph.nodeType.closure
  let list = /** @type {number[]} */ ([])
  let listId = -1
  locations.forEachLocated((ordinal, record) => {
    if (nodeTypes[ordinal] !== closure) return
    const id = locations.recordScriptId(record)
    if (id !== listId) {
      const known = byScript.get(id)
      if (known === undefined) byScript.set(id, (list = []))
      else list = known
      listId = id
    }
    list.push(record)
  })
  closureRecords.set(analysis, byScript)
  return byScript
}

/** @type {WeakMap<HeapAnalysis, Map<number, ScriptFunction[]>>} per analysis, the functions of each script asked of */
const functionLists = new WeakMap()

/**
 * The functions of the scripts `wanted` accepts, by V8 script id: one entry per function (not per
 * closure), in the order of their closures' ordinals. Each script's list is made once per analysis
 * and shared by the callers: they do not change it.
 * @param {HeapAnalysis} analysis
 * @param {(scriptId: number) => boolean} wanted
 * @returns {Map<number, ScriptFunction[]>}
 */
export function scriptFunctions (analysis, wanted) {
  let made = functionLists.get(analysis)
  if (made === undefined) functionLists.set(analysis, (made = new Map()))
  /** @type {Map<number, ScriptFunction[]>} */
  const functions = new Map()
  for (const [id, records] of closureRecordsOf(analysis)) {
    if (!wanted(id)) continue
    let list = made.get(id)
    if (list === undefined) made.set(id, (list = functionsOf(analysis, records)))
    functions.set(id, list)
  }
  return functions
}

/**
 * One entry per function start among the closures of `records`, the first closure's.
 * @param {HeapAnalysis} analysis
 * @param {number[]} records
 * @returns {ScriptFunction[]}
 */
function functionsOf (analysis, records) {
  const { locations } = analysis
  /** @type {Map<number, Map<number, ScriptFunction>>} by line, then column */
  const byStart = new Map()
  /** @type {ScriptFunction[]} */
  const list = []
  for (const record of records) {
    const [, line, column] = locations.recordFields(record)
    let onLine = byStart.get(line)
    if (onLine === undefined) byStart.set(line, (onLine = new Map()))
    if (onLine.has(column)) continue
    const ordinal = locations.recordOrdinal(record)
    const fn = { ordinal, line, column, name: readableFunctionName(locations.functionName(ordinal)) }
    onLine.set(column, fn)
    list.push(fn)
  }
  return list
}

/**
 * The text of the script these functions belong to, or null: the snapshot's copy, completed from
 * disk when `names` reads the sources (V8 cuts the copy at 1,024 characters by default, so a
 * write far down a file is not in it).
 * @param {HeapAnalysis} analysis
 * @param {ScriptFunction[]} functions
 * @param {NameResolver} names
 */
export function scriptText (analysis, functions, names) {
  let text = null
  for (const f of functions) if ((text = scriptSourceOf(analysis.graph, f.ordinal)) !== null) break
  const url = functions.length === 0 ? null : analysis.locations.locationOf(functions[0].ordinal)?.scriptName ?? null
  if (url === null || url === '') return text
  return names.scriptText(url, text) ?? text
}

/**
 * Where the functions sit in the script's text, from its syntax tree; the script's own body
 * (which starts at its first character and spans all of it) left out.
 * @param {ScriptSyntax} syntax of the text
 * @param {ScriptFunction[]} functions
 * @returns {FunctionSpan[]}
 */
export function functionSpans (syntax, functions) {
  /** @type {FunctionSpan[]} */
  const spans = []
  for (const f of functions) {
    const start = syntax.offsetOf(f.line, f.column)
    if (start <= 0) continue
    spans.push({ start, end: syntax.codeEnd(start), ordinal: f.ordinal, name: f.name, line: f.line + 1, column: f.column + 1 })
  }
  return spans
}

/**
 * The innermost span around `offset`, or null.
 * @param {FunctionSpan[]} spans
 * @param {number} offset
 */
export function innermostSpan (spans, offset) {
  let inner = null
  for (const span of spans) {
    if (span.start <= offset && offset < span.end && (inner === null || span.start > inner.start)) inner = span
  }
  return inner
}

/**
 * The location of offset `at` in a script's text, with the innermost function around it.
 * @param {HeapAnalysis} analysis
 * @param {number} scriptId
 * @param {ScriptSyntax} syntax of the script's text
 * @param {ScriptFunction[]} functions
 * @param {number} at
 * @param {string} cwd
 * @returns {SourceLocation}
 */
export function siteAt (analysis, scriptId, syntax, functions, at, cwd) {
  const { line, column } = syntax.positionOf(at)
  const inner = innermostSpan(functionSpans(syntax, functions), at)
  return {
    file: readableScriptName(/** @type {string} */ (analysis.locations.scriptName(scriptId)), cwd),
    line: line + 1,
    column: column + 1,
    function: inner === null ? '' : inner.name
  }
}
