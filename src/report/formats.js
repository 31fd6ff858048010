// The report formats by name, what each renders and how --help describes it, apart from the
// renderers (renderers.js): the CLI offers and checks --format before a command runs, without
// loading them.
/** @import {ReportModel} from './report-model.js' */

/** @typedef {ReportModel['kind']} ReportKind */

/**
 * @typedef {object} FormatEntry
 * @property {readonly ReportKind[]} kinds  the reports it renders
 * @property {string} describe  for --help
 */

const BOTH = Object.freeze(/** @type {ReportKind[]} */ (['diff', 'inspect']))

/**
 * In the order --help lists the formats.
 * @type {Readonly<Record<string, FormatEntry>>}
 */
export const FORMAT_TABLE = Object.freeze({
  text: Object.freeze({ kinds: BOTH, describe: 'for a terminal' }),
  json: Object.freeze({ kinds: BOTH, describe: 'the report model, schemaVersion 1' }),
  markdown: Object.freeze({ kinds: BOTH, describe: 'for a pull request or a step summary' }),
  junit: Object.freeze({ kinds: Object.freeze(/** @type {ReportKind[]} */ (['diff'])), describe: 'one test case per finding and gate' }),
  html: Object.freeze({ kinds: BOTH, describe: 'one page to open in a browser' })
})

/**
 * The formats that render a kind of report, in the registry's order.
 * @param {ReportKind} kind
 * @returns {string[]}
 */
export function formatsFor (kind) {
  return Object.keys(FORMAT_TABLE).filter((name) => FORMAT_TABLE[name].kinds.includes(kind))
}

/**
 * The formats of a kind of report for --help: `text (for a terminal), json (...), ...`.
 * @param {ReportKind} kind
 */
export function describeFormats (kind) {
  return formatsFor(kind).map((name) => `${name} (${FORMAT_TABLE[name].describe})`).join(', ')
}
