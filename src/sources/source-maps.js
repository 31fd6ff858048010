// A script's source map, found the way Node's --enable-source-maps and DevTools find it: the last
// `//# sourceMappingURL=` comment of the script (a `data:` URL holds the map itself; anything else
// names a file beside the script), else `<script>.map` beside it. A directory of maps given by the
// user (`--source-maps DIR`, maps kept apart from the deployed code) is searched first, by the
// map's and the script's file names. Maps are decoded by @jridgewell/trace-mapping, the library
// c8 and Istanbul use; a map that is not what it should be gives one line on what is wrong.

import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TraceMap } from '@jridgewell/trace-mapping'
import { readableScriptName } from '../signatures/source-location.js'
import { readText } from './script-files.js'

/** The last sourceMappingURL comment of a script (`//@` is the old spelling). */
const MAPPING_URL = /\/\/[#@][ \t]*sourceMappingURL=([^\s'"]+)[ \t]*(?:\r?\n|$)/g

/**
 * @typedef {object} LoadedMap
 * @property {TraceMap | null} map
 * @property {string | null} note    why there is no map, when there should have been one
 * @property {string | null} where   the map's file, or 'inline'
 */

/**
 * The URL of the script's last sourceMappingURL comment, or null.
 * @param {string} text
 */
export function sourceMappingUrl (text) {
  let found = null
  // The comment ends a script; reading only its tail keeps this cheap on a large bundle (a
  // `data:` URL can be most of the file, so the tail starts at the comment's last mention).
  const at = text.lastIndexOf('sourceMappingURL=')
  if (at < 0) return null
  for (const match of text.slice(Math.max(0, at - 16)).matchAll(MAPPING_URL)) found = match[1]
  return found
}

/**
 * The source map of a script.
 * @param {{scriptPath: string | null, scriptName: string, text: string | null, whole: boolean,
 *   mapsDir: string | null, cwd: string}} script
 *   scriptPath: where the script is on this machine; text: its text (whole: read from a file that
 *   matches the snapshot); mapsDir: the user's directory of maps
 * @returns {LoadedMap}
 */
export function loadSourceMap ({ scriptPath, scriptName, text, whole, mapsDir, cwd }) {
  const url = text === null ? null : sourceMappingUrl(text)
  if (url !== null && url.startsWith('data:')) return parseMap(decodeDataUrl(url), 'inline', scriptName, null, cwd)
  const scriptFile = scriptPath === null ? basename(scriptName) : basename(scriptPath)
  /** @type {Array<[path: string, base: string]>} each map file and what its sources resolve against */
  const candidates = []
  if (mapsDir !== null) {
    // A map kept apart was made beside its script: its relative sources resolve from there, as
    // error trackers that take uploaded maps read them, not from the directory it was copied to.
    const base = scriptPath ?? (scriptName.startsWith('file://') ? safePath(scriptName) : scriptName)
    if (url !== null) candidates.push([join(mapsDir, basename(safeDecode(url))), base])
    candidates.push([join(mapsDir, `${scriptFile}.map`), base])
  }
  // A map beside the script on disk belongs to that build: only when that is the build that ran.
  if (scriptPath !== null && whole) {
    const beside = url !== null ? resolveMapUrl(url, scriptPath) : null
    if (beside !== null) candidates.push([beside, beside])
    candidates.push([`${scriptPath}.map`, `${scriptPath}.map`])
  }
  for (const [candidate, base] of candidates) {
    const json = readText(candidate)
    if (json !== null) return parseMap(json, candidate, scriptName, base, cwd)
  }
  if (url !== null && (whole || mapsDir !== null)) {
    return { map: null, note: `the source map of ${readableScriptName(scriptName, cwd)} (${url}) is not on this machine: locations stay in the code that ran`, where: null }
  }
  return { map: null, note: null, where: null }
}

/**
 * @param {string} url
 * @param {string} scriptPath
 */
function resolveMapUrl (url, scriptPath) {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url)
    } catch {
      return url
    }
  }
  return resolve(dirname(scriptPath), safeDecode(url))
}

/** @param {string} text */
function safeDecode (text) {
  try {
    return decodeURI(text)
  } catch {
    return text
  }
}

/**
 * The JSON text of a `data:` URL (base64 or percent-encoded), or null.
 * @param {string} url
 */
function decodeDataUrl (url) {
  const comma = url.indexOf(',')
  if (comma < 0) return null
  const header = url.slice(5, comma)
  const body = url.slice(comma + 1)
  try {
    return header.split(';').includes('base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body)
  } catch {
    return null
  }
}

/**
 * @param {string | null} json
 * @param {string} where  'inline' or the map's path
 * @param {string} scriptName
 * @param {string | null} mapPath  what the map's relative `sources` are relative to
 * @param {string} cwd
 * @returns {LoadedMap}
 */
function parseMap (json, where, scriptName, mapPath, cwd) {
  const name = where === 'inline' ? `the inline source map of ${readableScriptName(scriptName, cwd)}` : `source map ${readableScriptName(where, cwd)}`
  const fail = (/** @type {string} */ what) => ({ map: null, note: `${name} ${what}: locations stay in the code that ran`, where })
  if (json === null) return fail('cannot be decoded')
  /** @type {any} */
  let raw
  try {
    raw = JSON.parse(json)
  } catch {
    return fail('is not valid JSON')
  }
  if (raw === null || typeof raw !== 'object') return fail('is not a source map object')
  if (raw.version !== 3) return fail(`has version ${JSON.stringify(raw.version)}, expected 3`)
  const sections = Array.isArray(raw.sections)
  if (!sections && (!Array.isArray(raw.sources) || raw.sources.length === 0)) return fail('lists no sources')
  if (!sections && typeof raw.mappings !== 'string') return fail('has no mappings')
  const scriptBase = basename(scriptName.startsWith('file://') ? safePath(scriptName) : scriptName)
  if (typeof raw.file === 'string' && raw.file !== '' && basename(raw.file) !== scriptBase) {
    return fail(`is the map of ${basename(raw.file)}, not of ${scriptBase}`)
  }
  try {
    // Sources resolve against the map's own place (the script's, for an inline map).
    const base = mapPath ?? (scriptName.startsWith('file://') ? safePath(scriptName) : scriptName)
    return { map: new TraceMap(raw, base), note: null, where }
  } catch (error) {
    return fail(`cannot be read (${String(/** @type {Error} */ (error).message).split('\n')[0]})`)
  }
}

/** @param {string} url */
function safePath (url) {
  try {
    return fileURLToPath(url)
  } catch {
    return url
  }
}
