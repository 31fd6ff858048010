import { writeHeapSnapshot, getHeapStatistics, setFlagsFromString } from 'node:v8'
import { chmodSync, closeSync, readdirSync, readlinkSync, realpathSync, statSync, truncateSync, unlinkSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { CaptureError } from '../errors.js'
import { flagValue } from './heap-limit.js'

/** The --heap-snapshot-string-limit the process started with (V8's 1,024 unless its command line
 * says otherwise; V8 flags cannot come through NODE_OPTIONS), restored after a write that changed it. */
const OWN_STRING_LIMIT = flagValue(process.execArgv, 'heap-snapshot-string-limit') ?? 1024

/**
 * What one write cost the process.
 * @typedef {object} WriteResult
 * @property {number} durationMs       how long the event loop was blocked
 * @property {number} bytes            size of the file written
 * @property {number} rssBefore        RSS just before the write (bytes)
 * @property {number} maxRssBefore     the process's RSS high-water mark before the write (bytes)
 * @property {number} maxRssAfter      the high-water mark after it (bytes)
 * @property {number} peakExtraBytes   maxRssAfter - rssBefore: the extra memory at the write's peak
 *                                     when `peakExact`, else only an upper bound for it
 * @property {boolean} peakExact       the write raised the high-water mark, so its peak was seen
 * @property {NodeJS.MemoryUsage} memoryUsage  process.memoryUsage() just before the write
 * @property {NodeJS.MemoryUsage} memoryAfter  process.memoryUsage() just after it: RSS above the one
 *   before is memory the write itself left in the process (freed pages an allocator keeps)
 * @property {import('node:v8').HeapInfo} heapStatistics  v8.getHeapStatistics() just before the write
 */

/**
 * Writes a heap snapshot of this isolate to `path`, synchronously: the event loop stops for the
 * whole write. Call it from a fresh tick, so that the stack holds nothing of the host's
 * (objects on the stack are listed under `(Stack roots)`). V8 runs a full GC first by itself.
 *
 * v8.writeHeapSnapshot is used rather than streaming v8.getHeapSnapshot() into a file: the stream
 * serializes synchronously as soon as it is read and buffers the chunks, so it blocks as long and
 * needs more memory (1e6-object heap: 9.8 s blocked and +751 MB RSS, against 8.2 s and +711 MB;
 * docs/agent.md). The file is created 0600 by Node and made 0600 again to be sure.
 * @param {string} path  a temporary name; the caller renames it when this returns
 * @param {{stringLimit?: number | null}} [options] stringLimit: characters of each string to keep
 *   for this write (V8's --heap-snapshot-string-limit, 1,024 by default, set back to the process's own after it)
 * @returns {WriteResult}
 */
export function writeSnapshotFile (path, { stringLimit = null } = {}) {
  const memoryUsage = process.memoryUsage()
  const heapStatistics = getHeapStatistics()
  const maxRssBefore = process.resourceUsage().maxRSS * 1024
  const start = performance.now()
  if (stringLimit !== null) setFlagsFromString(`--heap-snapshot-string-limit=${stringLimit}`)
  try {
    writeHeapSnapshot(path)
    chmodSync(path, 0o600)
  } catch (error) {
    discardFailedWrite(path)
    const reason = error instanceof Error ? error.message : String(error)
    throw new CaptureError(`Expected to write a heap snapshot to ${path}, but the write failed: ${reason}`, { cause: error })
  } finally {
    if (stringLimit !== null) setFlagsFromString(`--heap-snapshot-string-limit=${OWN_STRING_LIMIT}`)
  }
  const durationMs = performance.now() - start
  const memoryAfter = process.memoryUsage()
  const maxRssAfter = process.resourceUsage().maxRSS * 1024
  const bytes = statSync(path).size
  return {
    durationMs,
    bytes,
    rssBefore: memoryUsage.rss,
    maxRssBefore,
    maxRssAfter,
    peakExtraBytes: Math.max(0, maxRssAfter - memoryUsage.rss),
    peakExact: maxRssAfter > maxRssBefore,
    memoryUsage,
    memoryAfter,
    heapStatistics
  }
}

/**
 * Removes what a failed write left. Node 20 leaves the file descriptor of a failed
 * writeHeapSnapshot open (observed on ENOSPC), which would keep the blocks of the deleted file
 * allocated for the life of the host: so the file is emptied first, then the orphaned descriptor
 * is closed (found through /proc/self/fd; Linux only), then the name is removed.
 * @param {string} path
 */
function discardFailedWrite (path) {
  let target = path
  try {
    target = join(realpathSync(dirname(path)), basename(path))
    truncateSync(path, 0)
  } catch {}
  try {
    for (const fd of readdirSync('/proc/self/fd')) {
      try {
        if (readlinkSync(`/proc/self/fd/${fd}`) === target) closeSync(Number(fd))
      } catch {}
    }
  } catch {}
  try {
    unlinkSync(path)
  } catch {}
}
