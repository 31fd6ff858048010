import { join, basename } from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * The names the agent writes, all in one directory:
 *
 *   leakdiff-<pid>-<start>.series.json                  the series: planned files, then the outcome
 *   leakdiff-<pid>-<start>-<k>of<n>.heapsnapshot        snapshot k of n (.heapsnapshot.gz with gzip)
 *   leakdiff-<pid>-<start>-<k>of<n>.meta.json           its sidecar
 *   leakdiff-<pid>-<start>-<k>of<n>.heapprofile         live allocation samples at that snapshot
 *   leakdiff-<pid>-t<thread>-<start>...                 the same files of worker thread <thread>
 *   .leakdiff-<pid>[t<thread>]-<random>.<final suffix>.partial  a file being written (never a final name)
 *
 * <start> is the UTC start time of the series (20261121T101502.123Z), shared by all its files, so the
 * names of a series are known as soon as it starts; k is zero-padded to the width of n, so names
 * sort in time order within one pid. `<pid>-<start>` is the series id (`<pid>-t<thread>-<start>` in
 * a worker thread; the threads of one signal share <start>). The main thread's names carry no
 * thread, so they read as they always have.
 */

const SNAPSHOT_NAME = /^leakdiff-(\d+)(?:-t(\d+))?-(\d{8}T\d{6}\.\d{3}Z)-(\d+)of(\d+)\.(heapsnapshot|heapsnapshot\.gz|meta\.json|heapprofile)$/
const SERIES_NAME = /^leakdiff-(\d+)(?:-t(\d+))?-(\d{8}T\d{6}\.\d{3}Z)\.series\.json$/
const PARTIAL_NAME = /^\.leakdiff-(\d+)(?:t(\d+))?-[0-9a-f]+\..+\.partial$/

/**
 * Formats a time as a sortable UTC stamp: 2026-11-21T10:15:02.123Z -> 20261121T101502.123Z.
 * @param {Date} date
 * @returns {string}
 */
export function formatStamp (date) {
  return date.toISOString().replace(/[-:]/g, '')
}

/**
 * @param {number} pid
 * @param {Date} startedAt
 * @param {number} [threadId]  0 for the main thread
 * @returns {string} the series id, `<pid>-<stamp>`, or `<pid>-t<thread>-<stamp>` in a worker thread
 */
export function seriesId (pid, startedAt, threadId = 0) {
  return `${pid}-${threadId > 0 ? `t${threadId}-` : ''}${formatStamp(startedAt)}`
}

/**
 * The base name (no extension) of snapshot `index` (1-based) of a series.
 * @param {string} id series id
 * @param {number} index
 * @param {number} count
 * @returns {string}
 */
function snapshotBase (id, index, count) {
  const width = String(count).length
  return `leakdiff-${id}-${String(index).padStart(width, '0')}of${count}`
}

/**
 * Every path a series will leave behind when it completes, so a caller that started or signalled
 * it knows what to wait for. A series is complete when its series file says `"status": "complete"`;
 * that file is renamed into place after the last snapshot and its sidecar.
 * @param {{dir: string, pid: number, startedAt: Date, count: number, gzip?: boolean, threadId?: number}} series
 *   threadId: the worker thread writing it (0, the default, is the main thread)
 * @returns {{id: string, seriesFile: string, snapshots: string[], sidecars: string[]}}
 */
export function seriesFileNames ({ dir, pid, startedAt, count, gzip = false, threadId = 0 }) {
  const id = seriesId(pid, startedAt, threadId)
  const snapshots = []
  const sidecars = []
  for (let index = 1; index <= count; index++) {
    const base = join(dir, snapshotBase(id, index, count))
    snapshots.push(`${base}.heapsnapshot${gzip ? '.gz' : ''}`)
    sidecars.push(`${base}.meta.json`)
  }
  return { id, seriesFile: join(dir, `leakdiff-${id}.series.json`), snapshots, sidecars }
}

/**
 * The sidecar of a snapshot written by the agent: `x.heapsnapshot[.gz]` -> `x.meta.json`.
 * @param {string} snapshotPath
 * @returns {string}
 */
export function sidecarPath (snapshotPath) {
  return snapshotPath.replace(/\.heapsnapshot(\.gz)?$/, '') + '.meta.json'
}

/**
 * The allocation profile written beside a snapshot: `x.heapsnapshot[.gz]` -> `x.heapprofile`.
 * @param {string} snapshotPath
 * @returns {string}
 */
export function profilePath (snapshotPath) {
  return snapshotPath.replace(/\.heapsnapshot(\.gz)?$/, '') + '.heapprofile'
}

/**
 * @typedef {object} ParsedName
 * @property {'snapshot' | 'sidecar' | 'profile' | 'series'} kind
 * @property {number} pid
 * @property {number} threadId  the thread that wrote it: 0 for the main thread
 * @property {string} stamp
 * @property {string} seriesId
 * @property {number} index  1-based; 0 for a series file
 * @property {number} count  0 for a series file
 * @property {boolean} gzip
 */

/**
 * Reads a file name the agent wrote; undefined for any other name.
 * @param {string} name a base name or a path
 * @returns {ParsedName | undefined}
 */
export function parseFileName (name) {
  const base = basename(name)
  const snapshot = SNAPSHOT_NAME.exec(base)
  if (snapshot) {
    const [, pid, thread, stamp, index, count, suffix] = snapshot
    return {
      kind: suffix === 'meta.json' ? 'sidecar' : suffix === 'heapprofile' ? 'profile' : 'snapshot',
      pid: Number(pid),
      threadId: Number(thread ?? 0),
      stamp,
      seriesId: seriesIdOf(pid, thread, stamp),
      index: Number(index),
      count: Number(count),
      gzip: suffix === 'heapsnapshot.gz'
    }
  }
  const series = SERIES_NAME.exec(base)
  if (series) {
    const [, pid, thread, stamp] = series
    return { kind: 'series', pid: Number(pid), threadId: Number(thread ?? 0), stamp, seriesId: seriesIdOf(pid, thread, stamp), index: 0, count: 0, gzip: false }
  }
  return undefined
}

/**
 * @param {string} pid
 * @param {string | undefined} thread
 * @param {string} stamp
 */
function seriesIdOf (pid, thread, stamp) {
  return `${pid}-${thread === undefined ? '' : `t${thread}-`}${stamp}`
}

/**
 * A temporary name beside `finalPath`, unguessable so that nothing can be planted at it. It names
 * the thread too: each thread's agent cleans up only its own stale files of a live process.
 * @param {string} finalPath
 * @param {number} pid
 * @param {number} [threadId]
 * @returns {string}
 */
export function partialPath (finalPath, pid, threadId = 0) {
  const suffix = /\.(heapsnapshot\.gz|heapsnapshot|heapprofile|meta\.json|series\.json)$/.exec(finalPath)?.[1] ?? 'file'
  return join(finalPath, '..', `.leakdiff-${pid}${threadId > 0 ? `t${threadId}` : ''}-${randomBytes(6).toString('hex')}.${suffix}.partial`)
}

/**
 * The pid that was writing a temporary file, or undefined when `name` is not one.
 * @param {string} name
 * @returns {number | undefined}
 */
export function partialOwner (name) {
  return partialWriter(name)?.pid
}

/**
 * The pid and thread that were writing a temporary file, or undefined when `name` is not one.
 * @param {string} name
 * @returns {{pid: number, threadId: number} | undefined}
 */
export function partialWriter (name) {
  const match = PARTIAL_NAME.exec(basename(name))
  return match ? { pid: Number(match[1]), threadId: Number(match[2] ?? 0) } : undefined
}
