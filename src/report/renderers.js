// Every report format in one registry: a format's name -> a renderer `(model, options) => string`
// and the report kinds it fits (formats.js), so that each command offers every format that fits
// its report. The renderers read the Report model only.
import { InvalidArgumentError, describeValue } from '../errors.js'
import { evaluateGates } from './gates.js'
import { renderDiffReport } from './render-diff.js'
import { renderInspectReport } from './render-inspect.js'
import { renderJunitReport } from './render-junit.js'
import { renderHtmlReport } from './html/render-html.js'
import { FORMAT_TABLE, formatsFor } from './formats.js'
/** @import {DiffReport, ReportModel} from './report-model.js' */
/** @import {GateResult} from './gates.js' */

/**
 * What a renderer may be told; each takes what it needs and ignores the rest.
 * @typedef {object} RenderOptions
 * @property {boolean} [color]  text: colour on or off; undefined follows chalk's detection (a TTY, NO_COLOR, FORCE_COLOR)
 * @property {number} [width]   text: columns to fit (default 80)
 * @property {string} [cwd]     html: scripts in retainer paths are shown relative to it
 * @property {GateResult} [gates]  junit: what evaluateGates made of the report (default: the diff's
 *   verdict as the one gate, as the CLI judges a diff without --fail-on or --max-growth)
 * @property {string} [name]    junit: the test suite's name
 */

/** @typedef {(model: ReportModel, options?: RenderOptions) => string} Renderer */

/** @typedef {import('./formats.js').FormatEntry & {render: Renderer}} Format */

/** @type {Renderer} */
const text = (model, { color, width } = {}) => model.kind === 'diff'
  ? renderDiffReport(model, { format: 'text', color, width })
  : renderInspectReport(model, { format: 'text', color, width })

/** @type {Renderer} */
const json = (model) => model.kind === 'diff' ? renderDiffReport(model, { format: 'json' }) : renderInspectReport(model, { format: 'json' })

/** @type {Renderer} */
const markdown = (model) => model.kind === 'diff' ? renderDiffReport(model, { format: 'markdown' }) : renderInspectReport(model, { format: 'markdown' })

/** @type {Renderer} */
const html = (model, { cwd } = {}) => renderHtmlReport(model, { cwd })

/** @type {Renderer} */
const junit = (model, { gates, name } = {}) => {
  const report = /** @type {DiffReport} */ (model)
  return renderJunitReport(report, gates ?? evaluateGates(report, { verdict: true }), { name })
}

/** @type {Record<string, Renderer>} */
const RENDERERS = { text, json, markdown, junit, html }

/**
 * The registry, in the order --help lists the formats.
 * @type {Readonly<Record<string, Format>>}
 */
export const FORMATS = Object.freeze(Object.fromEntries(Object.entries(FORMAT_TABLE).map(([name, entry]) => [name, Object.freeze({ ...entry, render: RENDERERS[name] })])))

/**
 * Renders a diff or inspect report in a format of the registry.
 * @param {ReportModel} model
 * @param {RenderOptions & {format?: string}} [options]  format: a name of FORMATS (default text)
 * @returns {string}
 */
export function renderReport (model, { format = 'text', ...options } = {}) {
  const kind = model?.kind
  if (kind !== 'diff' && kind !== 'inspect') throw new InvalidArgumentError(`Expected a diff or inspect report (kind 'diff' or 'inspect'), got ${describeValue(kind)} as its kind`)
  const entry = Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined
  if (entry === undefined || !entry.kinds.includes(kind)) {
    throw new InvalidArgumentError(`Expected \`format\` to be one of ${formatsFor(kind).join(', ')} for ${kind === 'inspect' ? 'an' : 'a'} ${kind} report, got ${describeValue(format)}`)
  }
  return entry.render(model, options)
}
