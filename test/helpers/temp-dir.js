// Temporary directories for a test file: removed when its test process exits, whatever the
// outcome, so that runs do not pile snapshot copies up in the system's temp directory.
import { rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** @type {Set<string>} */
const dirs = new Set()

process.once('exit', () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/**
 * A new empty directory under the system's temp directory.
 * @param {string} prefix e.g. 'leakdiff-usage-'
 * @returns {Promise<string>}
 */
export async function tempDir (prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  dirs.add(dir)
  return dir
}
