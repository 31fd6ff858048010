import { inspectSnapshot, renderReport } from 'leakdiff'
import { ensureMemory, SKIP_OPTION } from '../memory-check.js'
import { checkOutput, progressBar, snapshotSource } from '../output.js'
import { terminalWidth, writeOutput } from '../report-output.js'
import { checkReportOptions, reportOptions } from '../report-options.js'

export const command = 'inspect <snapshot>'
export const describe = 'Show a snapshot\'s classes by retained size and its largest dominators'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('snapshot', { type: 'string', describe: 'A .heapsnapshot file (plain or gzip), or - for standard input' })
    .options(reportOptions('inspect', { top: 20 }))
    .options(SKIP_OPTION)
    .check(checkReportOptions)
}

/** @param {{snapshot: string, top: number, format: string, output?: string, color?: boolean, skipMemoryCheck?: boolean}} argv */
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
