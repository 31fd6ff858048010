// The one place locations leave the code that ran for the code people wrote. Signatures find
// locations in the scripts the heap knows; then, before the Report is built, every finding's
// location passes through mapFindings once: through the script's source map when it has one,
// with the original line as a snippet, else with the lines around it from the script's text.
//
//   finding.location (generated) --script URL--> ScriptFiles (disk, --source-root, checked
//   against the snapshot's copy) --> loadSourceMap (comment, data: URL, beside, --source-maps)
//   --> TraceMap.originalPositionFor --> {file, line, column, function, generated, original}

import { scriptFunctions } from '../signatures/script-functions.js'
import { scriptSourceOf } from '../signatures/script-source.js'
import { readableScriptName } from '../signatures/source-location.js'
import { MAX_SNIPPET } from './original-positions.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Finding, SourceLocation, SourceLines} from '../signatures/finding.js' */
/** @import {ScriptFunction} from '../signatures/script-functions.js' */
/** @import {TraceMap} from '@jridgewell/trace-mapping' */
/** @import {LoadedMap} from './source-maps.js' */
/** @import {ScriptFiles} from './script-files.js' */
/** @import {ProgramScripts} from './program-scripts.js' */
/** @import {OriginalPositions} from './original-positions.js' */

/**
 * What mapping a finding reads.
 * @typedef {object} FindingSources
 * @property {ScriptFiles} files
 * @property {ProgramScripts} scripts
 * @property {OriginalPositions} positions
 * @property {NameResolver} names
 * @property {string} cwd
 */

/** Lines shown before and after a location's own. */
const CONTEXT_LINES = 3

/**
 * The findings with their locations mapped to the original sources where the scripts have
 * source maps; a one-line note added to a finding whose location could not be mapped for a
 * reason the user can fix. Other findings come back as they are.
 * @param {Finding[]} findings
 * @param {HeapAnalysis} analysis the last snapshot's (the one the signatures read)
 * @param {FindingSources} sources
 * @returns {Finding[]}
 */
export function mapFindings (findings, analysis, sources) {
  const located = findings.filter((finding) => finding.location !== null && !finding.location.file.startsWith('node:'))
  if (located.length === 0) return findings
  /** @type {Map<string, {id: number, url: string}>} readable file name -> script */
  const byFile = new Map()
  for (const [id, url] of analysis.locations.scriptNames()) {
    if (url === '' || url.startsWith('node:')) continue
    const name = readableScriptName(url, sources.cwd)
    if (!byFile.has(name)) byFile.set(name, { id, url })
  }
  const wanted = new Set(located.map((finding) => byFile.get(/** @type {SourceLocation} */ (finding.location).file)?.id).filter((id) => id !== undefined))
  if (wanted.size === 0) return findings
  /** @type {Map<number, string | null>} the snapshot's copy of each wanted script */
  const copies = new Map()
  const functionsOf = scriptFunctions(analysis, (id) => wanted.has(id))
  for (const [id, functions] of functionsOf) {
    let text = null
    for (const f of functions) if ((text = scriptSourceOf(analysis.graph, f.ordinal)) !== null) break
    copies.set(id, text)
  }
  return findings.map((finding) => {
    const location = finding.location
    const script = location === null ? undefined : byFile.get(location.file)
    if (location === null || script === undefined) return finding
    return mapFinding(finding, location, { url: script.url, copy: copies.get(script.id) ?? null, functions: functionsOf.get(script.id) ?? [] }, analysis, sources)
  })
}

/**
 * @param {Finding} finding
 * @param {SourceLocation} location
 * @param {{url: string, copy: string | null, functions: ScriptFunction[]}} script  the script's URL,
 *   the snapshot's copy of its text and the functions the heap has closures of
 * @param {HeapAnalysis} analysis
 * @param {FindingSources} sources
 * @returns {Finding}
 */
function mapFinding (finding, location, { url, copy, functions }, analysis, { files, scripts, positions, names, cwd }) {
  const file = files.read(url, copy)
  const loaded = scripts.mapOf(url, file)
  if (loaded.map === null) {
    const note = loaded.note ?? file.note
    const source = linesAround(file.text, location)
    const shown = source === null ? finding : { ...finding, source }
    return note === null ? shown : withNotes(shown, location, [note])
  }
  const mapped = positions.of(loaded.map, location)
  if ('note' in mapped) return withNotes(finding, location, [`${describeMap(loaded, url, cwd)} ${mapped.note}: locations stay in the code that ran`])
  const generated = { file: file.path !== null && file.matches && files.rooted ? readableScriptName(file.path, cwd) : location.file, line: location.line, column: location.column }
  /** @type {SourceLocation} */
  const result = { file: mapped.file, line: mapped.line, column: mapped.column, function: location.function, generated, original: mapped }
  if (location.inside !== undefined) result.inside = location.inside
  // A location found in the text (a write site) names the function around it as it ran.
  const start = location.generatedFunction === undefined ? functionStart(location, functions) : null
  const name = start === null ? null : names.functionName(analysis, url, location.function, start)
  if (name !== null) Object.assign(result, { function: name, generatedFunction: location.function })
  else if (location.generatedFunction !== undefined) result.generatedFunction = location.generatedFunction
  // Other sites in the same script that the signature named in its notes are mapped too.
  const before = Array.isArray(finding.evidence.notes) ? finding.evidence.notes : []
  const notes = before.map((note) => mapNote(note, location.file, /** @type {TraceMap} */ (loaded.map), positions))
  return { ...finding, location: result, evidence: { ...finding.evidence, notes } }
}

/**
 * `file:line:column` of the same script in a signature's note, mapped too.
 * @param {string} note
 * @param {string} file
 * @param {TraceMap} map
 * @param {OriginalPositions} positions
 */
function mapNote (note, file, map, positions) {
  if (!note.includes(`${file}:`)) return note
  const pattern = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:(\\d+):(\\d+)`, 'g')
  return note.replace(pattern, (text, line, column) => {
    const mapped = positions.of(map, { line: Number(line), column: Number(column) })
    return 'note' in mapped ? text : `${mapped.file}:${mapped.line}:${mapped.column}`
  })
}

/**
 * Where the function around a location starts (0-based): the nearest function of the location's
 * function name that starts before it. Null for an anonymous function or none found.
 * @param {SourceLocation} location
 * @param {ScriptFunction[]} functions
 * @returns {{line: number, column: number} | null}
 */
function functionStart (location, functions) {
  if (location.function === '') return null
  let nearest = null
  for (const f of functions) {
    const before = f.line + 1 < location.line || (f.line + 1 === location.line && f.column + 1 <= location.column)
    if (f.name !== location.function || !before) continue
    if (nearest === null || f.line > nearest.line || (f.line === nearest.line && f.column > nearest.column)) nearest = f
  }
  return nearest === null ? null : { line: nearest.line, column: nearest.column }
}

/**
 * @param {LoadedMap} loaded
 * @param {string} url
 * @param {string} cwd
 */
function describeMap (loaded, url, cwd) {
  return loaded.where === 'inline' || loaded.where === null ? `the inline source map of ${readableScriptName(url, cwd)}` : `source map ${readableScriptName(loaded.where, cwd)}`
}

/**
 * The lines around a location in a script's text, or null when the text does not reach it. A
 * line longer than a snippet (minified code) shows no lines at all.
 * @param {string | null} text
 * @param {SourceLocation} location
 * @returns {SourceLines | null}
 */
function linesAround (text, location) {
  if (text === null) return null
  const all = text.split('\n')
  if (location.line > all.length) return null
  const start = Math.max(1, location.line - CONTEXT_LINES)
  const lines = all.slice(start - 1, location.line + CONTEXT_LINES).map((line) => line.replace(/\r$/, ''))
  if (lines.some((line) => line.length > MAX_SNIPPET * 4)) return null
  return { file: location.file, start, lines }
}

/**
 * The finding with its location as it was and one more note.
 * @param {Finding} finding
 * @param {SourceLocation} location
 * @param {string[]} notes
 * @returns {Finding}
 */
function withNotes (finding, location, notes) {
  const before = Array.isArray(finding.evidence.notes) ? finding.evidence.notes : []
  return { ...finding, location, evidence: { ...finding.evidence, notes: [...before, ...notes] } }
}
