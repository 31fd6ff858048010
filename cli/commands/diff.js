import { writeFile } from 'node:fs/promises'
import { diffSnapshots, renderDiffReport, DEFAULT_DIFF_OPTIONS } from 'leakdiff'
import { progressBar, UsageError } from '../output.js'

export const command = '$0 <snapshots..>'
export const describe = 'Diff two or three snapshots of one process (oldest first) and find what holds the growth'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('snapshots', { type: 'string', array: true, describe: 'Two or three .heapsnapshot files (plain or gzip), oldest first' })
    .option('top', { type: 'number', default: 10, describe: 'Owner groups and classes to list (0: all)' })
    .option('format', { choices: ['text', 'json', 'markdown'], default: 'text', describe: 'Output format' })
    .option('output', { alias: 'o', type: 'string', describe: 'Write the report to a file instead of stdout' })
    .option('color', { type: 'boolean', describe: 'Force colour on or off (default: on for a terminal; NO_COLOR and FORCE_COLOR work)' })
    .option('min-bytes', { type: 'number', default: DEFAULT_DIFF_OPTIONS.minBytes, describe: 'Bytes of new objects an owner group needs to be a leak' })
    .option('min-objects', { type: 'number', default: DEFAULT_DIFF_OPTIONS.minObjects, describe: 'New objects an owner group needs to be a leak' })
    .option('min-continued', { type: 'number', default: DEFAULT_DIFF_OPTIONS.minContinued, describe: 'With three snapshots: growth in the last step, as a share of the first step\'s' })
}

/**
 * @param {{snapshots: string[], top: number, format: string, output?: string, color?: boolean,
 *   minBytes: number, minObjects: number, minContinued: number}} argv
 */
export async function handler (argv) {
  const { snapshots } = argv
  if (snapshots.length < 2 || snapshots.length > 3) throw new UsageError(`Expected 2 or 3 snapshots (oldest first), got ${snapshots.length}`)
  if (!Number.isInteger(argv.top) || argv.top < 0) throw new UsageError(`--top expects a whole number >= 0, got ${argv.top}`)
  for (const name of /** @type {const} */ (['minBytes', 'minObjects', 'minContinued'])) {
    if (!(argv[name] >= 0)) throw new UsageError(`--${name.replace(/[A-Z]/g, (l) => `-${l.toLowerCase()}`)} expects a number >= 0, got ${argv[name]}`)
  }
  const progress = progressBar('reading snapshots')
  let report
  try {
    report = await diffSnapshots(snapshots, {
      top: argv.top,
      minBytes: argv.minBytes,
      minObjects: argv.minObjects,
      minContinued: argv.minContinued,
      onProgress: progress.update
    })
  } finally {
    progress.done()
  }
  const color = argv.output ? false : argv.color
  const text = renderDiffReport(report, { format: /** @type {'text' | 'json' | 'markdown'} */ (argv.format), color, width: Math.min(100, process.stdout.columns || 80) })
  if (argv.output) await writeFile(argv.output, text)
  else process.stdout.write(text)
  if (report.verdict === 'leak') process.exitCode = 1
}
