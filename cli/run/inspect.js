// `leakdiff inspect`, run: one snapshot analysed and its report written.
import { inspectSnapshot, renderReport } from 'leakdiff'
import { ensureMemory } from '../memory-check.js'
import { checkOutput, progressBar, snapshotSource } from '../output.js'
import { terminalWidth, writeOutput } from '../report-output.js'

/** @typedef {{snapshot: string, top: number, format: string, output?: string, color?: boolean, skipMemoryCheck?: boolean}} InspectArguments */

/** @param {InspectArguments} argv */
export async function handler (argv) {
  await checkOutput(argv.output)
  const source = snapshotSource(argv.snapshot)
  const { lowMemory } = await ensureMemory([source], 'inspect', { skip: argv.skipMemoryCheck })
  const progress = progressBar(`reading ${argv.snapshot}`)
  let report
  try {
    report = await inspectSnapshot(source, { top: argv.top, lowMemory, onProgress: progress.update })
  } finally {
    progress.done()
  }
  const color = argv.output ? false : argv.color
  await writeOutput(renderReport(report, { format: argv.format, color, width: terminalWidth() }), argv)
}
