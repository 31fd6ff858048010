// `leakdiff a b [c]` (and a directory or series file of the agent's): what the command line takes.
// What it does is in ../run/diff.js, loaded when it runs.
import { DEFAULT_DIFF_OPTIONS } from '#cli/support'
import { checkGateOptions, GATE_OPTIONS } from '../gate-options.js'
import { SKIP_OPTION } from '../memory-option.js'
import { checkReportOptions, reportOptions } from '../report-options.js'
import { checkSourceOptions, SOURCE_OPTIONS } from '../source-options.js'

export const command = '$0 <snapshots..>'
export const describe = 'Diff two or three snapshots of one process (oldest first) and find what holds the growth'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('snapshots', { type: 'string', array: true, describe: 'Two or three .heapsnapshot files (plain or gzip), oldest first; - for one read from standard input; or the agent\'s directory or a .series.json: each thread\'s snapshots of that series' })
    .option('thread', { type: 'number', describe: 'With a directory or a series file: only this thread\'s snapshots (0: the main thread)' })
    .options(reportOptions('diff', { top: 10 }))
    .option('min-bytes', { type: 'string', default: DEFAULT_DIFF_OPTIONS.minBytes, describe: 'Size of the new objects an owner group needs to be a leak: 65536, 64kB, \'2 MB\', 1MiB (kB, MB, GB: powers of 1000; KiB, MiB, GiB: of 1024)' })
    .option('min-objects', { type: 'number', default: DEFAULT_DIFF_OPTIONS.minObjects, describe: 'New objects an owner group needs to be a leak' })
    .option('min-continued', { type: 'number', default: DEFAULT_DIFF_OPTIONS.minContinued, describe: 'With three snapshots: growth in the last step, as a share of the first step\'s' })
    .options(GATE_OPTIONS)
    .options(SOURCE_OPTIONS)
    .options(SKIP_OPTION)
    .check(checkReportOptions)
    .check(checkGateOptions)
    .check(checkSourceOptions)
}

/** @param {import('../run/diff.js').DiffArguments} argv */
export async function handler (argv) {
  return (await import('../run/diff.js')).handler(argv)
}
