// --source-maps and --source-root, shared by the commands that diff: where the scripts' source
// maps and files are when the snapshots come from another machine (a container's /app).
import { statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { UsageError } from './output.js'

export const SOURCE_OPTIONS = {
  'source-maps': {
    type: /** @type {const} */ ('string'),
    describe: 'A directory of source maps kept apart from the code (found by <script>.map or the name its sourceMappingURL comment gives)'
  },
  'source-root': {
    type: /** @type {const} */ ('string'),
    array: true,
    describe: 'FROM=TO: read the process\'s files under FROM from TO on this machine, as --source-root /app=. (repeatable)'
  }
}

/**
 * yargs `.check()`: bad source options are bad usage, said before any snapshot is read.
 * @param {Record<string, unknown>} argv
 */
export function checkSourceOptions (argv) {
  const { sourceMaps, sourceRoot = [] } = /** @type {{sourceMaps?: string, sourceRoot?: string[]}} */ (argv)
  if (sourceMaps !== undefined) {
    let directory = false
    try {
      directory = statSync(sourceMaps).isDirectory()
    } catch {}
    if (!directory) throw new UsageError(`--source-maps expects a directory of .map files, got ${JSON.stringify(sourceMaps)}, which is not one`)
  }
  for (const root of sourceRoot) {
    const at = root.indexOf('=')
    if (at <= 0 || at === root.length - 1 || !isAbsolute(root.slice(0, at))) {
      throw new UsageError(`--source-root expects FROM=TO with FROM an absolute path of the process, as /app=., got ${JSON.stringify(root)}`)
    }
  }
  return true
}

/**
 * The diff options of the source flags.
 * @param {{sourceMaps?: string, sourceRoot?: string[]}} argv
 * @returns {{sourceMaps?: string, sourceRoots: string[]}}
 */
export function sourceOptionsOf ({ sourceMaps, sourceRoot = [] }) {
  return { ...(sourceMaps === undefined ? {} : { sourceMaps }), sourceRoots: sourceRoot }
}
