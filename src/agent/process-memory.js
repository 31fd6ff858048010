import { readFile } from 'node:fs/promises'
import { readCgroupMemory } from './memory-limits.js'

/**
 * The process's memory beside the heap, recorded in each sidecar just before and just after the
 * write, so that the diff can split growth into the JS heap, ArrayBuffer stores, native memory and
 * the rest of RSS, and tell the RSS the write itself left from the program's.
 *
 * In process.memoryUsage(), `rss` is the whole process and every other field the calling thread
 * only; `arrayBuffers` is part of `external`. The cgroup's use and limit are the container's.
 * @typedef {object} MemoryReading
 * @property {number} rss
 * @property {number} heapUsed
 * @property {number} heapTotal
 * @property {number} external
 * @property {number} arrayBuffers
 * @property {{usageBytes: number | null, workingSetBytes: number, limitBytes: number, source: string} | null} cgroup
 * @property {SmapsSummary | null} smaps  Linux: the allocator's mappings (before the write only)
 */

/**
 * What /proc/self/smaps says about memory outside files: `heapRss` is the `[heap]` mapping (the
 * brk heap, glibc's main malloc arena); `anonymousRss` all anonymous memory (V8's heap pages, the
 * other malloc arenas, thread stacks). Growth of `heapRss` with a flat JS heap points at malloc.
 * @typedef {object} SmapsSummary
 * @property {number} heapRss
 * @property {number} anonymousRss
 * @property {number} mappings
 */

/**
 * @param {string} text  /proc/<pid>/smaps
 * @returns {SmapsSummary}
 */
export function readSmapsText (text) {
  let heapRss = 0
  let anonymousRss = 0
  let mappings = 0
  let inHeap = false
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      mappings++
      inHeap = line.trimEnd().endsWith('[heap]')
    } else if (inHeap && line.startsWith('Rss:')) {
      heapRss += kilobytes(line)
    } else if (line.startsWith('Anonymous:')) {
      anonymousRss += kilobytes(line)
    }
  }
  return { heapRss, anonymousRss, mappings }
}

/** @param {string} line  `Rss:   2048 kB` */
function kilobytes (line) {
  return Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024
}

/**
 * @param {string} [file]
 * @returns {Promise<SmapsSummary | null>} null where there is no /proc
 */
export async function readSmaps (file = '/proc/self/smaps') {
  try {
    return readSmapsText(await readFile(file, 'latin1'))
  } catch {
    return null
  }
}

/**
 * The cgroup's reading, for a sidecar. Never throws.
 * @returns {Promise<MemoryReading['cgroup']>}
 */
export async function readCgroupReading () {
  try {
    const found = await readCgroupMemory()
    return found === null ? null : { usageBytes: found.usageBytes, workingSetBytes: found.workingSetBytes, limitBytes: found.limitBytes, source: found.source }
  } catch {
    return null
  }
}

/**
 * @param {NodeJS.MemoryUsage} usage
 * @param {MemoryReading['cgroup']} cgroup
 * @param {SmapsSummary | null} [smaps]
 * @returns {MemoryReading}
 */
export function memoryReading ({ rss, heapUsed, heapTotal, external, arrayBuffers }, cgroup, smaps = null) {
  return { rss, heapUsed, heapTotal, external, arrayBuffers, cgroup, smaps }
}
