// A position in the code that ran, in the source people wrote: through a script's source map, with
// the original line as a snippet when the map or the disk has its text, and the original file as
// people read its name.

import { isAbsolute } from 'node:path'
import { GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND, originalPositionFor, sourceContentFor } from '@jridgewell/trace-mapping'
import { readableScriptName } from '../signatures/source-location.js'
import { pathOfUrl, readText } from './script-files.js'
/** @import {TraceMap} from '@jridgewell/trace-mapping' */
/** @import {ScriptFiles} from './script-files.js' */

/** A snippet longer than this is cut: a minified line is no snippet. */
export const MAX_SNIPPET = 160

/**
 * @typedef {object} OriginalPosition
 * @property {string} file    as people read it (originalFile)
 * @property {number} line    1-based
 * @property {number} column  1-based
 * @property {string | null} snippet  the original line, trimmed
 */

export class OriginalPositions {
  #files
  #cwd
  /** @type {Map<string, string[] | null>} per original source, its lines */
  #sources = new Map()

  /**
   * @param {ScriptFiles} files  where the process's paths are on this machine
   * @param {string} cwd
   */
  constructor (files, cwd) {
    this.#files = files
    this.#cwd = cwd
  }

  /**
   * The original position of a 1-based generated one, or why there is none. The nearest mapping
   * at or before the column on that line, else the first after it (a function's start may fall
   * between a bundle's mappings).
   * @param {TraceMap} map
   * @param {{line: number, column: number}} location
   * @returns {OriginalPosition | {note: string}}
   */
  of (map, location) {
    const at = { line: location.line, column: location.column - 1 }
    let position = originalPositionFor(map, { ...at, bias: GREATEST_LOWER_BOUND })
    if (position.source === null) position = originalPositionFor(map, { ...at, bias: LEAST_UPPER_BOUND })
    if (position.source === null || position.line === null || position.column === null) {
      return { note: `has no mapping for line ${location.line} column ${location.column}` }
    }
    const lines = this.#linesOf(map, position.source)
    if (lines !== null && position.line > lines.length) {
      return { note: `points past the end of ${this.originalFile(position.source)} (line ${position.line} of ${lines.length})` }
    }
    const text = lines === null ? null : lines[position.line - 1].trim()
    const snippet = text === null || text === '' ? null : text.length > MAX_SNIPPET ? `${text.slice(0, MAX_SNIPPET - 1)}…` : text
    return { file: this.originalFile(position.source), line: position.line, column: position.column + 1, snippet }
  }

  /**
   * An original source as people read it: a path relative to the working directory when it is on
   * this machine under it, a webpack source by its path in the project, else as the map names it.
   * @param {string} source a resolved source of a map
   */
  originalFile (source) {
    // webpack names sources `webpack://<namespace>/./src/x.ts`: the path in the project is the point.
    const webpack = /^webpack:\/\/[^/]*\/(?:\.\/)?(.+)$/.exec(source)
    if (webpack !== null) return webpack[1]
    const path = pathOfUrl(source)
    if (path === null) return source
    const local = this.#files.localPath(path)
    return readableScriptName(isAbsolute(local) ? local : path, this.#cwd)
  }

  /**
   * An original source's lines: the map's sourcesContent, else the file on disk (under a
   * --source-root when the map names the process's paths), else null.
   * @param {TraceMap} map
   * @param {string} source a resolved source of the map
   */
  #linesOf (map, source) {
    const key = `${map.file ?? ''}\0${source}`
    let lines = this.#sources.get(key)
    if (lines === undefined) {
      let text = sourceContentFor(map, source)
      if (text === null) {
        const path = pathOfUrl(source)
        text = path === null ? null : readText(this.#files.localPath(path)) ?? readText(path)
      }
      lines = text === null ? null : text.split(/\r?\n|\r/)
      this.#sources.set(key, lines)
    }
    return lines
  }
}
