// The unit layer runs as one AVA worker thread per directory (test/suites/, ava.config.js): a test
// file left out of its suite would never run in `npm test`, and a suite naming a file that is gone
// would fail to load. Each unit test file is in exactly one suite.
import test from 'ava'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const TEST_DIR = fileURLToPath(new URL('./', import.meta.url))
const SUITES = join(TEST_DIR, 'suites')
/** Files AVA runs as they are, outside the suites. */
const ON_THEIR_OWN = new Set(['report/golden.test.js'])

test('every unit test file is imported by exactly one suite, and every suite imports only unit test files', (t) => {
  const unit = readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js') && !file.endsWith('.e2e.test.js') && !ON_THEIR_OWN.has(file.split('\\').join('/')))
    .map((file) => file.split('\\').join('/'))
  /** @type {Map<string, string[]>} */
  const suitesOf = new Map(unit.map((file) => [file, []]))
  for (const suite of readdirSync(SUITES).filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(join(SUITES, suite), 'utf8')
    for (const [, specifier] of source.matchAll(/^import '([^']+)'$/gm)) {
      const file = relative(TEST_DIR, join(SUITES, specifier)).split('\\').join('/')
      const suites = suitesOf.get(file)
      if (suites) suites.push(suite)
      else t.fail(`test/suites/${suite} imports ${specifier}, which is not a unit test file`)
    }
  }
  for (const [file, suites] of suitesOf) {
    t.is(suites.length, 1, `test/${file} is in ${suites.length === 0 ? 'no suite: import it from test/suites/' : `${suites.join(' and ')}`}`)
  }
})
