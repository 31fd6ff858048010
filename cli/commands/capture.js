// `leakdiff capture <pid>`: what the command line takes. What it does is in ../run/capture.js,
// loaded when it runs.
import { SKIP_OPTION } from '../memory-option.js'
import { checkReportOptions, reportOptions } from '../report-options.js'
import { checkSourceOptions, SOURCE_OPTIONS } from '../source-options.js'

export const command = 'capture <pid>'
export const describe = 'Signal the leakdiff agent in a running process, wait for its snapshot series (every thread\'s), then print (or --diff) the files'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .positional('pid', { type: 'string', describe: 'Process id of a Node.js process started with the agent (node --import leakdiff/register)' })
    .option('dir', { type: 'string', describe: 'Directory the agent writes to (default: the process\'s LEAKDIFF_DIR and working directory where readable, else LEAKDIFF_DIR or .)' })
    .option('timeout', { type: 'string', default: '10s', describe: 'How long to wait for the series to start (500ms, 10s, 2m); the series itself may take longer' })
    .option('signal', { type: 'string', describe: 'Signal to send (default: the process\'s LEAKDIFF_SIGNAL where readable, else SIGUSR2)' })
    .option('diff', { type: 'boolean', default: false, describe: 'Diff the series when it completes and print the report (--top, --format, --output, --color)' })
    .option('force', { type: 'boolean', default: false, describe: 'Send the signal even when the process left no agent marker in the directory (it may not run the agent)' })
    .options(reportOptions('diff', { top: 10 }))
    .options(SOURCE_OPTIONS)
    .options(SKIP_OPTION)
    .check(checkReportOptions)
    .check(checkSourceOptions)
}

/** @param {import('../run/capture.js').CaptureArguments} argv */
export async function handler (argv) {
  return (await import('../run/capture.js')).handler(argv)
}
