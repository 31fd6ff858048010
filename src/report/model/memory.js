// Memory as the process sees it: the growth split into kinds (JS heap, ArrayBuffer backing
// stores, native), what the sidecars read of the process, and the pace of growth towards a limit.
/** @import {GrowthRate} from '../../diff/growth-rate.js' */
/** @import {MemorySplit, MemoryAround} from '../../diff/memory-split.js' */
import { optional } from './optional-field.js'

/**
 * @typedef {object} Rate  retained growth per minute, from the sidecars' times
 * @property {number} bytes
 * @property {number} minutes
 * @property {number} bytesPerMinute
 * @property {RateLimit | null} limit  the nearest limit at its own pace; null when the verdict is clean
 */

/**
 * @typedef {object} RateLimit
 * @property {'heap' | 'memory'} kind
 * @property {number} bytes
 * @property {string} source          `heap_size_limit`, or where the memory limit came from (`cgroup v2`, ...)
 * @property {number} used            heap used, or RSS, in the last snapshot's sidecar
 * @property {number} minutesToLimit  at the limit's own pace; 0 when already there
 * @property {number} [bytesPerMinute]  that pace: the JS heap's growth for the heap limit, RSS
 *   growth (the writes' own RSS taken out) for a memory limit; else the retained growth
 * @property {string} [nearerThan]    the other limit, when both were projected: `heap limit (4345298944)`
 */

/**
 * What a sidecar recorded about the process's memory just before one write.
 * @typedef {object} ProcessMemory
 * @property {number} rss
 * @property {number} heapUsed
 * @property {number} external        includes arrayBuffers
 * @property {number} arrayBuffers
 * @property {number | null} cgroupUsage     the cgroup's memory use
 * @property {number | null} heapMappingRss  RSS of the `[heap]` mapping (glibc's main arena)
 * @property {number} writeRss        RSS the write left (after less before, 0 or more)
 */

/**
 * @typedef {object} NativeKind  a kind of native memory that grew in every step
 * @property {string} name      `Node / zlib_memory`
 * @property {number[]} counts  per snapshot
 * @property {number[]} bytes   per snapshot
 * @property {Array<{name: string, count: number}>} holders  the JS objects that hold them (last
 *   snapshot): `Deflate/Zlib` when a handle object is held by the program's object
 */

/**
 * The growth split into kinds of memory (diff/memory-split.js).
 * @typedef {object} Memory
 * @property {Array<{jsHeap: number, backingStores: number, native: number, process: ProcessMemory | null}>} snapshots
 *   per snapshot: bytes of the JS heap, of ArrayBuffer stores and of native memory Node records,
 *   and the sidecar's readings (null without them)
 * @property {{jsHeap: number, backingStores: number, native: number, rss: number | null, writeRss: number | null, rest: number | null}} growth
 *   first to last: rss is the program's RSS growth (the writes' RSS taken out), writeRss what the
 *   writes left, rest the RSS growth no kind of memory in the snapshot explains (null without sidecars)
 * @property {NativeKind[]} nativeKinds  most growth first
 * @property {number[]} workers  Worker objects per snapshot (threads whose heaps these snapshots do not cover)
 * @property {'heap' | 'native' | 'outside' | 'none'} where  what most of the growth is
 * @property {string | null} summary  one line when the growth is outside the JS heap (then a
 *   verdict that is not a leak is `inconclusive`); null otherwise
 */

/**
 * @param {GrowthRate} found
 * @returns {Rate}
 */
export function rateModel (found) {
  const { limit } = found
  return {
    bytes: found.bytes,
    minutes: found.minutes,
    bytesPerMinute: found.bytesPerMinute,
    limit: limit && {
      kind: limit.kind,
      bytes: limit.bytes,
      source: limit.source,
      used: limit.used,
      minutesToLimit: limit.minutesToLimit,
      ...optional('bytesPerMinute', limit.bytesPerMinute),
      ...optional('nearerThan', limit.nearerThan)
    }
  }
}

/**
 * @param {MemorySplit} split
 * @returns {Memory}
 */
export function memoryModel (split) {
  const { growth } = split
  return {
    snapshots: split.snapshots.map((s) => ({ jsHeap: s.jsHeap, backingStores: s.backingStores, native: s.native, process: s.process && processMemory(s.process) })),
    growth: { jsHeap: growth.jsHeap, backingStores: growth.backingStores, native: growth.native, rss: growth.rss, writeRss: growth.writeRss, rest: growth.rest },
    nativeKinds: split.nativeKinds.map((kind) => ({
      name: kind.name,
      counts: [...kind.counts],
      bytes: [...kind.bytes],
      holders: kind.holders.map((holder) => ({ name: holder.name, count: holder.count }))
    })),
    workers: [...split.workers],
    where: split.where,
    summary: split.summary
  }
}

/**
 * @param {MemoryAround} around
 * @returns {ProcessMemory}
 */
function processMemory (around) {
  return {
    rss: around.rss,
    heapUsed: around.heapUsed,
    external: around.external,
    arrayBuffers: around.arrayBuffers,
    cgroupUsage: around.cgroupUsage,
    heapMappingRss: around.heapMappingRss,
    writeRss: around.writeRss
  }
}
