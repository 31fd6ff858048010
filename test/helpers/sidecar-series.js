// Copies of a series of snapshots with their sidecars changed on the way, for the sidecar tests.
import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from './temp-dir.js'

/**
 * @param {string} snapshot
 * @returns {Promise<any>}
 */
export async function sidecarOf (snapshot) {
  return JSON.parse(await readFile(snapshot.replace(/\.heapsnapshot$/, '.meta.json'), 'utf8'))
}

/**
 * Copies the series into a new directory, changing sidecars on the way.
 * @param {string[]} files
 * @param {(meta: any, index: number) => any} change
 */
export async function copySeries (files, change) {
  const dir = await tempDir('leakdiff-sidecars-')
  const copies = []
  for (const [i, file] of files.entries()) {
    const copy = join(dir, `${i + 1}.heapsnapshot`)
    await copyFile(file, copy)
    const meta = change(await sidecarOf(file), i)
    if (meta !== undefined) await writeFile(copy.replace(/\.heapsnapshot$/, '.meta.json'), typeof meta === 'string' ? meta : JSON.stringify(meta))
    copies.push(copy)
  }
  return copies
}
