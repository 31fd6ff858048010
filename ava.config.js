import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { startDiffService } from './test/helpers/diff-service.js'
import { scaledSeconds } from './test/helpers/load-deadline.js'
import { suiteImports } from './test/helpers/suite-imports.js'

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
// A unit test runs a function a few times on a small snapshot: optimizing it costs more than it
// saves. A sixth of the fast layer's CPU went to V8's optimizing compiler on its helper threads
// (perf, 2026-11-28). Functions are optimized after 16 times as much interpreted work as V8's
// default, with a quarter of its inlining: `npm run test:unit` took 61-80 s of CPU against 73-91 s,
// four rounds taking turns (docs/testing.md).
setFlagsFromString('--interrupt-budget=1081344')
setFlagsFromString('--max-inlined-bytecode-size-cumulative=230')

// `npm run test:unit` (LEAKDIFF_TESTS=unit): the fast layer alone, function calls on committed
// snapshots. `*.e2e.test.js` files start real processes, browsers and bundlers: `npm test` runs them too.
// A worker thread costs about 0.33 s of CPU before its first test (AVA's worker, compiled anew in
// each thread, and the package), so the unit files run a directory or a few small ones to a thread
// (test/suites/), and the end-to-end files that only start processes share one (test/suites/e2e/);
// golden.test.js runs on its own, as AVA names the snapshots it keeps after the file. Under
// `--watch`, or with files named on the command line, each file is its own thread, as AVA's
// dependency tracking and test titles expect.
const watching = process.argv.some((arg) => arg === '--watch' || arg === '-w')
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.js$|^test\b/.test(arg))
const unitOnly = process.env.LEAKDIFF_TESTS === 'unit'
const files = watching || named
  ? ['test/**/*.test.js', ...(unitOnly ? ['!test/**/*.e2e.test.js'] : [])]
  : ['test/suites/*.js', 'test/report/golden.test.js', ...(unitOnly ? [] : ['test/suites/e2e/*.js', 'test/**/*.e2e.test.js', ...suiteImports('suites/e2e').flatMap(([, imported]) => imported.map((file) => `!test/${file}`))])]

// Diffs of the committed fixture snapshots are made by threads of this process, warm after their
// first few, for every test thread (test/helpers/diff-service.js). Not in watch mode: this process
// and its threads outlive a run there, and would hand the next run diffs of the code before the
// change; each test thread makes its own instead.
const diffService = watching ? '' : startDiffService()

export default {
  files,
  // Test files wait on the processes they start for much of their time (a service's agent writing
  // a series, a watch rule firing, the diff service): two files per core keep the cores busy
  // meanwhile (AVA's default is one per core, two on CI): every test took 139–144 s against 159–161 s
  // on 2 cores, runs taking turns (docs/testing.md).
  concurrency: 2 * availableParallelism(),
  // A test that does nothing for this long has hung; a busy machine gets longer.
  timeout: scaledSeconds(120_000),
  workerThreads: true,
  environmentVariables: { LEAKDIFF_FIXTURE_DIR: fixtureDir, LEAKDIFF_DIFF_SERVICE: diffService }
}
