// `leakdiff soak`: what the command line takes. What it does is in ../run/soak.js, loaded when it
// runs.
import { checkGateOptions, GATE_OPTIONS } from '../gate-options.js'
import { checkReportOptions, reportOptions } from '../report-options.js'
import { checkSourceOptions, SOURCE_OPTIONS } from '../source-options.js'

/** The HTML report's name when the soak fails and --html-report does not name it. */
export const HTML_NAME = 'leakdiff-report.html'

export const command = 'soak [service..]'
export const describe = 'Run a service with the agent under load, snapshot it three times, and fail on a leak'

/** @param {import('yargs').Argv} yargs */
export function builder (yargs) {
  return yargs
    .usage('$0 soak [options] -- <command...>\n\n' + describe)
    .positional('service', { type: 'string', array: true, describe: 'The service\'s command line, after --: node server.js' })
    .option('requests', { type: 'string', describe: 'Built-in load: GET this http:// URL on this machine' })
    .option('count', { type: 'number', default: 1000, describe: 'Requests per round with --requests' })
    .option('concurrency', { type: 'number', default: 8, describe: 'Requests in flight with --requests' })
    .option('warmup', { type: 'number', describe: 'Requests before the baseline snapshot (default: a tenth of --count)' })
    .option('load', { type: 'string', describe: 'The load as a shell command, run once per round (instead of --requests)' })
    .option('ready', { type: 'string', describe: 'A URL that answers once the service is ready (default: the --requests URL)' })
    .option('ready-timeout', { type: 'string', default: '30s', describe: 'How long to wait for --ready: 500ms, 30s, 2m' })
    .option('series', { type: 'number', choices: [2, 3], default: 3, describe: 'Snapshots: baseline, then one after each round of load' })
    .option('interval', { type: 'string', default: '500ms', describe: 'Pause after each round before its snapshot: 500ms, 2s' })
    .option('keep-snapshots', { type: 'string', describe: 'Keep the snapshots in this directory (created 0700)' })
    .options(reportOptions('diff', { top: 10 }))
    .option('html-report', { type: 'string', describe: `Where the HTML report goes when the soak fails (default: --output with --format html, else ${HTML_NAME} in the --keep-snapshots directory, beside --output, or here)` })
    .options(GATE_OPTIONS)
    .options(SOURCE_OPTIONS)
    .conflicts('requests', 'load')
    .check(checkReportOptions)
    .check(checkGateOptions)
    .check(checkSourceOptions)
    .example([['$0 soak --requests http://127.0.0.1:3000/ -- node server.js'], ['$0 soak --ready http://127.0.0.1:3000/ --load ./load.sh -- npm start']])
}

/** @param {import('../run/soak.js').SoakArguments} argv */
export async function handler (argv) {
  return (await import('../run/soak.js')).handler(argv)
}
