import { formatBytes } from './format.js'
/** @import {DiffReport} from './report-model.js' */

/**
 * The memory outside the JS heap, in at most two lines (none when the report has no split or
 * nothing outside the heap grew): how RSS moved and what the snapshot writes themselves left,
 * then where the growth is when it is outside the heap (diff/memory-split.js).
 * @param {DiffReport} report
 * @returns {string[]}
 */
export function memoryLines ({ memory, reason }) {
  if (!memory) return []
  const lines = []
  const first = memory.snapshots[0].process
  const last = memory.snapshots[memory.snapshots.length - 1].process
  const { growth } = memory
  if (first && last && growth.rss !== null) {
    const parts = [`JS heap ${formatBytes(growth.jsHeap, { sign: true })}`, `ArrayBuffer stores ${formatBytes(growth.backingStores, { sign: true })}`, `native ${formatBytes(growth.native, { sign: true })}`]
    if (growth.rest !== null) parts.push(`rest of RSS ${formatBytes(growth.rest, { sign: true })}`)
    const writes = growth.writeRss ? `; the snapshot writes themselves left ${formatBytes(growth.writeRss)}, not counted` : ''
    lines.push(`RSS ${formatBytes(first.rss)} → ${formatBytes(last.rss)} (${formatBytes(growth.rss, { sign: true })} by the program${writes}): ${parts.join(', ')}`)
  }
  // Said once: in the verdict's reason when the heap alone looked clean.
  if (memory.summary && !reason.includes(memory.summary)) lines.push(memory.summary)
  return lines
}
