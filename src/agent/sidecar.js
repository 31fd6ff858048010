import { hostname } from 'node:os'
import { basename } from 'node:path'
import { heapLimit } from './heap-limit.js'
import { currentThread } from './thread-info.js'

/** @import {WriteResult} from './write-snapshot.js' */
/** @import {Headroom} from './memory-limits.js' */
/** @import {MemoryReading} from './process-memory.js' */

/**
 * @typedef {object} SeriesInfo
 * @property {string} id
 * @property {number} index       1-based
 * @property {number} count
 * @property {number} intervalMs
 * @property {string} startedAt   ISO time
 * @property {import('./start-agent.js').SeriesTrigger} [trigger]  what started the series
 * @property {string} [mainSeries]  in a worker thread: the main thread's series this one is part of
 */

/**
 * The metadata written beside each snapshot (`x.meta.json`, schemaVersion 1). The differ and the
 * CLI read it for pid, time, rate of growth and time to the limit. The command line is left out on
 * purpose (arguments can hold secrets); the main script path is kept to name the program.
 * @param {{file: string, uncompressedBytes: number, bytes: number, gzip: boolean, takenAt: Date,
 *   uptimeSeconds: number, series: SeriesInfo, write: WriteResult, headroom: Headroom, estimatedPeakBytes: number,
 *   allocationProfile?: {file: string, run: string, intervalBytes: number} | null, thread?: import('./thread-info.js').ThreadInfo,
 *   memory?: {before: MemoryReading, after: MemoryReading, writeRssBytes: number} | null}} input
 *   allocationProfile: the live allocation samples saved beside the snapshot (base name), if any,
 *   and the sampling run they belong to; thread: whose heap the snapshot is; memory: the process's
 *   memory just before and just after the write (process-memory.js), and the RSS the write left
 * @returns {object}
 */
export function buildSidecar ({ file, uncompressedBytes, bytes, gzip, takenAt, uptimeSeconds, series, write, headroom, estimatedPeakBytes, allocationProfile = null, thread = currentThread(), memory = null }) {
  const { memoryUsage, heapStatistics } = write
  const constrained = process.constrainedMemory?.()
  return {
    schemaVersion: 1,
    kind: 'leakdiff-snapshot-meta',
    file: basename(file),
    bytes,
    uncompressedBytes,
    gzip,
    takenAt: takenAt.toISOString(),
    durationMs: Math.round(write.durationMs),
    pid: process.pid,
    ppid: process.ppid,
    thread,
    hostname: hostname(),
    title: process.title,
    script: process.argv[1] ?? null,
    nodeVersion: process.version,
    v8Version: process.versions.v8,
    platform: process.platform,
    arch: process.arch,
    uptimeSeconds: Math.round(uptimeSeconds * 1000) / 1000,
    series,
    heapSizeLimit: heapStatistics.heap_size_limit,
    // The old generation's limit and where V8 may give up before it (heap-limit.js).
    heapLimit: heapLimit({ heapSizeLimit: heapStatistics.heap_size_limit }),
    heapStatistics,
    memoryUsage: {
      rss: memoryUsage.rss,
      heapTotal: memoryUsage.heapTotal,
      heapUsed: memoryUsage.heapUsed,
      external: memoryUsage.external,
      arrayBuffers: memoryUsage.arrayBuffers
    },
    memory,
    memoryLimit: headroom.limitBytes === null ? null : { bytes: headroom.limitBytes, source: headroom.limitSource },
    constrainedMemory: constrained && constrained < 2 ** 60 ? constrained : null,
    writeCost: {
      estimatedPeakBytes,
      peakExtraBytes: write.peakExtraBytes,
      peakExact: write.peakExact,
      rssBefore: write.rssBefore,
      maxRssBefore: write.maxRssBefore,
      maxRssAfter: write.maxRssAfter,
      availableBefore: headroom.availableBytes,
      limitedBy: headroom.limitedBy
    },
    allocationProfile
  }
}
