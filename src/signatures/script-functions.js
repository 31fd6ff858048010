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

/**
 * The functions of the scripts `wanted` accepts, by V8 script id: one pass over the closures,
 * one entry per function (not per closure).
 * @param {HeapAnalysis} analysis
 * @param {(scriptId: number) => boolean} wanted
 * @returns {Map<number, ScriptFunction[]>}
 */
export function scriptFunctions (analysis, wanted) {
  const { graph, locations } = analysis
  const { nodeTypes } = graph
  const closure = graph.nodeType.closure
  const recordOf = locations.ascendingRecordLookup()
  /** @type {Map<number, Map<string, ScriptFunction>>} few entries: one per wanted script */
  const byScript = new Map()
  /** @type {Map<number, boolean>} one entry per script */
  const decided = new Map()
  for (let o = 0; o < graph.nodeCount; o++) {
    if (nodeTypes[o] !== closure) continue
    const record = recordOf(o)
    if (record < 0) continue
    const [id, line, column] = locations.recordFields(record)
    let take = decided.get(id)
    if (take === undefined) decided.set(id, (take = wanted(id)))
    if (!take) continue
    let byStart = byScript.get(id)
    if (!byStart) byScript.set(id, (byStart = new Map()))
    const key = `${line}:${column}`
    if (!byStart.has(key)) byStart.set(key, { ordinal: o, line, column, name: readableFunctionName(locations.functionName(o)) })
  }
  return new Map([...byScript].map(([id, byStart]) => [id, [...byStart.values()]]))
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
