import { open, rename, unlink, chmod, mkdir, readdir } from 'node:fs/promises'
import { partialPath } from './file-names.js'

/**
 * Writes `data` to `finalPath` through a temporary name in the same directory, so the final name
 * appears (atomically, by rename) only when the content is complete. The file is 0600 from its
 * creation: it may describe what a heap snapshot holds.
 * @param {string} finalPath
 * @param {string} data
 * @param {{pid: number, threadId?: number, inFlight: Set<string>}} owner  temporary files being written, kept safe from cleanup
 */
export async function writeFileAtomic (finalPath, data, { pid, threadId = 0, inFlight }) {
  const temp = partialPath(finalPath, pid, threadId)
  inFlight.add(temp)
  try {
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.chmod(0o600)
      await handle.writeFile(data)
    } finally {
      await handle.close()
    }
    await rename(temp, finalPath)
  } catch (error) {
    await removeQuietly(temp)
    throw error
  } finally {
    inFlight.delete(temp)
  }
}

/**
 * Removes a file; a file that is already gone (or cannot be removed) is not an error here.
 * @param {string} path
 * @returns {Promise<boolean>} whether it was removed
 */
export async function removeQuietly (path) {
  try {
    await unlink(path)
    return true
  } catch {
    return false
  }
}

/**
 * Creates `dir` (0700) when it is missing. A directory that already exists keeps its mode: it is
 * the operator's.
 * @param {string} dir
 */
export async function ensureDirectory (dir) {
  const created = await mkdir(dir, { recursive: true, mode: 0o700 })
  if (created !== undefined) await chmod(dir, 0o700)
}

/**
 * @param {string} dir
 * @returns {Promise<string[]>} the names in `dir`, or none when it cannot be read
 */
export async function listQuietly (dir) {
  try {
    return await readdir(dir)
  } catch {
    return []
  }
}

/**
 * Whether a process with this pid exists (EPERM: it exists but belongs to someone else).
 * @param {number} pid
 * @returns {boolean}
 */
export function isProcessAlive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM'
  }
}
