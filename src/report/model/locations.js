// Where a finding's code is, and what a source map adds to it or to a frame of an allocation
// stack: where the code that ran is, and the source as written.
/** @import {SourceLocation as FoundLocation, SourceLines as FoundLines} from '../../signatures/finding.js' */
import { optional } from './optional-field.js'

/**
 * @typedef {object} Position
 * @property {string} file
 * @property {number} line    1-based
 * @property {number} column  1-based
 */

/**
 * Where a finding's code is, for people: 1-based; the file relative to the working directory.
 * @typedef {object} Location
 * @property {string} file
 * @property {number} line
 * @property {number} column
 * @property {string} function  '' when anonymous
 * @property {Position} [generated]  where the code that ran is, when the location was mapped
 *   through a source map (file, line and column above are then the original's)
 * @property {Position & {snippet: string | null}} [original]  the source as written, and its line
 * @property {string} [generatedFunction]  its name in the code that ran, when a minifier renamed it
 * @property {PackageFrame} [inside]  the growth is made inside a package that this line calls:
 *   the package's frame it called
 */

/**
 * @typedef {object} PackageFrame  the frame of a package (or of Node's own code) that a line of the program called
 * @property {string} package   the package's name, or `node` for Node's own code
 * @property {string} file
 * @property {number} line      1-based
 * @property {number} column    1-based
 * @property {string} function  '' when anonymous
 */

/**
 * @typedef {object} SourceLines  lines of the script that ran around an unmapped location
 * @property {string} file
 * @property {number} start   1-based number of `lines[0]`
 * @property {string[]} lines
 */

/**
 * @param {{file: string, line: number, column: number}} position
 * @returns {Position}
 */
function position (position) {
  return { file: position.file, line: position.line, column: position.column }
}

/**
 * @param {{file: string, line: number, column: number, snippet: string | null}} original
 * @returns {Position & {snippet: string | null}}
 */
function original (original) {
  return { file: original.file, line: original.line, column: original.column, snippet: original.snippet }
}

/**
 * @param {FoundLocation} found
 * @returns {Location}
 */
export function locationModel (found) {
  return { file: found.file, line: found.line, column: found.column, function: found.function, ...mappedParts(found), ...optional('inside', found.inside && packageFrame(found.inside)) }
}

/**
 * @param {PackageFrame} found
 * @returns {PackageFrame}
 */
function packageFrame (found) {
  return { package: found.package, file: found.file, line: found.line, column: found.column, function: found.function }
}

/**
 * What a source map adds to a location or a frame: where the code that ran is, the source as
 * written, and the function's name as it ran when a minifier renamed it.
 * @param {Pick<FoundLocation, 'generated' | 'original' | 'generatedFunction'>} found
 * @returns {Pick<Location, 'generated' | 'original' | 'generatedFunction'>}
 */
export function mappedParts (found) {
  return {
    ...optional('generated', found.generated && position(found.generated)),
    ...optional('original', found.original && original(found.original)),
    ...optional('generatedFunction', found.generatedFunction)
  }
}

/**
 * @param {FoundLines} found
 * @returns {SourceLines}
 */
export function sourceLinesModel (found) {
  return { file: found.file, start: found.start, lines: [...found.lines] }
}
