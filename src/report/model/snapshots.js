// Where the snapshots come from: each file, the one process its sidecars name, and what made the
// agent's watch mode take the series.
/** @import {WatchTriggerMeta} from '../../diff/snapshot-meta.js' */
import { optional } from './optional-field.js'

/**
 * @typedef {object} SnapshotInfo
 * @property {string} path
 * @property {number} bytes
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} totalSize
 * @property {string | null} takenAt  ISO time: the sidecar's capture time, else the file's
 *   modification time (null for streams)
 * @property {'sidecar' | 'mtime' | null} takenAtSource
 * @property {number | null} pid          from the sidecar (null without one)
 * @property {string | null} hostname     from the sidecar
 * @property {string | null} nodeVersion  from the sidecar
 * @property {number | null} heapUsed     bytes, from the sidecar (V8's used heap before the write)
 * @property {number | null} rss          bytes, from the sidecar
 */

/**
 * @typedef {object} Process  the one process every sidecar names
 * @property {number | null} pid
 * @property {string | null} hostname
 * @property {string | null} nodeVersion
 * @property {string | null} script
 * @property {Thread} [thread]  the worker thread whose heap the snapshots are; absent for the main thread
 */

/**
 * @typedef {object} Thread
 * @property {number} id           the thread id (0 is the main thread)
 * @property {boolean} main
 * @property {string | null} file  the worker's script
 * @property {string | null} name  the name given to the Worker
 */

/**
 * @typedef {object} Capture  why the agent's watch mode took the series by itself
 * @property {'growth' | 'time-to-limit' | 'fraction'} reason
 * @property {'heap' | 'rss'} [measure]  what grew: absent for the heap after GC, `rss` for the process's RSS
 * @property {number} bytesPerHour
 * @property {number} spanMinutes
 * @property {number} heapAfterGc
 * @property {{kind: 'heap' | 'memory', bytes: number, source: string, minutesToLimit: number | null, fraction: number} | null} limit
 */

/**
 * @param {SnapshotInfo} info
 * @returns {SnapshotInfo}
 */
export function snapshotInfoModel (info) {
  return {
    path: info.path,
    bytes: info.bytes,
    nodeCount: info.nodeCount,
    edgeCount: info.edgeCount,
    totalSize: info.totalSize,
    takenAt: info.takenAt,
    takenAtSource: info.takenAtSource,
    pid: info.pid,
    hostname: info.hostname,
    nodeVersion: info.nodeVersion,
    heapUsed: info.heapUsed,
    rss: info.rss
  }
}

/**
 * @param {Process} found
 * @returns {Process}
 */
export function processModel (found) {
  const { thread } = found
  return {
    pid: found.pid,
    hostname: found.hostname,
    nodeVersion: found.nodeVersion,
    script: found.script,
    ...optional('thread', thread && { id: thread.id, main: thread.main, file: thread.file, name: thread.name })
  }
}

/**
 * @param {WatchTriggerMeta} trigger
 * @returns {Capture}
 */
export function captureModel (trigger) {
  const { limit } = trigger
  return {
    reason: trigger.reason,
    ...optional('measure', trigger.measure),
    bytesPerHour: trigger.bytesPerHour,
    spanMinutes: trigger.spanMinutes,
    heapAfterGc: trigger.heapAfterGc,
    limit: limit && { kind: limit.kind, bytes: limit.bytes, source: limit.source, minutesToLimit: limit.minutesToLimit, fraction: limit.fraction }
  }
}
