// `--fail-on` and `failOn` as text, read apart from the gates: the CLI checks the option before a
// command runs, without loading the renderers the gates' messages use.
import { InvalidArgumentError, describeValue } from '../errors.js'

/**
 * Reads `--fail-on` / `failOn` text: `any`, or signature ids separated by commas.
 * @param {string | string[]} text
 * @returns {'any' | string[]}
 */
export function parseFailOn (text) {
  const ids = (Array.isArray(text) ? text : [text]).flatMap((part) => String(part).split(',')).map((id) => id.trim()).filter((id) => id !== '')
  if (ids.length === 0) throw new InvalidArgumentError(`Expected \`any\` or signature ids separated by commas, got ${describeValue(text)}`)
  return ids.includes('any') ? 'any' : ids
}
