import { join, basename } from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * The names the agent writes, all in one directory:
 *
 *   leakdiff-<pid>-<start>.series.json                  the series: planned files, then the outcome
 *   leakdiff-<pid>-<start>-<k>of<n>.heapsnapshot        snapshot k of n (.heapsnapshot.gz with gzip)
 *   leakdiff-<pid>-<start>-<k>of<n>.meta.json           its sidecar
 *   leakdiff-<pid>-<start>-<k>of<n>.heapprofile         live allocation samples at that snapshot
 *   .leakdiff-<pid>-<random>.<final suffix>.partial     a file being written (never a final name)
 *
 * <start> is the UTC start time of the series (20261121T101502.123Z), shared by all its files, so the
 * names of a series are known as soon as it starts; k is zero-padded to the width of n, so names
 * sort in time order within one pid. `<pid>-<start>` is the series id.
 */

const SNAPSHOT_NAME = /^leakdiff-(\d+)-(\d{8}T\d{6}\.\d{3}Z)-(\d+)of(\d+)\.(heapsnapshot|heapsnapshot\.gz|meta\.json|heapprofile)$/
const SERIES_NAME = /^leakdiff-(\d+)-(\d{8}T\d{6}\.\d{3}Z)\.series\.json$/
const PARTIAL_NAME = /^\.leakdiff-(\d+)-[0-9a-f]+\..+\.partial$/

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
 * @returns {string} the series id, `<pid>-<stamp>`
 */
export function seriesId (pid, startedAt) {
  return `${pid}-${formatStamp(startedAt)}`
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
 * @param {{dir: string, pid: number, startedAt: Date, count: number, gzip?: boolean}} series
 * @returns {{id: string, seriesFile: string, snapshots: string[], sidecars: string[]}}
 */
export function seriesFileNames ({ dir, pid, startedAt, count, gzip = false }) {
  const id = seriesId(pid, startedAt)
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
    return {
      kind: snapshot[5] === 'meta.json' ? 'sidecar' : snapshot[5] === 'heapprofile' ? 'profile' : 'snapshot',
      pid: Number(snapshot[1]),
      stamp: snapshot[2],
      seriesId: `${snapshot[1]}-${snapshot[2]}`,
      index: Number(snapshot[3]),
      count: Number(snapshot[4]),
      gzip: snapshot[5] === 'heapsnapshot.gz'
    }
  }
  const series = SERIES_NAME.exec(base)
  if (series) {
    return { kind: 'series', pid: Number(series[1]), stamp: series[2], seriesId: `${series[1]}-${series[2]}`, index: 0, count: 0, gzip: false }
  }
  return undefined
}

/**
 * A temporary name beside `finalPath`, unguessable so that nothing can be planted at it.
 * @param {string} finalPath
 * @param {number} pid
 * @returns {string}
 */
export function partialPath (finalPath, pid) {
  const suffix = /\.(heapsnapshot\.gz|heapsnapshot|heapprofile|meta\.json|series\.json)$/.exec(finalPath)?.[1] ?? 'file'
  return join(finalPath, '..', `.leakdiff-${pid}-${randomBytes(6).toString('hex')}.${suffix}.partial`)
}

/**
 * The pid that was writing a temporary file, or undefined when `name` is not one.
 * @param {string} name
 * @returns {number | undefined}
 */
export function partialOwner (name) {
  const match = PARTIAL_NAME.exec(basename(name))
  return match ? Number(match[1]) : undefined
}
