// The test files each suite imports (test/suites/, ava.config.js): read by ava.config.js, which
// leaves a shared end-to-end suite's files out of the per-file glob, and by test/suites.test.js.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const TEST_DIR = fileURLToPath(new URL('../', import.meta.url))

/**
 * Each suite of a directory under test/, with the files it imports, relative to test/ (whatever the
 * working directory).
 * @param {string} dir  e.g. 'suites/e2e'
 * @returns {Array<[string, string[]]>} the suite's file name and its test files
 */
export function suiteImports (dir) {
  const suites = join(TEST_DIR, dir)
  return readdirSync(suites).filter((name) => name.endsWith('.js')).map((suite) => [suite,
    [...readFileSync(join(suites, suite), 'utf8').matchAll(/^import '([^']+)'$/gm)].map(([, specifier]) => relative(TEST_DIR, join(suites, specifier)).split('\\').join('/'))])
}
