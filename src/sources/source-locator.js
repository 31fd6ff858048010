// The sources of one run: the scripts the heap knows, their text from disk, their source maps and
// the names people wrote. The run (src/pipeline/) opens them once and asks three things:
//
//   names          a NameResolver handed down as an argument to the diff and the signatures, which
//                  show names and read scripts' whole texts (source-names.js)
//   mapFindings    after the signatures: each finding's location in the source people wrote
//                  (finding-locations.js)
//   mapPosition    an allocation profile's frame, likewise (original-positions.js)
//
// and renamedClasses for the class rows a report shows. Everything is read lazily: only the
// scripts a report names, each file and map once. The layers below never see this object.

import { resolve } from 'node:path'
import { mapFindings } from './finding-locations.js'
import { OriginalPositions } from './original-positions.js'
import { ProgramScripts } from './program-scripts.js'
import { renamedClasses } from './renamed-classes.js'
import { ScriptFiles } from './script-files.js'
import { SourceNames } from './source-names.js'
import { parseSourceRoot } from './source-roots.js'
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Finding} from '../signatures/finding.js' */
/** @import {OriginalPosition} from './original-positions.js' */

/**
 * @typedef {object} SourceOptions
 * @property {string | null} [sourceMaps]  a directory of source maps kept apart from the code
 * @property {Array<string | {from: string, to: string}>} [sourceRoots]  `FROM=TO`: a path of the
 *   process (`/app`) and where the same files are on this machine (`.`)
 */

export class SourceLocator {
  #sources

  /**
   * @param {SourceOptions & {cwd?: string}} [options]  a malformed source root throws here,
   *   before anything is read
   */
  constructor ({ sourceMaps = null, sourceRoots = [], cwd = process.cwd() } = {}) {
    const files = new ScriptFiles({ roots: sourceRoots.map((root) => parseSourceRoot(root, cwd)), cwd })
    const scripts = new ProgramScripts(files, { mapsDir: sourceMaps === null ? null : resolve(cwd, sourceMaps), cwd })
    const positions = new OriginalPositions(files, cwd)
    const names = new SourceNames({ files, scripts, positions })
    this.#sources = { files, scripts, positions, names, cwd }
  }

  /**
   * The names people wrote and the scripts' whole texts, for the layers that show names.
   * @returns {NameResolver}
   */
  get names () {
    return this.#sources.names
  }

  /**
   * The findings with their locations mapped to the original sources (finding-locations.js).
   * @param {Finding[]} findings
   * @param {HeapAnalysis} analysis the last snapshot's (the one the signatures read)
   * @returns {Finding[]}
   */
  mapFindings (findings, analysis) {
    return mapFindings(findings, analysis, this.#sources)
  }

  /**
   * A position in a script (an allocation profile's frame) in the original source, when the
   * script has a usable source map; null otherwise (the position stands as it ran). With `fn` (a
   * function's name and 0-based start), also the name the source map gives that function.
   * @param {string} url the script's URL as V8 names it
   * @param {{line: number, column: number}} position 1-based
   * @param {HeapAnalysis} analysis a snapshot of the process that ran it, for its copy of the script
   * @param {{name: string, line: number, column: number}} [fn]
   * @returns {(OriginalPosition & {function?: string}) | null}
   */
  mapPosition (url, position, analysis, fn) {
    if (url === '' || url.startsWith('node:')) return null
    const { scripts, positions, names } = this.#sources
    const loaded = scripts.mapOf(url, scripts.read(url, analysis))
    if (loaded.map === null) return null
    const mapped = positions.of(loaded.map, position)
    if ('note' in mapped) return null
    const name = fn === undefined ? null : names.functionName(analysis, url, fn.name, fn)
    return name === null ? mapped : { ...mapped, function: name }
  }

  /**
   * The class table's names that stand for classes a minifier renamed, with the names people
   * wrote (renamed-classes.js).
   * @param {Iterable<string>} shown the names a report shows
   * @param {HeapAnalysis} analysis
   * @returns {Map<string, string>}
   */
  renamedClasses (shown, analysis) {
    return renamedClasses(shown, analysis, this.#sources.names)
  }
}
