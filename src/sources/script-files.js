// A script's text, whole. V8 writes every string of a snapshot cut at its
// --heap-snapshot-string-limit (1,024 characters by default; the agent's `stringLimit` changes it),
// script sources included, so the snapshot's copy of a real file is its first kilobyte. The file
// on disk (at the path the snapshot names, or under a --source-root) completes it, but only when
// it starts with the snapshot's copy: a checkout that moved on since the deploy has other lines.

import { readFileSync, statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readableScriptName } from '../signatures/source-location.js'
import { localPath } from './source-roots.js'
import { mayBeCutBySnapshot } from '../cut-text.js'
/** @import {SourceRoot} from './source-roots.js' */

/** Files larger than this are not read: no script of a service is, and it bounds the memory. */
export const MAX_FILE_BYTES = 64 << 20

/**
 * @typedef {object} ScriptFile
 * @property {string | null} text       the whole text when the file on disk matches the
 *   snapshot's copy, else the snapshot's copy (null when it has none)
 * @property {boolean} whole            `text` is the file on disk (so it is not cut)
 * @property {string | null} path       where the script is on this machine (null for `node:` and other URLs)
 * @property {boolean} matches          the file on disk starts with the snapshot's copy
 * @property {string | null} note       one line on why the disk could not help, when it matters
 */

export class ScriptFiles {
  #roots
  #cwd
  /** @type {Map<string, ScriptFile>} one entry per script asked for */
  #files = new Map()

  /**
   * @param {{roots?: SourceRoot[], cwd?: string}} [options]
   */
  constructor ({ roots = [], cwd = process.cwd() } = {}) {
    this.#roots = roots
    this.#cwd = cwd
  }

  /** Whether --source-root was given. */
  get rooted () {
    return this.#roots.length > 0
  }

  /**
   * The path on this machine of a path the process used (a source's, a map's).
   * @param {string} path absolute
   */
  localPath (path) {
    return localPath(path, this.#roots).path
  }

  /**
   * The script `url` names, read from disk once and checked against the snapshot's copy.
   * @param {string} url a Script's name: an absolute path, a `file://` URL, `node:...`
   * @param {string | null} snapshotText the snapshot's copy of its source
   * @returns {ScriptFile}
   */
  read (url, snapshotText) {
    let file = this.#files.get(url)
    if (file === undefined) {
      file = this.#read(url, snapshotText)
      this.#files.set(url, file)
    }
    return file
  }

  /**
   * @param {string} url
   * @param {string | null} snapshotText
   * @returns {ScriptFile}
   */
  #read (url, snapshotText) {
    const processPath = pathOfUrl(url)
    if (processPath === null) return { text: snapshotText, whole: false, path: null, matches: false, note: null }
    const { path, rooted } = localPath(processPath, this.#roots)
    const shown = readableScriptName(processPath, this.#cwd)
    const disk = readText(path)
    if (disk === null) {
      // Worth a line only when the file would have told more: the copy is (likely) cut, or the
      // user pointed at a checkout that lacks it.
      const cut = snapshotText === null || mayBeCutBySnapshot(snapshotText)
      const note = rooted
        ? `${shown} is not at ${readableScriptName(path, this.#cwd)} (--source-root): locations stay in the code that ran`
        : cut ? `${shown} is not on this machine (the snapshot holds its first ${snapshotText?.length ?? 0} characters): --source-root FROM=TO reads it from a checkout` : null
      return { text: snapshotText, whole: false, path, matches: false, note }
    }
    if (snapshotText === null) {
      return { text: null, whole: false, path, matches: false, note: `the snapshot holds no copy of ${shown} to check the file on disk against: locations stay in the code that ran` }
    }
    if (!disk.startsWith(snapshotText)) {
      return { text: snapshotText, whole: false, path, matches: false, note: `${readableScriptName(path, this.#cwd)} on disk is not the code that ran (it starts otherwise than the snapshot's copy): locations stay in the code that ran` }
    }
    return { text: disk, whole: true, path, matches: true, note: null }
  }
}

/**
 * The file path a Script name stands for, or null (`node:fs`, `evalmachine.<anonymous>`, `https:`).
 * @param {string} url
 */
export function pathOfUrl (url) {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url)
    } catch {
      return null
    }
  }
  return isAbsolute(url) ? url : null
}

/**
 * A text file's contents without a byte order mark (Node drops it before V8 sees the source), or
 * null when it is missing, not a file, unreadable or too large.
 * @param {string} path
 */
export function readText (path) {
  try {
    const stats = statSync(path)
    if (!stats.isFile() || stats.size > MAX_FILE_BYTES) return null
    const text = readFileSync(path, 'utf8')
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  } catch {
    return null
  }
}
