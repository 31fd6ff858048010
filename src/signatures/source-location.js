import { isAbsolute, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {SourceLocation} from './finding.js' */

/**
 * Where a closure's function (or an object's constructor) starts, ready to print, or null when the
 * snapshot does not know.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 * @param {string} cwd
 * @param {NameResolver} names  the function's name as written, when a minifier renamed it
 * @returns {SourceLocation | null}
 */
export function sourceLocation (analysis, ordinal, cwd, names) {
  const location = analysis.locations.locationOf(ordinal)
  if (location === null || location.scriptName === null || location.scriptName === '') return null
  const name = readableFunctionName(analysis.locations.functionName(ordinal))
  const original = name === '' ? null : names.functionName(analysis, location.scriptName, name, location)
  /** @type {SourceLocation} */
  const found = { file: readableNameIn(analysis, location.scriptName, cwd), line: location.line + 1, column: location.column + 1, function: original ?? name }
  if (original !== null) found.generatedFunction = name
  return found
}

// Per analysis, its scripts' readable names: signatures locate thousands of objects (timers,
// listeners, closures) in a few scripts, and a URL made a relative path costs microseconds. A heap
// names each script once, so the map holds no more entries than the heap has scripts.
/** @type {WeakMap<HeapAnalysis, Map<string, string>>} */
const readableNames = new WeakMap()

/**
 * readableScriptName, once per script of the analysis.
 * @param {HeapAnalysis} analysis
 * @param {string} scriptName
 * @param {string} cwd
 */
function readableNameIn (analysis, scriptName, cwd) {
  let names = readableNames.get(analysis)
  if (names === undefined) readableNames.set(analysis, (names = new Map()))
  const key = cwd + '\0' + scriptName
  let readable = names.get(key)
  if (readable === undefined) names.set(key, (readable = readableScriptName(scriptName, cwd)))
  return readable
}

/**
 * An anonymous function's SharedFunctionInfo is named `(shared function info)`: that is no name.
 * @param {string} name
 */
export function readableFunctionName (name) {
  return name.startsWith('(') ? '' : name
}

/**
 * A script URL as a person types it: `file://` URLs become paths, paths under `cwd` become
 * relative, `node:` and other URLs stay as they are.
 * @param {string} name
 * @param {string} cwd
 */
export function readableScriptName (name, cwd) {
  let path = name
  if (name.startsWith('file://')) {
    try {
      path = fileURLToPath(name)
    } catch {
      return name
    }
  }
  if (!isAbsolute(path)) return path
  const inside = relative(cwd, path)
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside.split(sep).join('/') : path
}
