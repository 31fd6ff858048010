// The capture agent writes `x.meta.json` beside each `x.heapsnapshot[.gz]` (docs/agent.md, "The
// sidecar"). When it is there, the diff knows when each snapshot was taken, which process it came
// from, and the process's limits: enough for a rate of growth and a time to the limit.

import { readFile } from 'node:fs/promises'
/** @import {MemoryAround} from '../diff/memory-split.js' */
/** @import {SnapshotMeta, WatchTriggerMeta} from '../diff/snapshot-meta.js' */

/**
 * The sidecar path of a snapshot: `x.heapsnapshot[.gz]` -> `x.meta.json` (the agent's naming,
 * sidecarPath in leakdiff/agent); null for other names.
 * @param {string} snapshotPath
 */
export function sidecarPathOf (snapshotPath) {
  return /\.heapsnapshot(\.gz)?$/.test(snapshotPath) ? snapshotPath.replace(/\.heapsnapshot(\.gz)?$/, '.meta.json') : null
}

/**
 * Reads the sidecar of a snapshot. No sidecar is the normal case for snapshots taken without the
 * agent: `{meta: null}`. A file that is there but is not a sidecar is ignored with a warning.
 * @param {string} snapshotPath
 * @returns {Promise<{meta: SnapshotMeta | null, warning?: string}>}
 */
export async function readSidecar (snapshotPath) {
  const path = sidecarPathOf(snapshotPath)
  if (path === null) return { meta: null }
  let text
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return { meta: null }
    return { meta: null, warning: `ignored ${path}: ${/** @type {Error} */ (error).message}` }
  }
  /** @type {any} */
  let data
  try {
    data = JSON.parse(text)
  } catch {
    return { meta: null, warning: `ignored ${path}: expected JSON, got text that does not parse` }
  }
  if (data === null || typeof data !== 'object' || data.kind !== 'leakdiff-snapshot-meta' || data.schemaVersion !== 1) {
    return { meta: null, warning: `ignored ${path}: expected a leakdiff sidecar (kind "leakdiff-snapshot-meta", schemaVersion 1), got kind ${JSON.stringify(data?.kind)}, schemaVersion ${JSON.stringify(data?.schemaVersion)}` }
  }
  if (typeof data.takenAt !== 'string' || Number.isNaN(Date.parse(data.takenAt))) {
    return { meta: null, warning: `ignored ${path}: expected an ISO time in takenAt, got ${JSON.stringify(data.takenAt)}` }
  }
  const number = (/** @type {unknown} */ value) => (typeof value === 'number' && Number.isFinite(value) ? value : null)
  const string = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : null)
  const limit = data.memoryLimit
  return {
    meta: {
      takenAt: new Date(data.takenAt).toISOString(),
      pid: number(data.pid),
      hostname: string(data.hostname),
      nodeVersion: string(data.nodeVersion),
      script: string(data.script),
      uptimeSeconds: number(data.uptimeSeconds),
      heapSizeLimit: number(data.heapSizeLimit) ?? number(data.heapStatistics?.heap_size_limit),
      heapLimit: number(data.heapLimit?.bytes) !== null && number(data.heapLimit?.giveUpBytes) !== null ? { bytes: data.heapLimit.bytes, giveUpBytes: data.heapLimit.giveUpBytes } : null,
      heapUsed: number(data.heapStatistics?.used_heap_size) ?? number(data.memoryUsage?.heapUsed),
      rss: number(data.memoryUsage?.rss),
      memoryLimit: limit && number(limit.bytes) !== null ? { bytes: limit.bytes, source: string(limit.source) ?? 'unknown' } : null,
      thread: readThread(data.thread),
      memory: readMemory(data.memory),
      trigger: readTrigger(data.series?.trigger),
      // A base name only: a sidecar must not send the reader elsewhere.
      allocationProfile: /^[^/\\]+\.heapprofile$/.test(data.allocationProfile?.file) ? data.allocationProfile.file : null,
      allocationInterval: number(data.allocationProfile?.intervalBytes),
      allocationRun: string(data.allocationProfile?.run)
    }
  }
}

/**
 * @param {any} memory  `memory` of a sidecar: {before, after, writeRssBytes}
 * @returns {MemoryAround | null}
 */
function readMemory (memory) {
  const number = (/** @type {unknown} */ value) => (typeof value === 'number' && Number.isFinite(value) ? value : null)
  const before = memory?.before
  const rss = number(before?.rss)
  const heapUsed = number(before?.heapUsed)
  const external = number(before?.external)
  const arrayBuffers = number(before?.arrayBuffers)
  if (rss === null || heapUsed === null || external === null || arrayBuffers === null) return null
  return {
    rss,
    heapUsed,
    external,
    arrayBuffers,
    cgroupUsage: number(before.cgroup?.usageBytes),
    heapMappingRss: number(before.smaps?.heapRss),
    writeRss: Math.max(0, number(memory.writeRssBytes) ?? 0)
  }
}

/**
 * @param {any} thread  `thread` of a sidecar
 * @returns {SnapshotMeta['thread']}
 */
function readThread (thread) {
  if (thread === null || typeof thread !== 'object' || !Number.isSafeInteger(thread.id) || thread.id < 0) return null
  const string = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : null)
  return { id: thread.id, main: thread.id === 0, file: string(thread.file), name: string(thread.name) }
}

/**
 * @param {any} trigger  `series.trigger` of a sidecar
 * @returns {WatchTriggerMeta | null}
 */
function readTrigger (trigger) {
  if (trigger === null || typeof trigger !== 'object' || trigger.kind !== 'watch') return null
  const number = (/** @type {unknown} */ value) => (typeof value === 'number' && Number.isFinite(value) ? value : null)
  const reason = ['growth', 'time-to-limit', 'fraction'].includes(trigger.reason) ? trigger.reason : null
  const bytesPerHour = number(trigger.bytesPerHour)
  const spanMs = number(trigger.spanMs)
  const heapAfterGc = number(trigger.heapAfterGc)
  if (reason === null || bytesPerHour === null || spanMs === null || heapAfterGc === null) return null
  const limit = trigger.limit
  const limitBytes = number(limit?.bytes)
  return {
    reason,
    ...(trigger.measure === 'rss' ? { measure: /** @type {const} */ ('rss') } : {}),
    bytesPerHour,
    spanMinutes: spanMs / 60_000,
    heapAfterGc,
    limit: limitBytes === null
      ? null
      : {
          kind: limit.kind === 'memory' ? 'memory' : 'heap',
          bytes: limitBytes,
          source: typeof limit.source === 'string' ? limit.source : 'unknown',
          minutesToLimit: number(limit.minutesToLimit),
          fraction: number(limit.fraction) ?? 0
        }
  }
}

/**
 * Whether sidecars show two snapshots to come from different processes: another host, another
 * pid, or the same pid started at another time (a restarted container often gets its old pid).
 * @param {SnapshotMeta} a
 * @param {SnapshotMeta} b
 * @returns {string | null} why they differ, or null when nothing says so
 */
export function processDifference (a, b) {
  if (a.hostname !== null && b.hostname !== null && a.hostname !== b.hostname) return `hosts ${a.hostname} and ${b.hostname}`
  if (a.pid !== null && b.pid !== null && a.pid !== b.pid) return `pids ${a.pid} and ${b.pid}`
  // Each thread has a heap of its own: object ids of two threads never line up.
  if ((a.thread?.id ?? 0) !== (b.thread?.id ?? 0)) return `threads ${a.thread?.id ?? 0} and ${b.thread?.id ?? 0} of pid ${a.pid}`
  if (a.uptimeSeconds !== null && b.uptimeSeconds !== null) {
    const startA = Date.parse(a.takenAt) - a.uptimeSeconds * 1000
    const startB = Date.parse(b.takenAt) - b.uptimeSeconds * 1000
    // Uptime is rounded to the millisecond and the clock may be stepped a little between writes.
    if (Math.abs(startA - startB) > 5000) return `pid ${a.pid} started at ${new Date(startA).toISOString()} and at ${new Date(startB).toISOString()} (a restart)`
  }
  return null
}

/**
 * Why the sidecars say the snapshots come from different processes, or null when none says so
 * (a snapshot without a sidecar says nothing).
 * @param {Array<SnapshotMeta | null>} metas
 */
export function sidecarsDifference (metas) {
  const known = metas.filter((meta) => meta !== null)
  for (let i = 1; i < known.length; i++) {
    const difference = processDifference(known[0], known[i])
    if (difference !== null) return difference
  }
  return null
}
