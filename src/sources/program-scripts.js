// The program's scripts by the URL V8 names them, each looked at once per run: the snapshot's copy
// of its text, the text to read (the file on disk when it starts with that copy), its source map,
// and the names the map gives. Everything is read lazily: only the scripts a report asks about.

import { scriptSourceOf } from '../signatures/script-source.js'
import { ScriptNames } from './original-names.js'
import { readText } from './script-files.js'
import { loadSourceMap, sourceMappingUrl } from './source-maps.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {LoadedMap} from './source-maps.js' */
/** @import {ScriptFile, ScriptFiles} from './script-files.js' */

/** Closures kept per script to find its copy: the first one nearly always leads to it. */
const CLOSURES_PER_SCRIPT = 4

export class ProgramScripts {
  #files
  #mapsDir
  #cwd
  /** @type {Map<string, LoadedMap>} per script URL */
  #maps = new Map()
  /** @type {Map<string, string | null>} per script URL, the snapshot's copy of its text */
  #copies = new Map()
  /** @type {Map<string, ScriptNames | null>} per script URL, its map's names */
  #names = new Map()
  /** @type {WeakMap<HeapAnalysis, Map<number, number[]>>} per analysis, a few closures of each script id */
  #closures = new WeakMap()

  /**
   * @param {ScriptFiles} files
   * @param {{mapsDir: string | null, cwd: string}} options  mapsDir: a directory of source maps
   *   kept apart from the code
   */
  constructor (files, { mapsDir, cwd }) {
    this.#files = files
    this.#mapsDir = mapsDir
    this.#cwd = cwd
  }

  /**
   * The script as a snapshot of the process that ran it knows it: the file on disk when it starts
   * with the snapshot's copy, else that copy.
   * @param {string} url
   * @param {HeapAnalysis} analysis
   * @returns {ScriptFile}
   */
  read (url, analysis) {
    return this.#files.read(url, this.#copyOf(url, analysis))
  }

  /**
   * The names of a script's map, once per script; null for Node's own scripts, a script without
   * a usable map, and one whose whole text is not here.
   * @param {string} url
   * @param {HeapAnalysis} analysis
   */
  namesOf (url, analysis) {
    let names = this.#names.get(url)
    if (names === undefined) {
      names = null
      if (url !== '' && !url.startsWith('node:')) {
        const file = this.read(url, analysis)
        const loaded = this.mapOf(url, file)
        if (loaded.map !== null && file.text !== null) names = ScriptNames.of(file.text, loaded.map)
      }
      this.#names.set(url, names)
    }
    return names
  }

  /**
   * A script's source map, once per script.
   * @param {string} url
   * @param {ScriptFile} file  the script as read
   * @returns {LoadedMap}
   */
  mapOf (url, file) {
    let loaded = this.#maps.get(url)
    if (loaded === undefined) {
      const options = { scriptPath: file.path, scriptName: url, text: file.text, whole: file.whole, mapsDir: this.#mapsDir, cwd: this.#cwd }
      // An inline map in the snapshot's own copy belongs to the code that ran (a loader that
      // compiles TypeScript in memory writes one), whatever the file on disk is. Otherwise a
      // script on disk that is not the one that ran has no map worth reading: its lines moved.
      const inline = file.text !== null && sourceMappingUrl(file.text)?.startsWith('data:') === true
      loaded = !inline && file.path !== null && !file.matches && file.note !== null && readText(file.path) !== null
        ? { map: null, note: file.note, where: null }
        : loadSourceMap(options)
      this.#maps.set(url, loaded)
    }
    return loaded
  }

  /**
   * The snapshot's copy of a script's text (a file on disk is used only when it starts with it),
   * found the first time the script is asked for: the first of its closures that leads to it.
   * @param {string} url
   * @param {HeapAnalysis} analysis
   * @returns {string | null}
   */
  #copyOf (url, analysis) {
    let text = this.#copies.get(url)
    if (text !== undefined) return text
    text = null
    let closures = this.#closures.get(analysis)
    if (closures === undefined) this.#closures.set(analysis, (closures = firstClosures(analysis)))
    for (const [id, name] of analysis.locations.scriptNames()) {
      if (name !== url) continue
      for (const ordinal of closures.get(id) ?? []) if (text === null) text = scriptSourceOf(analysis.graph, ordinal)
    }
    this.#copies.set(url, text)
    return text
  }
}

/**
 * A few closures of each script, by script id, in one pass over the location records (few next
 * to the nodes: one per function object and constructor).
 * @param {HeapAnalysis} analysis
 * @returns {Map<number, number[]>}
 */
function firstClosures (analysis) {
  const { graph, locations } = analysis
  /** @type {Map<number, number[]>} */
  const closures = new Map()
  for (let record = 0; record < graph.locationCount; record++) {
    const ordinal = locations.recordOrdinal(record)
    if (graph.nodeTypes[ordinal] !== graph.nodeType.closure) continue
    const [id] = locations.recordFields(record)
    let list = closures.get(id)
    if (list === undefined) closures.set(id, (list = []))
    if (list.length < CLOSURES_PER_SCRIPT) list.push(ordinal)
  }
  return closures
}
