// `leakdiff inspect`: what the command line takes. What it does is in ../run/inspect.js, loaded
// when it runs.
import { SKIP_OPTION } from '../memory-option.js'
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

/** @param {import('../run/inspect.js').InspectArguments} argv */
export async function handler (argv) {
  return (await import('../run/inspect.js')).handler(argv)
}
