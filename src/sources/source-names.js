// The sources layer's answers to the layers below it (analysis/shown-names.js's NameResolver): the
// names people wrote for the variables, classes, functions and modules a minifier or a compiler
// renamed, through the scripts' source maps, and each script's whole text from disk. Each answer
// is found when a report first asks for it, and kept.

import { IDENTIFIER, VariableNames } from './variable-names.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {ScriptFiles} from './script-files.js' */
/** @import {ProgramScripts} from './program-scripts.js' */
/** @import {OriginalPositions} from './original-positions.js' */

/** The sources layer's NameResolver (source-locator.js hands it down as one). */
export class SourceNames {
  #files
  #scripts
  #positions
  #variables
  /** @type {WeakMap<HeapAnalysis, Map<number, string | null>>} per analysis, per class */
  #classes = new WeakMap()
  /** @type {Map<string, string | null>} per script URL */
  #modules = new Map()

  /**
   * @param {{files: ScriptFiles, scripts: ProgramScripts, positions: OriginalPositions}} sources
   */
  constructor ({ files, scripts, positions }) {
    this.#files = files
    this.#scripts = scripts
    this.#positions = positions
    this.#variables = new VariableNames(scripts)
  }

  /**
   * @param {HeapAnalysis} analysis
   * @param {number} edge
   */
  variableName (analysis, edge) {
    return this.#variables.nameOf(analysis, edge)
  }

  /**
   * The original name of a function (or class) a minifier renamed, or null: `name` as the heap
   * has it, starting at the 0-based position V8 records.
   * @param {HeapAnalysis} analysis
   * @param {string} url
   * @param {string} name
   * @param {{line: number, column: number}} start 0-based
   */
  functionName (analysis, url, name, start) {
    if (!IDENTIFIER.test(name)) return null
    const names = this.#scripts.namesOf(url, analysis)
    const at = names === null ? -1 : names.offsetOf(start.line, start.column)
    const original = at < 0 || names === null ? null : names.functionName(name, at)
    return original === name ? null : original
  }

  /**
   * The name people wrote for the class of an object whose constructor a minifier renamed, found
   * from the constructor's start that V8 records for each of its objects, once per class.
   * @param {HeapAnalysis} analysis
   * @param {number} ordinal
   * @param {string} name  the class table's
   */
  className (analysis, ordinal, name) {
    const { graph, locations, classOf } = analysis
    if (graph.nodeTypes[ordinal] !== graph.nodeType.object) return null
    let named = this.#classes.get(analysis)
    if (named === undefined) this.#classes.set(analysis, (named = new Map()))
    let original = named.get(classOf[ordinal])
    if (original !== undefined) return original
    original = null
    const record = locations.recordOf(ordinal)
    if (record >= 0) {
      const [scriptId, line, column] = locations.recordFields(record)
      const url = locations.scriptName(scriptId)
      if (url !== null) original = this.functionName(analysis, url, name, { line, column })
    }
    named.set(classOf[ordinal], original)
    return original
  }

  /**
   * The source file a compiled script was made from: the one source of the script's source map
   * (tsc makes one script per source file; a bundle's map has many, and the bundle keeps its name).
   * @param {HeapAnalysis} analysis
   * @param {string} url
   */
  moduleName (analysis, url) {
    let name = this.#modules.get(url)
    if (name !== undefined) return name
    name = null
    if (url !== '' && !url.startsWith('node:')) {
      const { map } = this.#scripts.mapOf(url, this.#scripts.read(url, analysis))
      const sources = map === null ? [] : map.resolvedSources.filter((source) => typeof source === 'string')
      if (sources.length === 1) name = this.#positions.originalFile(sources[0])
    }
    this.#modules.set(url, name)
    return name
  }

  /**
   * @param {HeapAnalysis} analysis
   * @param {number} edge
   * @param {string[]} candidates
   */
  blockVariable (analysis, edge, candidates) {
    return this.#variables.blockSlotName(analysis, edge, candidates)
  }

  /**
   * A script's text for the questions that look for a line in it: the file on disk when it starts with
   * the snapshot's (cut) copy, else that copy.
   * @param {string} url the Script's name
   * @param {string | null} snapshotText
   */
  scriptText (url, snapshotText) {
    return this.#files.read(url, snapshotText).text
  }
}
