// The unit layer runs as a few AVA worker threads, a directory or a few small ones each
// (test/suites/, ava.config.js): a test file left out of its suite would never run in `npm test`,
// and a suite naming a file that is gone would fail to load. Each unit test file is in exactly one
// suite. The end-to-end files that only start processes share a thread the same way
// (test/suites/e2e/); what holds state of its own thread stays alone.
import test from 'ava'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suiteImports } from './helpers/suite-imports.js'

const TEST_DIR = fileURLToPath(new URL('./', import.meta.url))
/** Files AVA runs as they are, outside the suites. */
const ON_THEIR_OWN = new Set(['report/golden.test.js'])

const testFiles = readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split('\\').join('/'))
  .filter((file) => file.endsWith('.test.js'))

test('every unit test file is imported by exactly one suite, and every suite imports only unit test files', (t) => {
  const unit = testFiles.filter((file) => !file.endsWith('.e2e.test.js') && !ON_THEIR_OWN.has(file))
  /** @type {Map<string, string[]>} */
  const suitesOf = new Map(unit.map((file) => [file, []]))
  for (const [suite, files] of suiteImports('suites')) {
    for (const file of files) {
      const suites = suitesOf.get(file)
      if (suites) suites.push(suite)
      else t.fail(`test/suites/${suite} imports test/${file}, which is not a unit test file`)
    }
  }
  for (const [file, suites] of suitesOf) {
    t.is(suites.length, 1, `test/${file} is in ${suites.length === 0 ? 'no suite: import it from test/suites/' : `${suites.join(' and ')}`}`)
  }
})

// A snapshot of the thread (assertNoLeak, the agent, v8's own) would hold the other files' tests
// and cost more; a serial test would wait for every other file's.
const OWN_THREAD = /\btest\.serial\b|\b(assertNoLeak|startAgent|writeSnapshotFile|getHeapSnapshot|writeHeapSnapshot|captureSnapshot)\b/

test('an end-to-end file shares a thread in at most one suite, and only when none of its tests holds state of its own thread', (t) => {
  const e2e = new Set(testFiles.filter((file) => file.endsWith('.e2e.test.js')))
  /** @type {Map<string, string>} */
  const seen = new Map()
  for (const [suite, files] of suiteImports('suites/e2e')) {
    for (const file of files) {
      t.true(e2e.has(file), `test/suites/e2e/${suite} imports test/${file}, which is not an end-to-end test file`)
      t.false(seen.has(file), `test/${file} is in ${seen.get(file)} and ${suite}`)
      seen.set(file, suite)
      // Its code, without the comments that name what it leaves to other files.
      const source = e2e.has(file) ? readFileSync(join(TEST_DIR, file), 'utf8').replace(/^\s*\/\/.*$/gm, '') : ''
      t.notRegex(source, OWN_THREAD, `test/${file} needs a thread of its own`)
    }
  }
  t.true(seen.size > 0)
})
