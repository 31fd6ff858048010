import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseFileName, partialWriter } from './file-names.js'
import { isProcessAlive, listQuietly, removeQuietly } from './fs-safe.js'

/**
 * Removes temporary files left by writes that never finished: those of processes that are gone,
 * and this thread's own that it is not writing now (a restarted container often gets its old pid).
 * Another thread's files of this process are its own business: they may be being written now.
 * @param {string} dir
 * @param {{pid: number, threadId?: number, inFlight: Set<string>}} owner
 * @returns {Promise<string[]>} the paths removed
 */
export async function removeStalePartials (dir, { pid, threadId = 0, inFlight }) {
  const removed = []
  for (const name of await listQuietly(dir)) {
    const writer = partialWriter(name)
    if (writer === undefined) continue
    const path = join(dir, name)
    const stale = writer.pid === pid ? writer.threadId === threadId && !inFlight.has(path) : !isProcessAlive(writer.pid)
    if (stale && await removeQuietly(path)) removed.push(path)
  }
  return removed
}

/**
 * @param {string} dir
 * @param {string} name
 * @returns {Promise<boolean>} whether the series file says a live process is still writing it
 */
async function isRunningSeries (dir, name) {
  try {
    const series = JSON.parse(await readFile(join(dir, name), 'utf8'))
    return series.status === 'running' && isProcessAlive(Number(series.pid))
  } catch {
    return false
  }
}

/**
 * Keeps at most `keep` snapshots in `dir`, counting every pid's: the directory is what fills the
 * disk, and cluster workers share it. The oldest go first (by series start time, then position in
 * the series), each with its sidecar; snapshots of a series still being written by a live process
 * are never removed, nor are those of `protect`. A series file goes when none of its snapshots is left.
 * @param {string} dir
 * @param {number} keep  0 keeps everything
 * @param {Set<string>} protect  series ids not to touch
 * @returns {Promise<string[]>} the paths removed
 */
export async function pruneSnapshots (dir, keep, protect) {
  if (keep === 0) return []
  const names = await listQuietly(dir)
  /** @type {Map<string, {stamp: string, pid: number, index: number, seriesId: string, files: string[]}>} */
  const snapshots = new Map()
  /** @type {Map<string, string>} */
  const seriesFiles = new Map()
  for (const name of names) {
    const parsed = parseFileName(name)
    if (!parsed) continue
    if (parsed.kind === 'series') {
      seriesFiles.set(parsed.seriesId, name)
      continue
    }
    const key = `${parsed.seriesId}/${parsed.index}`
    const entry = snapshots.get(key) ?? { stamp: parsed.stamp, pid: parsed.pid, index: parsed.index, seriesId: parsed.seriesId, files: [] }
    entry.files.push(name)
    snapshots.set(key, entry)
  }
  const guarded = new Set(protect)
  for (const [id, name] of seriesFiles) {
    if (!guarded.has(id) && await isRunningSeries(dir, name)) guarded.add(id)
  }
  const removed = []
  for (const entry of snapshots.values()) {
    // A sidecar whose snapshot is gone (removed by hand, or a prune that was cut short).
    if (guarded.has(entry.seriesId) || entry.files.some((name) => name.includes('.heapsnapshot'))) continue
    for (const name of entry.files) {
      if (await removeQuietly(join(dir, name))) removed.push(join(dir, name))
    }
    snapshots.delete(`${entry.seriesId}/${entry.index}`)
  }
  const ordered = [...snapshots.values()]
    .sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : a.pid - b.pid || a.index - b.index))
  let excess = ordered.length - keep
  for (const entry of ordered) {
    if (excess <= 0) break
    if (guarded.has(entry.seriesId)) continue
    for (const name of entry.files) {
      if (await removeQuietly(join(dir, name))) removed.push(join(dir, name))
    }
    snapshots.delete(`${entry.seriesId}/${entry.index}`)
    excess--
  }
  const remaining = new Set([...snapshots.values()].map((entry) => entry.seriesId))
  for (const [id, name] of seriesFiles) {
    if (!remaining.has(id) && !guarded.has(id) && await removeQuietly(join(dir, name))) removed.push(join(dir, name))
  }
  return removed
}
