// The lines that add to a growing collection. The heap knows who holds a collection (a scope
// variable, a property of an instance), and that points at a function that closes over the scope
// or at a constructor: in a module every function closes over the module scope, so that is often
// an unrelated function or the module itself. What a person changes is the `log.push(...)`,
// `cache.set(key, ...)` or `sessions[id] = ...`, and the snapshot holds the holder script's text
// (its first kilobyte by default, see script-source.js): the writes are found in its syntax tree
// by name, and each is placed in the innermost function of that script the heap has a closure of. A property of
// the global object has no holder in any script: the program's scripts are searched for writes to it.

import { HOLDER_ROLES } from './holder-location.js'
import { packageOf } from './library-handle.js'
import { functionSpans, innermostSpan, scriptFunctions, scriptText } from './script-functions.js'
import { sourceLocation } from './source-location.js'
import { PROGRAM, scriptSyntax } from '../syntax/script-syntax.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {ScriptSyntax} from '../syntax/script-syntax.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {SourceLocation} from './finding.js' */
/** @import {HolderLocation} from './holder-location.js' */

/** Sites kept: the first, and a few `also at`. */
const MAX_SITES = 4
const NAME = /^#?[A-Za-z_$][\w$]*$/

/** How the code at a write site relates to the collection, for the card. */
export const WRITE_ROLE = 'adds to it'

/**
 * Offsets of the sites of one kind in a script: (syntax, name, member) => ascending offsets.
 * @typedef {(syntax: ScriptSyntax, name: string, member: boolean) => number[]} SiteFinder
 */

/**
 * The statements that add entries to the collection (ScriptSyntax#writesTo).
 * @type {SiteFinder}
 */
export const writeOffsets = (syntax, name, member) => syntax.writesTo(name, member)

/**
 * Where the value is used (ScriptSyntax#usesOf).
 * @type {SiteFinder}
 */
export const useOffsets = (syntax, name, member) => syntax.usesOf(name, member).map((use) => use.offset)

/**
 * @typedef {object} WriteSites
 * @property {SourceLocation} location  the site to look at first: inside a function before the
 *   script's top level (a write in the module body runs once, a write in a handler runs per call)
 * @property {string} role              WRITE_ROLE, or HOLDER_ROLES.module for a top-level write
 * @property {SourceLocation[]} also    the other sites, in the same order
 * @property {{line: number, column: number} | null} functionStart  where the function around the
 *   first site starts (1-based), null at the top level
 */

/**
 * Where the program adds to the collection at the end of `path`, found in the text of the script
 * its holder belongs to (any of the program's scripts for a property of the global object, which
 * has no holder); null when the path does not end in a variable or property name, the holder is
 * library or Node code, the snapshot lacks the text, or the text has no such write.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path ends at the collection
 * @param {HolderLocation | null} holder holderLocation of the same path
 * @param {{offsetsOf?: SiteFinder, role?: string, cwd?: string, names: NameResolver}} options
 *   another kind of site to look for (useOffsets: where the value is used) and its role on the card;
 *   cwd: what file names are relative to; names: the names people wrote and the scripts' texts
 * @returns {WriteSites | null}
 */
export function writeSites (analysis, path, holder, { offsetsOf = writeOffsets, role = WRITE_ROLE, cwd = process.cwd(), names }) {
  const step = path[path.length - 1]
  if (!step || !NAME.test(codeName(step))) return null
  if (holder === null) return globalWriteSites(analysis, path, { offsetsOf, role, cwd, names })
  if (holder.scriptId === undefined || !isProgramFile(holder.location.file)) return null
  const member = step.edgeType === 'property'
  if (!member && step.edgeType !== 'context') return null
  const scriptId = holder.scriptId
  const functions = scriptFunctions(analysis, (id) => id === scriptId).get(scriptId) ?? []
  return sitesIn(analysis, holder.location.file, functions, (syntax) => offsetsOf(syntax, codeName(step), member), role, names)
}

/**
 * A step's name in the code that ran, which its syntax tree knows: a variable a minifier renamed has
 * the original name in `edge` for reports.
 * @param {Step} step
 */
export function codeName (step) {
  return step.generatedEdge ?? step.edge
}

/**
 * Writes to a property of the global object (`globalThis.cache[key] = ...`, or the bare `cache[key]`
 * a script may use for it), in the first of the program's scripts that has any.
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path
 * @param {{offsetsOf: SiteFinder, role: string, cwd: string, names: NameResolver}} options
 * @returns {WriteSites | null}
 */
function globalWriteSites (analysis, path, { offsetsOf, role, cwd, names }) {
  const step = path[path.length - 1]
  if (path.length < 2 || step.edgeType !== 'property') return null
  if (!analysis.userRoots.includes(analysis.graph.findOrdinalById(path[path.length - 2].id))) return null
  const offsets = (/** @type {ScriptSyntax} */ syntax) => [...new Set([...offsetsOf(syntax, codeName(step), true), ...offsetsOf(syntax, codeName(step), false)])].sort((a, b) => a - b)
  for (const functions of scriptFunctions(analysis, () => true).values()) {
    const location = sourceLocation(analysis, functions[0].ordinal, cwd, names)
    if (location === null || !isProgramFile(location.file)) continue
    const sites = sitesIn(analysis, location.file, functions, offsets, role, names)
    if (sites !== null) return sites
  }
  return null
}

/**
 * @param {string} file
 */
function isProgramFile (file) {
  return !file.startsWith('node:') && packageOf(file) === null
}

/**
 * The sites `offsetsOf` finds in the text of the script these functions belong to.
 * @param {HeapAnalysis} analysis
 * @param {string} file
 * @param {import('./script-functions.js').ScriptFunction[]} functions
 * @param {(syntax: ScriptSyntax) => number[]} offsetsOf
 * @param {string} role
 * @param {NameResolver} names
 * @returns {WriteSites | null}
 */
function sitesIn (analysis, file, functions, offsetsOf, role, names) {
  const text = scriptText(analysis, functions, names)
  if (text === null) return null
  const syntax = scriptSyntax(text)
  const offsets = offsetsOf(syntax)
  if (offsets.length === 0) return null

  const spans = functionSpans(syntax, functions)
  const sites = offsets.map((offset) => {
    const inner = innermostSpan(spans, offset)
    // A write in no known function may still be inside one the heap has no closure of; one in
    // no function at all runs once, when the module loads.
    const rank = inner !== null ? 0 : syntax.scopeAt(offset) !== PROGRAM ? 1 : 2
    const { line, column } = syntax.positionOf(offset)
    /** @type {SourceLocation} */
    const location = { file, line: line + 1, column: column + 1, function: inner === null ? '' : inner.name }
    return { rank, offset, location, inner }
  })
  sites.sort((a, b) => a.rank - b.rank || a.offset - b.offset)
  const [first, ...rest] = sites
  return {
    location: first.location,
    role: first.rank === 2 ? HOLDER_ROLES.module : role,
    also: rest.slice(0, MAX_SITES - 1).map((site) => site.location),
    functionStart: first.inner === null ? null : { line: first.inner.line, column: first.inner.column }
  }
}

/**
 * Notes for a card whose location is a write site: the other sites, and where the heap places
 * the holder when that is not the function around the first site.
 * @param {WriteSites} sites
 * @param {HolderLocation} holder
 * @returns {string[]}
 */
export function writeSiteNotes (sites, holder) {
  const notes = sites.also.map((location) => `also adds at ${where(location)}`)
  const { location, how } = holder
  const start = sites.functionStart
  if (start !== null && location.line === start.line && location.column === start.column) return notes
  const at = `${location.file}:${location.line}:${location.column}`
  if (how === 'module') notes.push(`declared in the module scope of ${location.file}`)
  else if (how === 'closure') notes.push(`closed over by ${location.function === '' ? 'an anonymous function' : location.function} at ${at}`)
  else if (how === 'function') notes.push(`a property of ${location.function === '' ? 'an anonymous function' : location.function} at ${at}`)
  else notes.push(`held by ${location.function === '' ? 'an object' : `a ${location.function}`} made by the constructor at ${at}`)
  return notes
}

/**
 * @param {SourceLocation} location
 */
function where (location) {
  const at = `${location.file}:${location.line}:${location.column}`
  return location.function === '' ? at : `${at} (${location.function})`
}
