// How a finding's location reads when it was mapped through a source map: the original file and
// line lead (locationText), then the original line itself and where the code that ran is; and, when
// the line calls into a package that made the growth, that package's frame. One place for every
// format, so the cards of text, markdown, JUnit and annotations say the same.
/** @import {Location} from './model/locations.js' */

/**
 * The lines that follow a mapped location: its source line (`49 │ cache.set(url, quote)`) when
 * known, and `ran as dist/handlers.js:38:9`. None for a location that was not mapped.
 * @param {Location | null} location
 * @returns {{snippet: string | null, generated: string | null}} text with control characters removed
 */
export function mappedLocationLines (location) {
  if (location === null || location.original === undefined || location.generated === undefined) return { snippet: null, generated: null }
  const { original, generated } = location
  return {
    snippet: original.snippet === null ? null : `${original.line} │ ${printable(original.snippet)}`,
    generated: `ran as ${printable(generated.file)}:${generated.line}:${generated.column}`
  }
}

/**
 * Text from source files, never read as terminal or markup control: control characters become spaces.
 * @param {string} text
 */
function printable (text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
}

/**
 * The package a location's line calls into, when the growth is made there: its name, the function
 * the line called (or ''), and where that is. Null for a location without one.
 * @param {Location | null} location
 * @returns {{package: string, function: string, at: string} | null}
 */
export function insideParts (location) {
  const inside = location?.inside
  if (inside === undefined) return null
  return { package: inside.package, function: inside.function, at: `${inside.file}:${inside.line}:${inside.column}` }
}

/**
 * `inside ajv: compile at node_modules/ajv/lib/core.ts:390:34`, or null.
 * @param {Location | null} location
 * @returns {string | null}
 */
export function insideText (location) {
  const parts = insideParts(location)
  return parts === null ? null : `inside ${parts.package}: ${parts.function === '' ? '' : `${parts.function} at `}${parts.at}`
}
