// The end of `leakdiff a b [c]` and `leakdiff soak`: the report in its format, the gates, CI output
// (GitHub annotations and step summary) and the exit code.
import { randomUUID } from 'node:crypto'
import { fstatSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { evaluateGates, renderGithubAnnotations, renderReport } from 'leakdiff'
import { escapeText } from '#cli/support'
import { gatesFor, markdownCode, markdownText, summarizePass, summarizeViolations } from '#cli/run'
import { writeReport } from './output.js'
/** @typedef {Awaited<ReturnType<typeof import('leakdiff').diffSnapshots>>} DiffReport */
/** @typedef {Parameters<typeof evaluateGates>[1]} Gates */

/**
 * Writes the report (to --output or stdout), applies the gates, writes CI output and sets the exit
 * code: 1 when a gate fails, with its reason as one line on stderr; a pass that rests on an allow
 * or a threshold gets one line too.
 * @param {DiffReport} report
 * @param {{format: string, output?: string, color?: boolean, failOn?: 'any' | string[], maxGrowth?: number, allow?: string[]}} argv
 * @param {{defaultGates: Gates, suiteName?: string, htmlOnFailure?: string}} options  defaultGates: the gates
 *   that --fail-on and --max-growth do not set (gatesFor); htmlOnFailure: a file for the
 *   HTML report when a gate fails (named on stderr and in the GitHub step summary)
 */
export async function emitReport (report, argv, { defaultGates, suiteName = 'leakdiff', htmlOnFailure }) {
  const inForce = gatesFor({ failOn: argv.failOn, maxGrowth: argv.maxGrowth, allow: argv.allow }, defaultGates)
  const gates = evaluateGates(report, inForce)
  const color = argv.output ? false : argv.color
  const text = renderReport(report, { format: argv.format, color, width: terminalWidth(), gates, name: suiteName })
  await writeOutput(text, argv)
  const html = !gates.ok && htmlOnFailure !== undefined ? htmlOnFailure : undefined
  if (html !== undefined) {
    if (!(argv.format === 'html' && argv.output === html)) await writeReport(html, renderReport(report, { format: 'html' }))
    process.stderr.write(`leakdiff: HTML report written to ${html}\n`)
  }

  if (process.env.GITHUB_ACTIONS) {
    const annotations = renderGithubAnnotations(report, gates)
    // The runner reads workflow commands on stdout and stderr alike: keep them out of a JSON or
    // JUnit document that goes to stdout.
    const machine = !argv.output && (argv.format === 'json' || argv.format === 'junit')
    if (annotations !== '') (machine ? process.stderr : process.stdout).write(annotations)
    const summaryFile = process.env.GITHUB_STEP_SUMMARY
    if (summaryFile) {
      const verdict = gates.ok ? 'All leak gates passed.' : `**Failed:** ${markdownText(escapeText(summarizeViolations(gates)))}`
      const where = html === undefined ? '' : `The HTML report is at ${markdownCode(html)} (upload it as an artifact to open it in a browser).\n\n`
      await appendFile(summaryFile, `${renderReport(report, { format: 'markdown' })}\n${verdict}\n\n${where}`)
    }
  }
  // A pass that rests on an allow or a threshold says so: a leak let through is never silent.
  const reason = gates.ok ? summarizePass(report, gates, inForce) : summarizeViolations(gates)
  if (reason !== '') {
    const line = `leakdiff: ${escapeText(reason)}\n`
    process.stderr.write(process.env.GITHUB_ACTIONS ? withoutCommands(line, 'text', process.stderr) : line)
  }
  if (!gates.ok) process.exitCode = 1
}

/** Columns a text report may fill: the terminal's, up to 100. */
export function terminalWidth () {
  return Math.min(100, process.stdout.columns || 80)
}

/**
 * Writes a rendered report to --output, or to stdout (kept free of workflow commands in a GitHub
 * Actions log, see withoutCommands).
 * @param {string} text
 * @param {{format: string, output?: string}} argv
 */
export async function writeOutput (text, { format, output }) {
  if (output) await writeReport(output, text)
  else process.stdout.write(process.env.GITHUB_ACTIONS ? withoutCommands(text, format) : text)
}

/**
 * Output for a GitHub Actions log, where the runner takes a line for a workflow command when it
 * starts with `::` after its indentation, or holds `##[command]` anywhere (actions/runner,
 * ActionCommand.cs): names from the heap must not make one. Text and Markdown go between
 * `::stop-commands::` and a random end token (docs.github.com, "Stopping and starting workflow
 * commands") unless they go to a file; JSON and JUnit stay documents that parse to the same values,
 * with `#` after a `#` and a `:` that starts a line written as escapes.
 * @param {string} text
 * @param {string} format
 * @param {NodeJS.WriteStream} [stream]
 */
export function withoutCommands (text, format, stream = process.stdout) {
  if (format === 'json') return text.replaceAll('##[', '#\\u0023[')
  if (format === 'junit') return text.replaceAll('##[', '#&#35;[').replace(/^(\s*):/gm, '$1&#58;')
  if (isFile(stream)) return text
  const token = randomUUID()
  return `::stop-commands::${token}\n${text}${text.endsWith('\n') ? '' : '\n'}::${token}::\n`
}

/** @param {NodeJS.WriteStream} stream */
function isFile (stream) {
  try {
    return fstatSync(/** @type {any} */ (stream).fd).isFile()
  } catch {
    return false
  }
}
