import { dirname, join } from 'node:path'
import { runSoak, DEFAULT_GATES, renderDiffReport } from 'leakdiff'
import { describeThread, parseDuration, summarizeViolations } from '#cli/support'
import { checkOutput, UsageError } from '../output.js'
import { checkGateOptions, emitReport, GATE_OPTIONS } from '../report-output.js'
import { checkReportOptions, reportOptions } from '../report-options.js'
import { checkSourceOptions, SOURCE_OPTIONS, sourceOptionsOf } from '../source-options.js'

/** The HTML report's name when the soak fails and --html-report does not name it. */
const HTML_NAME = 'leakdiff-report.html'

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

/**
 * @param {{_: Array<string | number>, service?: string[], requests?: string, count: number, concurrency: number, warmup?: number,
 *   load?: string, ready?: string, readyTimeout: string, series: number, interval: string, keepSnapshots?: string,
 *   top: number, format: string, output?: string, color?: boolean, htmlReport?: string, failOn?: 'any' | string[], maxGrowth?: number,
 *   allow?: string[], sourceMaps?: string, sourceRoot?: string[]}} argv
 */
export async function handler (argv) {
  // yargs leaves what follows `--` in argv._, after the command's name.
  const service = [...(argv.service ?? []), ...argv._.slice(1)].map(String)
  if (service.length === 0) throw new UsageError('Expected the service\'s command after --, like: leakdiff soak --requests http://127.0.0.1:3000/ -- node server.js')
  const readyTimeoutMs = parseDuration(argv.readyTimeout)
  if (readyTimeoutMs === undefined) throw new UsageError(`--ready-timeout expects a duration like 30s or 500ms, got ${JSON.stringify(argv.readyTimeout)}`)
  const intervalMs = parseDuration(argv.interval)
  if (intervalMs === undefined) throw new UsageError(`--interval expects a duration like 500ms or 2s, got ${JSON.stringify(argv.interval)}`)
  await checkOutput(argv.output)
  if (argv.htmlReport === '') throw new UsageError('--html-report expects a file name')
  const htmlReport = argv.htmlReport ?? (argv.format === 'html' && argv.output ? argv.output : join(argv.keepSnapshots ?? (argv.output ? dirname(argv.output) : '.'), HTML_NAME))
  // The --keep-snapshots directory is made by the soak itself.
  if (argv.htmlReport !== undefined || argv.keepSnapshots === undefined) await checkOutput(htmlReport)

  const controller = new AbortController()
  /** @param {NodeJS.Signals} name */
  const interrupt = (name) => controller.abort(new Error(name))
  process.once('SIGINT', interrupt)
  process.once('SIGTERM', interrupt)
  const progress = process.stderr.isTTY ? (/** @type {string} */ message) => process.stderr.write(`leakdiff: ${message}\n`) : undefined
  let result
  try {
    result = await runSoak({
      command: service,
      requests: argv.requests,
      count: argv.count,
      concurrency: argv.concurrency,
      warmup: argv.warmup,
      load: argv.load,
      ready: argv.ready,
      readyTimeoutMs,
      series: /** @type {2 | 3} */ (argv.series),
      intervalMs,
      keepSnapshots: argv.keepSnapshots,
      top: argv.top,
      ...sourceOptionsOf(argv),
      signal: controller.signal,
      onProgress: progress
    })
  } catch (error) {
    if (!controller.signal.aborted) throw error
    // Interrupted: the service is stopped and its files are gone; exit as a shell does on a signal.
    process.stderr.write(`leakdiff: soak interrupted by ${controller.signal.reason.message}; the service was stopped and its snapshots removed\n`)
    process.exitCode = controller.signal.reason.message === 'SIGINT' ? 130 : 143
    return
  } finally {
    process.off('SIGINT', interrupt)
    process.off('SIGTERM', interrupt)
  }
  await emitReport(result.report, argv, { defaultGates: DEFAULT_GATES, suiteName: 'leakdiff soak', htmlOnFailure: htmlReport })
  // The service's worker threads, each diffed apart: their reports follow the main thread's on a
  // terminal-style output; otherwise a line each on stderr. Any failing gate fails the soak.
  const inline = !argv.output && (argv.format === 'text' || argv.format === 'markdown')
  for (const thread of result.threads) {
    const title = describeThread({ id: thread.threadId, main: false, file: thread.file, name: thread.name })
    if (inline) {
      process.stdout.write(`\n== ${title} ==\n${renderDiffReport(thread.report, { format: /** @type {'text' | 'markdown'} */ (argv.format), color: argv.color, width: Math.min(100, process.stdout.columns || 80) })}`)
    } else {
      process.stderr.write(`leakdiff: ${title}: ${thread.report.verdict}${thread.gates.ok ? '' : ` (${summarizeViolations(thread.gates)})`}\n`)
    }
    if (!thread.gates.ok) {
      if (inline) process.stderr.write(`leakdiff: ${title}: ${summarizeViolations(thread.gates)}\n`)
      process.exitCode = 1
    }
  }
}
