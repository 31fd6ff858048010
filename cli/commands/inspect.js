import { inspectSnapshot, renderHtmlReport, renderInspectReport } from 'leakdiff'
import { ensureMemory, SKIP_OPTION } from '../memory-check.js'
import { checkOutput, describeNumber, progressBar, snapshotSource, UsageError, writeReport } from '../output.js'
import { withoutCommands } from '../report-output.js'

export const command = 'inspect <snapshot>'
export const describe = 'Show a snapshot\'s classes by retained size and its largest dominators'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('snapshot', { type: 'string', describe: 'A .heapsnapshot file (plain or gzip), or - for standard input' })
    .option('top', { type: 'number', default: 20, describe: 'Classes and dominators to list (0: every class)' })
    .option('format', { choices: ['text', 'json', 'html'], default: 'text', describe: 'Output format' })
    .option('output', { alias: 'o', type: 'string', describe: 'Write the report to a file instead of stdout' })
    .option('color', { type: 'boolean', describe: 'Force colour on or off (default: on for a terminal; NO_COLOR and FORCE_COLOR work)' })
    .options(SKIP_OPTION)
}

/** @param {{snapshot: string, top: number, format: string, output?: string, color?: boolean, skipMemoryCheck?: boolean}} argv */
export async function handler (argv) {
  if (!Number.isInteger(argv.top) || argv.top < 0) throw new UsageError(`--top expects a whole number >= 0, got ${describeNumber(argv.top)}`)
  await checkOutput(argv.output)
  const source = snapshotSource(argv.snapshot)
  await ensureMemory([source], 'inspect', { skip: argv.skipMemoryCheck })
  const progress = progressBar(`reading ${argv.snapshot}`)
  let report
  try {
    report = await inspectSnapshot(source, { top: argv.top, onProgress: progress.update })
  } finally {
    progress.done()
  }
  const color = argv.output ? false : argv.color
  const width = Math.min(100, process.stdout.columns || 80)
  const text = argv.format === 'html' ? renderHtmlReport(report) : renderInspectReport(report, { format: /** @type {'text' | 'json'} */ (argv.format), color, width })
  if (argv.output) await writeReport(argv.output, text)
  else process.stdout.write(process.env.GITHUB_ACTIONS ? withoutCommands(text, argv.format) : text)
}
