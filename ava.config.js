import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { startDiffService } from './test/helpers/diff-service.js'
import { scaledSeconds } from './test/helpers/load-deadline.js'

// AVA loads this file once, in its main process. Fixture programs write their snapshots into this
// directory, shared by all test processes, so that each program runs once per AVA run however many
// test files read it (test/helpers/fixture-snapshots.js); it goes when AVA exits.
const fixtureDir = mkdtempSync(join(tmpdir(), 'leakdiff-fixtures-'))
process.once('exit', () => rmSync(fixtureDir, { recursive: true, force: true }))

// Test processes run analyses the way the CLI does (cli/tune-v8.js): long loops compiled on the
// spot rather than on a helper thread, which costs less CPU in all on V8 12 and older and much more
// on V8 13, where it is left alone.
const V8_MAJOR = Number(process.versions.v8.split('.')[0])
// V8's flags are the process's: set here, they hold in every test worker thread.
if (V8_MAJOR <= 12) setFlagsFromString('--no-concurrent-osr')

// `npm run test:unit` (LEAKDIFF_TESTS=unit): the fast layer alone, function calls on committed
// snapshots. `*.e2e.test.js` files start real processes, browsers and bundlers: `npm test` runs them too.
const files = process.env.LEAKDIFF_TESTS === 'unit' ? ['test/**/*.test.js', '!test/**/*.e2e.test.js'] : ['test/**/*.test.js']

// Diffs of the committed fixture snapshots are made by threads of this process, warm after their
// first few, for every test thread (test/helpers/diff-service.js). Not in watch mode: this process
// and its threads outlive a run there, and would hand the next run diffs of the code before the
// change; each test thread makes its own instead.
const watching = process.argv.some((arg) => arg === '--watch' || arg === '-w')
const diffService = watching ? '' : startDiffService()

export default {
  files,
  // A test that does nothing for this long has hung; a busy machine gets longer.
  timeout: scaledSeconds(120_000),
  workerThreads: true,
  environmentVariables: { LEAKDIFF_FIXTURE_DIR: fixtureDir, LEAKDIFF_DIFF_SERVICE: diffService }
}
