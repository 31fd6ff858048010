// --top, --format, --output and --color: defined once for every command that prints a report
// (the diff, inspect, capture --diff, soak). --format offers each format of the renderer registry
// that fits the command's report (src/report/renderers.js).
import { describeFormats, formatsFor } from '#cli/support'
import { describeNumber, UsageError } from './output.js'

const TOP = {
  diff: 'Owner groups and classes to list (0: all)',
  inspect: 'Classes and dominators to list (0: every class)'
}

/**
 * The report options of a command whose report is a `kind` report.
 * @param {'diff' | 'inspect'} kind
 * @param {{top: number}} defaults  top: how many rows by default
 */
export function reportOptions (kind, { top }) {
  return {
    top: { type: /** @type {const} */ ('number'), default: top, describe: TOP[kind] },
    format: { type: /** @type {const} */ ('string'), choices: formatsFor(kind), default: 'text', describe: `Output format: ${describeFormats(kind)}` },
    output: { alias: 'o', type: /** @type {const} */ ('string'), describe: 'Write the report to a file instead of stdout' },
    color: { type: /** @type {const} */ ('boolean'), describe: 'Force colour on or off (default: on for a terminal; NO_COLOR and FORCE_COLOR work)' }
  }
}

/**
 * For yargs' `.check()`: a bad --top is bad usage, said before any snapshot is read.
 * @param {Record<string, unknown>} argv
 * @returns {true}
 */
export function checkReportOptions ({ top }) {
  if (typeof top !== 'number' || !Number.isInteger(top) || top < 0) throw new UsageError(`--top expects a whole number >= 0, got ${describeNumber(top)}`)
  return true
}
