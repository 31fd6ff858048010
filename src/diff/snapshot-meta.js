// What a sidecar says about its snapshot (docs/agent.md, "The sidecar"), as the diff and the report
// read it: when the snapshot was taken, which process and thread it came from, the process's
// limits and memory, and what started the series. The run reads the files (pipeline/sidecars.js).
// Types only.

/** @import {MemoryAround} from './memory-split.js' */

/**
 * What a sidecar says about its snapshot (only the fields the diff uses; null when absent).
 * @typedef {object} SnapshotMeta
 * @property {string} takenAt            ISO time of the write
 * @property {number | null} pid
 * @property {string | null} hostname
 * @property {string | null} nodeVersion
 * @property {string | null} script      the main script of the process
 * @property {number | null} uptimeSeconds
 * @property {number | null} heapSizeLimit  V8's heap_size_limit, bytes
 * @property {{bytes: number, giveUpBytes: number} | null} [heapLimit]  the old generation's limit and
 *   where V8 may end the process before it (src/agent/heap-limit.js; an older agent did not record it)
 * @property {number | null} heapUsed    bytes, before the write
 * @property {number | null} rss         bytes, before the write
 * @property {{bytes: number, source: string} | null} memoryLimit  a limit on RSS (cgroup, option)
 * @property {string | null} [allocationProfile]  base name of the allocation profile saved beside it
 * @property {number | null} [allocationInterval]  its sampling interval, bytes
 * @property {string | null} [allocationRun]  the sampling run it belongs to: samples compare only within one
 * @property {{id: number, main: boolean, file: string | null, name: string | null} | null} [thread]  the
 *   thread whose heap the snapshot is (null: an older agent, which wrote the main thread only)
 * @property {MemoryAround | null} [memory]  the process's memory just before the write, and the
 *   RSS the write left (an older agent did not record it: null)
 * @property {WatchTriggerMeta | null} trigger  why the agent's watch mode started the series; null
 *   when a signal or a call started it, or the sidecar does not say
 */

/**
 * What the agent's watch mode recorded when it started a series by itself (docs/agent.md, "Watch mode").
 * @typedef {object} WatchTriggerMeta
 * @property {'growth' | 'time-to-limit' | 'fraction'} reason
 * @property {number} bytesPerHour   growth of the heap after GC (Theil-Sen slope over the windows)
 * @property {number} spanMinutes    the windows the rate was measured over
 * @property {number} heapAfterGc    bytes, in the last window
 * @property {{kind: 'heap' | 'memory', bytes: number, source: string, minutesToLimit: number | null, fraction: number} | null} limit
 * @property {'heap' | 'rss'} [measure]  what grew: the heap after GC, or the process's RSS
 */

export {}
