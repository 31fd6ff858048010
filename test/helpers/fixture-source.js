// Source positions in fixture programs, found at test time from marker comments, so that tests
// of reported source lines follow the programs when they are edited.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The repository root: tests pass it as `cwd`, so reported files read `fixtures/programs/...`. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The 1-based line of the line holding `marker` in fixtures/programs/<program>.js, and the 1-based
 * column of `token` on that line (V8 reports a function's start as the `(` of its parameters).
 * @param {string} program e.g. 'signatures/request-log'
 * @param {string} marker e.g. '// leak: log'
 * @param {string} [token]
 * @returns {{file: string, line: number, column: number}}
 */
export function markedPosition (program, marker, token = '(') {
  const file = `fixtures/programs/${program}.js`
  const lines = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').split('\n')
  const index = lines.findIndex((text) => text.includes(marker))
  if (index < 0) throw new Error(`Expected a line with ${JSON.stringify(marker)} in ${file}, found none`)
  const column = lines[index].indexOf(token)
  if (column < 0) throw new Error(`Expected ${JSON.stringify(token)} on line ${index + 1} of ${file}`)
  return { file, line: index + 1, column: column + 1 }
}
