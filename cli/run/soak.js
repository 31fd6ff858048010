// `leakdiff soak`, run: the service started with the agent, loaded and snapshotted, each thread's
// heap diffed, the report written and the gates applied.
import { dirname, join } from 'node:path'
import { runSoak, DEFAULT_GATES, renderDiffReport } from 'leakdiff'
import { parseDuration } from '#cli/support'
import { describeThread } from '#cli/agent'
import { summarizeViolations } from '#cli/run'
import { HTML_NAME } from '../commands/soak.js'
import { checkOutput, UsageError } from '../output.js'
import { emitReport, terminalWidth } from '../report-output.js'
import { sourceOptionsOf } from '../source-options.js'

/**
 * The arguments yargs hands the soak command.
 * @typedef {{_: Array<string | number>, service?: string[], requests?: string, count: number, concurrency: number, warmup?: number,
 *   load?: string, ready?: string, readyTimeout: string, series: number, interval: string, keepSnapshots?: string,
 *   top: number, format: string, output?: string, color?: boolean, htmlReport?: string, failOn?: 'any' | string[], maxGrowth?: number,
 *   allow?: string[], sourceMaps?: string, sourceRoot?: string[]}} SoakArguments
 */

/** @param {SoakArguments} argv */
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
    if (!controller.signal.aborted) throw asFlags(error, argv)
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
      process.stdout.write(`\n== ${title} ==\n${renderDiffReport(thread.report, { format: /** @type {'text' | 'markdown'} */ (argv.format), color: argv.color, width: terminalWidth() })}`)
    } else {
      process.stderr.write(`leakdiff: ${title}: ${thread.report.verdict}${thread.gates.ok ? '' : ` (${summarizeViolations(thread.gates)})`}\n`)
    }
    if (!thread.gates.ok) {
      if (inline) process.stderr.write(`leakdiff: ${title}: ${summarizeViolations(thread.gates)}\n`)
      process.exitCode = 1
    }
  }
}

/**
 * runSoak names a bad option as its API does (`requests`, `intervalMs`); the command line's user
 * gave a flag (`--requests`, `--interval`): an option named so that yargs parsed it is given its flag.
 * @param {unknown} error
 * @param {Record<string, unknown>} argv
 * @returns {unknown}
 */
function asFlags (error, argv) {
  if (!(error instanceof Error) || /** @type {{code?: unknown}} */ (error).code !== 'LEAKDIFF_INVALID_ARG') return error
  return new UsageError(error.message.replace(/`(\w+)`/g, (text, name) => {
    const flag = name.replace(/Ms$/, '').replace(/[A-Z]/g, (/** @type {string} */ letter) => `-${letter.toLowerCase()}`)
    return flag in argv ? `--${flag}` : text
  }))
}
