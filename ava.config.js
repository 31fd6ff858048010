import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// AVA loads this file once, in its main process. Fixture programs write their snapshots into this
// directory, shared by all test processes, so that each program runs once per AVA run however many
// test files read it (test/helpers/fixture-snapshots.js); it goes when AVA exits.
const fixtureDir = mkdtempSync(join(tmpdir(), 'leakdiff-fixtures-'))
process.once('exit', () => rmSync(fixtureDir, { recursive: true, force: true }))

export default {
  files: ['test/**/*.test.js'],
  timeout: '2m',
  workerThreads: false,
  environmentVariables: { LEAKDIFF_FIXTURE_DIR: fixtureDir }
}
