// `leakdiff capture --diff`, once the series is on disk: each thread's snapshots diffed among
// themselves, a report each.
import { diffSnapshots } from 'leakdiff'
import { ensureMemory } from '../memory-check.js'
import { progressBar } from '../output.js'
import { emitReport } from '../report-output.js'
import { sourceOptionsOf } from '../source-options.js'
import { pickForDiff } from './capture.js'
/** @import {CaptureArguments} from './capture.js' */

/**
 * Diffs each thread's series and writes its report; the exit code fails when any thread leaks.
 * @param {Array<{title: string, snapshots: string[]}>} series  the main thread's first
 * @param {CaptureArguments} argv
 */
export async function diffSeries (series, argv) {
  for (const [i, part] of series.entries()) {
    const picked = pickForDiff(part.snapshots)
    if (series.length > 1) process.stdout.write(`${i > 0 ? '\n' : ''}== ${part.title} ==\n`)
    if (picked.length < 2) {
      process.stdout.write(`not diffed: ${picked.length} snapshot${picked.length === 1 ? '' : 's'}\n`)
      continue
    }
    // Beside the service, in its container, a diff that does not fit could get the service killed.
    const { lowMemory } = await ensureMemory(picked, 'diff', { skip: argv.skipMemoryCheck })
    const report = await diffWithProgress(picked, { top: argv.top, ...sourceOptionsOf(argv), lowMemory })
    // As the diff command does without gates: the verdict decides the exit code (a leak in any
    // thread fails it).
    const failed = process.exitCode === 1
    await emitReport(report, argv, { defaultGates: { verdict: true } })
    if (failed) process.exitCode = 1
  }
}

/**
 * Diffs 2 or 3 snapshots with a progress bar on a terminal.
 * @param {string[]} files
 * @param {{top?: number, sourceMaps?: string, sourceRoots?: string[], lowMemory?: boolean}} [options] --top, --source-maps and
 *   --source-root, and whether the memory left asks for the slower dominator algorithm (ensureMemory)
 */
async function diffWithProgress (files, options = {}) {
  const progress = progressBar('reading snapshots')
  try {
    return await diffSnapshots(files, { ...options, onProgress: progress.update })
  } finally {
    progress.done()
  }
}
