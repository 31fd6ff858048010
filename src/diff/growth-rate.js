// How fast the heap grows between the first and the last snapshot, and when it would reach its
// limit at that pace. Needs the agent's sidecars: file times are not capture times once files have
// been copied, so without sidecars there is no rate.

/** @import {SnapshotMeta} from './snapshot-meta.js' */

/**
 * @typedef {object} GrowthLimit
 * @property {'heap' | 'memory'} kind  V8's heap size limit, or a limit on the process's memory (RSS)
 * @property {number} bytes            the limit
 * @property {string} source           `heap_size_limit`, or where the memory limit came from (`cgroup v2`, ...)
 * @property {number} used             heap used, or RSS, in the last snapshot's sidecar
 * @property {number} minutesToLimit   at `bytesPerMinute`; 0 when already there
 * @property {number} [bytesPerMinute]  the rate this limit is reached at: the JS heap's growth for
 *   the heap limit, RSS growth (the snapshot writes' own RSS taken out) for a memory limit, when
 *   the sidecars recorded them; else the retained growth
 * @property {string} [nearerThan]      the other limit, when both were projected: `heap limit (4.35 GB)`
 */

/**
 * @typedef {object} GrowthRate
 * @property {number} bytes           retained growth (the heap's total retained size) from first to last
 * @property {number} minutes         between the first and the last snapshot, by the sidecars' times
 * @property {number} bytesPerMinute
 * @property {GrowthLimit | null} limit  the limit reached first at this rate; null when none is
 *   known or the heap does not grow
 */

/**
 * @param {{meta: SnapshotMeta | null, totalSize: number}} first
 * @param {{meta: SnapshotMeta | null, totalSize: number}} last
 * @param {{jsHeap: number, rss: number | null} | null} [split]  growth of the JS heap alone and of
 *   RSS (memory-split.js): the heap limit is reached at the first's pace, a memory limit at the
 *   second's; without it both at the retained growth's
 * @returns {GrowthRate | null} null without both sidecars or without time between them
 */
export function computeGrowthRate (first, last, split = null) {
  if (first.meta === null || last.meta === null) return null
  const minutes = (Date.parse(last.meta.takenAt) - Date.parse(first.meta.takenAt)) / 60_000
  if (!(minutes > 0)) return null
  const bytes = last.totalSize - first.totalSize
  const bytesPerMinute = bytes / minutes
  /** @type {GrowthLimit[]} */
  const limits = []
  const { heapSizeLimit, heapLimit = null, heapUsed, memoryLimit, rss } = last.meta
  const heapRate = split === null ? bytesPerMinute : split.jsHeap / minutes
  const rssRate = split === null || split.rss === null ? bytesPerMinute : split.rss / minutes
  // The old generation's limit, reached where V8 gives up before it (src/agent/heap-limit.js);
  // heap_size_limit, reached when full, from an agent that did not record it.
  const heap = heapLimit !== null
    ? { bytes: heapLimit.bytes, reachedAt: heapLimit.giveUpBytes, source: 'old generation' }
    : heapSizeLimit !== null ? { bytes: heapSizeLimit, reachedAt: heapSizeLimit, source: 'heap_size_limit' } : null
  if (heapRate > 0 && heap !== null && heapUsed !== null) {
    limits.push({ kind: 'heap', bytes: heap.bytes, source: heap.source, used: heapUsed, minutesToLimit: Math.max(0, (heap.reachedAt - heapUsed) / heapRate), bytesPerMinute: heapRate })
  }
  if (rssRate > 0 && memoryLimit !== null && rss !== null) {
    limits.push({ kind: 'memory', bytes: memoryLimit.bytes, source: memoryLimit.source, used: rss, minutesToLimit: Math.max(0, (memoryLimit.bytes - rss) / rssRate), bytesPerMinute: rssRate })
  }
  limits.sort((a, b) => a.minutesToLimit - b.minutesToLimit)
  if (limits.length === 2) limits[0].nearerThan = `${limits[1].kind === 'heap' ? 'heap limit' : 'memory limit'} (${limits[1].bytes})`
  return { bytes, minutes, bytesPerMinute, limit: limits[0] ?? null }
}
