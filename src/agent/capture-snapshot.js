import { rename, statfs } from 'node:fs/promises'
import { writeSnapshotFile } from './write-snapshot.js'
import { measureHeadroom } from './memory-limits.js'
import { gzipFile } from './compress.js'
import { buildSidecar } from './sidecar.js'
import { partialPath, profilePath, sidecarPath } from './file-names.js'
import { readProfileFor } from './alloc-sampler.js'
import { removeQuietly, writeFileAtomic } from './fs-safe.js'
import { formatBytes, formatPause } from './events.js'
import { currentThread } from './thread-info.js'
import { memoryReading, readCgroupReading, readSmaps } from './process-memory.js'

/** @import {AgentConfig} from './config.js' */
/** @import {WriteCostModel} from './write-cost.js' */
/** @import {SeriesInfo} from './sidecar.js' */
/** @import {EventSink} from './events.js' */
/** @import {AllocationSampler} from './alloc-sampler.js' */

/**
 * @typedef {object} CapturedSnapshot
 * @property {string} path      the snapshot file (.heapsnapshot, or .heapsnapshot.gz)
 * @property {string} sidecar   its .meta.json
 * @property {number} bytes     size of `path`
 * @property {number} durationMs  the pause the write caused
 * @property {number} startedMs   performance.now() when the write began
 */

// Compressed snapshots are a fifth or less of the original; both exist until compression ends.
const GZIP_DISK_FACTOR = 1.3

/**
 * Decides whether a write is safe now. Returns the reason to refuse, or the numbers the write
 * goes ahead with.
 * @param {AgentConfig} config
 * @param {WriteCostModel} cost
 * @returns {Promise<{refusal: string} | {headroom: import('./memory-limits.js').Headroom, estimatedPeakBytes: number}>}
 */
export async function checkSafety (config, cost) {
  const { heapUsed, rss } = process.memoryUsage()
  const fileEstimate = Math.round(cost.estimateFile(heapUsed) * (config.gzip ? GZIP_DISK_FACTOR : 1))
  const disk = await statfs(config.dir)
  const freeBytes = disk.bavail * disk.bsize
  if (freeBytes - fileEstimate < config.minFreeBytes) {
    return {
      refusal: `not enough disk space in ${config.dir}: the snapshot may take ~${formatBytes(fileEstimate)} and ` +
        `${formatBytes(config.minFreeBytes)} must stay free (LEAKDIFF_MIN_FREE), but ${formatBytes(freeBytes)} is free`
    }
  }
  const headroom = await measureHeadroom({ memoryLimitBytes: config.memoryLimitBytes, rssBytes: rss })
  const estimatedPeakBytes = cost.estimateMemory(heapUsed)
  if (headroom.availableBytes - estimatedPeakBytes < config.minHeadroomBytes) {
    return {
      refusal: `not enough memory: the write may add ~${formatBytes(estimatedPeakBytes)} at its peak (heapUsed ` +
        `${formatBytes(heapUsed)}) and ${formatBytes(config.minHeadroomBytes)} must stay free (LEAKDIFF_MIN_HEADROOM), ` +
        `but ${formatBytes(headroom.availableBytes)} is available (${headroom.limitedBy})`
    }
  }
  return { headroom, estimatedPeakBytes }
}

/** @returns {Promise<void>} */
function freshTick () {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * Takes one snapshot of a series: safety checks, the write (under a temporary name, renamed when
 * complete), optional gzip, then the sidecar. Returns the refusal instead when a check fails;
 * throws a CaptureError (or a file system error) when something breaks, leaving no partial file.
 * @param {{config: AgentConfig, cost: WriteCostModel, owner: {pid: number, threadId?: number, inFlight: Set<string>},
 *   snapshotPath: string, series: SeriesInfo, emit: EventSink, keepAlive?: boolean, sampler?: AllocationSampler | null,
 *   thread?: import('./thread-info.js').ThreadInfo}} input
 *   `snapshotPath` is the uncompressed final name; `keepAlive` false lets the host exit during gzip;
 *   `sampler`'s live samples are saved beside the snapshot (`x.heapprofile`) and named in the sidecar;
 *   `thread` is the thread whose heap this is (the sidecar names it)
 * @returns {Promise<{refusal: string} | CapturedSnapshot>}
 */
export async function captureSnapshot ({ config, cost, owner, snapshotPath, series, emit, keepAlive = true, sampler = null, thread = currentThread() }) {
  const safety = await checkSafety(config, cost)
  if ('refusal' in safety) return safety
  const where = { seriesId: series.id, index: series.index, count: series.count }

  // Read just before the write (the cgroup's files and smaps are read asynchronously, so before
  // the fresh tick); memoryUsage() is read inside writeSnapshotFile, next to the write.
  const [cgroupBefore, smaps] = await Promise.all([readCgroupReading(), readSmaps()])
  // A fresh tick: the stack below the write holds only the event loop and this agent.
  await freshTick()
  const temp = partialPath(snapshotPath, owner.pid, owner.threadId)
  owner.inFlight.add(temp)
  const takenAt = new Date()
  // Read with takenAt: the reader works out when the process started from the two, and a write
  // that takes seconds must not look like a restart.
  const uptimeSeconds = process.uptime()
  const startedMs = performance.now()
  let write
  try {
    write = writeSnapshotFile(temp, { stringLimit: config.stringLimit })
    await rename(temp, snapshotPath)
  } catch (error) {
    await removeQuietly(temp)
    throw error
  } finally {
    owner.inFlight.delete(temp)
  }
  const cgroupAfter = await readCgroupReading()
  const memory = {
    before: memoryReading(write.memoryUsage, cgroupBefore, smaps),
    after: memoryReading(write.memoryAfter, cgroupAfter),
    // What the write left in the process: the diff shows it as the write's, never as growth.
    writeRssBytes: Math.max(0, write.memoryAfter.rss - write.memoryUsage.rss)
  }
  cost.learn({ heapUsed: write.memoryUsage.heapUsed, peakExtraBytes: write.peakExtraBytes, peakExact: write.peakExact, fileBytes: write.bytes })
  const peak = write.peakExact ? `+${formatBytes(write.peakExtraBytes)} RSS` : `at most +${formatBytes(write.peakExtraBytes)} RSS`
  emit({
    type: 'snapshot',
    message: `wrote ${snapshotPath} (${formatBytes(write.bytes)}, paused ${formatPause(write.durationMs)}, ${peak})`,
    ...where,
    path: snapshotPath,
    bytes: write.bytes,
    durationMs: write.durationMs
  })
  const saveProfile = await readProfileFor(sampler, profilePath(snapshotPath), owner, emit, where)

  let path = snapshotPath
  let bytes = write.bytes
  if (config.gzip) {
    try {
      bytes = await gzipFile(snapshotPath, `${snapshotPath}.gz`, owner, { keepAlive })
      path = `${snapshotPath}.gz`
      emit({ type: 'compressed', message: `compressed ${path} (${formatBytes(bytes)})`, ...where, path, bytes })
    } catch (error) {
      emit({ type: 'error', message: `could not compress ${snapshotPath}, kept it uncompressed: ${describeError(error)}`, ...where, path, error })
    }
  }
  const sidecar = sidecarPath(path)
  const profile = await saveProfile()
  const allocationProfile = profile === null ? null : { ...profile, intervalBytes: config.allocSamplingInterval }
  const meta = buildSidecar({ file: path, uncompressedBytes: write.bytes, bytes, gzip: path.endsWith('.gz'), takenAt, uptimeSeconds, series, write, headroom: safety.headroom, estimatedPeakBytes: safety.estimatedPeakBytes, allocationProfile, thread, memory })
  await writeFileAtomic(sidecar, JSON.stringify(meta, null, 2) + '\n', owner)
  return { path, sidecar, bytes, durationMs: write.durationMs, startedMs }
}

/**
 * @param {unknown} error
 * @returns {string}
 */
export function describeError (error) {
  return error instanceof Error ? error.message : String(error)
}
