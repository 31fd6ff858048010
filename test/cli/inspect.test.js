// `leakdiff inspect` once yargs has parsed its command line: the command's handler run in this
// process (stdout, stderr and the exit code captured). Standard input, --debug and what yargs
// refuses need the CLI's own process: inspect.e2e.test.js.
import test from 'ava'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { checkReportOptions } from '../../cli/report-options.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { runDevtoolsOracle } from '../helpers/devtools-oracle.js'
import { inspect } from '../helpers/cli-in-process.js'
import { tempDir } from '../helpers/temp-dir.js'

test('inspect --format json gives the DevTools Summary numbers for every class', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const [{ stdout, code }, oracle] = await Promise.all([inspect(files[0], { format: 'json', top: 0 }), runDevtoolsOracle(files[0])])
  t.is(code, 0)
  const report = JSON.parse(stdout)
  t.is(report.schemaVersion, 1)
  t.is(report.kind, 'inspect')
  t.is(report.snapshot.nodeCount, oracle.nodeCount)
  t.is(report.snapshot.totalSize, oracle.totalSize)
  t.is(report.snapshot.bytes, (await readFile(files[0])).length)
  // DevTools keys classes by location too, so one name may have several rows: compare sorted rows.
  /** @param {Array<{name: string, count: number, self?: number, selfSize?: number, retained?: number, retainedSize?: number}>} rows */
  const normal = (rows) => rows.map((r) => `${r.name}|${r.count}|${r.selfSize ?? r.self}|${r.retainedSize ?? r.retained}`).sort()
  t.deepEqual(normal(report.classes), normal(oracle.classes))
  t.true(report.dominators.length > 0)
  for (const dominator of report.dominators) {
    t.true(dominator.retainedSize >= dominator.selfSize)
    t.true(dominator.path.length > 0)
    t.false(dominator.path.some((/** @type {{edgeType: string}} */ step) => step.edgeType === 'weak'))
  }
})

test('inspect text fits 80 columns in its tables and names the file', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const { stdout, code } = await inspect(files[0], { top: 5 })
  t.is(code, 0)
  t.true(stdout.startsWith(files[0]))
  const table = stdout.split('\n').filter((line) => /^\S.* \d[\d.,]* ?[kMG]?B\s*$/.test(line))
  t.true(table.length >= 5)
  for (const line of table) t.true(line.length <= 80, line)
  t.regex(stdout, /→ module fixtures\/programs\/engine\/mixed-heap\.js → cache \(Map\)/)
})

test('bad input: one line on stderr, exit 2, no stack trace', async (t) => {
  const dir = await tempDir('leakdiff-cli-')
  const empty = join(dir, 'empty.heapsnapshot')
  await writeFile(empty, '')
  const notJson = join(dir, 'notes.txt')
  await writeFile(notJson, 'hello')
  /** @type {Array<[string, RegExp]>} */
  const cases = [
    [join(dir, 'missing.heapsnapshot'), /missing\.heapsnapshot: no such file/],
    [dir, /is a directory/],
    [empty, /empty\.heapsnapshot at byte 0: empty input/],
    [notJson, /notes\.txt at byte 0: not a heap snapshot/]
  ]
  for (const [snapshot, expected] of cases) {
    const { stderr, stdout, code } = await inspect(snapshot)
    t.is(code, 2, snapshot)
    t.is(stdout, '')
    t.regex(stderr, expected)
    t.false(/\n\s+at /.test(stderr), 'no stack trace')
    t.true(stderr.startsWith('leakdiff: '))
    t.is(stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Run \'leakdiff --help\'')).length, 1)
  }
  // yargs' .check() refuses a bad --top before the handler runs (exit 2: inspect.e2e.test.js).
  t.throws(() => checkReportOptions({ top: -1 }), { code: 'LEAKDIFF_USAGE', message: /^--top expects a whole number/ })
})
