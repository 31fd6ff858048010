// --fail-on, --max-growth and --allow: defined once for the commands that judge a diff (the diff,
// soak), and checked before a command runs. The gates themselves are applied by report-output.js.
import { parseFailOn, parseSize, SIGNATURE_IDS } from '#cli/support'
import { UsageError } from './output.js'

/**
 * The gate options. Parsed values that are wrong stay recognisable (NaN, an empty list) so that
 * checkGateOptions, run by yargs' `.check()` before the handler reads any snapshot, can say so: an
 * error thrown by `coerce` reaches the CLI without its code.
 */
export const GATE_OPTIONS = {
  'fail-on': {
    type: /** @type {const} */ ('string'),
    describe: 'Exit 1 when a finding of these signatures is found: ids separated by commas, or any',
    coerce: (/** @type {string | string[]} */ value) => {
      try {
        return parseFailOn(value)
      } catch {
        return []
      }
    }
  },
  'max-growth': {
    type: /** @type {const} */ ('string'),
    describe: 'Exit 1 when leaking owners retain more new memory than this: 5MB, 512kB, 4MiB, 1048576 (kB, MB, GB: powers of 1000; KiB, MiB, GiB: of 1024)',
    coerce: (/** @type {string | string[]} */ value) => parseSize(Array.isArray(value) ? value.at(-1) ?? '' : value) ?? NaN
  },
  allow: {
    type: /** @type {const} */ ('string'),
    describe: 'Findings and owners no gate counts, separated by commas: signature ids, or parts of an owner\'s retainer path or class name',
    coerce: (/** @type {string | string[]} */ value) => (Array.isArray(value) ? value : [value])
      .flatMap((part) => String(part).split(','))
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
  }
}

/**
 * For yargs' `.check()`.
 * @param {Record<string, unknown>} argv
 * @returns {true}
 */
export function checkGateOptions ({ failOn, maxGrowth, allow }) {
  if (Array.isArray(failOn) && failOn.length === 0) throw new UsageError('--fail-on expects \'any\' or signature ids separated by commas')
  // A misspelt id would make a gate that never fails: the build would pass on the very leak it guards.
  const unknown = Array.isArray(failOn) ? failOn.filter((id) => !SIGNATURE_IDS.includes(id)) : []
  if (unknown.length > 0) throw new UsageError(`--fail-on expects 'any' or signature ids (${SIGNATURE_IDS.join(', ')}), got ${unknown.map((id) => `'${id}'`).join(', ')}`)
  if (Array.isArray(allow) && allow.length === 0) throw new UsageError('--allow expects signature ids or parts of a retainer path, separated by commas')
  if (maxGrowth !== undefined && Number.isNaN(maxGrowth)) throw new UsageError('--max-growth expects a size like 5MB, 512kB, 4MiB or 1048576 (bytes)')
  return true
}
