// Refuses an analysis that would not fit in the memory left, before it starts (src/analysis/memory-need.js).
import { formatBytes, parseSize } from '#cli/support'
import { measureHeadroom } from '#cli/agent'
import { estimateMemory, lengauerTarjanBytes, readSnapshotCounts } from '#cli/run'
import { UsageError } from './output.js'

// The estimate lands within 6% of the measured peaks, either way (memory-need.js): a job must fit
// with this much of its own need to spare, or a peak above the estimate could still be killed.
const MARGIN = 0.1

/** An analysis that needs more memory than this process may still use. */
export class MemoryError extends Error {
  /** @param {string} message */
  constructor (message) {
    super(message)
    this.code = 'LEAKDIFF_MEMORY'
  }
}

/**
 * Throws MemoryError when analysing `sources` needs more memory than is left. Standard input and
 * pipes are not counted: their header cannot be read twice. When the job fits but the faster
 * dominator algorithm's extra memory would not (lengauerTarjanBytes), the job is to run with
 * `lowMemory` (analyzeHeap).
 * @param {Array<string | NodeJS.ReadableStream>} sources
 * @param {'inspect' | 'diff'} job
 * @param {{skip?: boolean, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<{lowMemory: boolean}>}
 */
export async function ensureMemory (sources, job, { skip = false, env = process.env } = {}) {
  const roomy = { lowMemory: false }
  if (skip) return roomy
  const limitText = env.LEAKDIFF_MEMORY_LIMIT
  const memoryLimitBytes = limitText === undefined || limitText === '' ? null : parseSize(limitText)
  if (memoryLimitBytes === undefined) throw new UsageError(`LEAKDIFF_MEMORY_LIMIT expects a size such as 2GB or 512MB, got '${limitText}'`)
  const paths = /** @type {string[]} */ (sources.filter((source) => typeof source === 'string'))
  const counts = (await Promise.all(paths.map(readSnapshotCounts))).filter((found) => found !== undefined)
  if (counts.length === 0) return roomy
  // What the snapshots add to this process, which already runs (the estimate's fixed part is node's).
  const addedBytes = estimateMemory(counts, job) - estimateMemory([], job)
  const rssBytes = process.memoryUsage.rss()
  const headroom = await measureHeadroom({ memoryLimitBytes, rssBytes })
  const plan = planMemory({ addedBytes, fasterBytes: lengauerTarjanBytes(counts), availableBytes: headroom.availableBytes })
  if (plan.fits) return { lowMemory: plan.lowMemory }
  const what = job === 'inspect' ? 'this snapshot' : `these ${sources.length} snapshots`
  const fewer = job === 'diff' && sources.length > 2 ? ', diff two snapshots at a time' : ''
  const ours = headroom.limitedBy.startsWith('memoryLimitBytes')
  const limitedBy = ours ? 'LEAKDIFF_MEMORY_LIMIT' : headroom.limitedBy
  const outcome = ours ? '' : ', so the kernel would likely kill it (exit 137)'
  const remedy = ours ? 'Raise LEAKDIFF_MEMORY_LIMIT' : 'Free memory'
  throw new MemoryError(`analysing ${what} needs about ${formatBytes(rssBytes + addedBytes)} of memory (${formatBytes(rssBytes + addedBytes * (1 + MARGIN))} with ${MARGIN * 100}% to spare) and ${formatBytes(headroom.availableBytes + rssBytes)} ` +
    `is available (${limitedBy})${outcome}. ${remedy}${fewer}, or pass --skip-memory-check to try anyway`)
}

/**
 * Whether a job fits in the memory available with a tenth of its estimate to spare, and whether
 * only without the faster algorithm's extra memory.
 * @param {{addedBytes: number, fasterBytes: number, availableBytes: number}} need
 *   addedBytes: the job's estimate; fasterBytes: what the faster dominator algorithm may add to it
 * @returns {{fits: boolean, lowMemory: boolean}}
 */
export function planMemory ({ addedBytes, fasterBytes, availableBytes }) {
  return { fits: addedBytes * (1 + MARGIN) <= availableBytes, lowMemory: (addedBytes + fasterBytes) * (1 + MARGIN) > availableBytes }
}
