import test from 'ava'
import { writeFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { runDevtoolsOracle } from '../helpers/devtools-oracle.js'
import { tempDir } from '../helpers/temp-dir.js'
import { leakdiff } from '../helpers/run-cli.js'

test('inspect --format json gives the DevTools Summary numbers for every class', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const [{ stdout, code }, oracle] = await Promise.all([leakdiff(['inspect', files[0], '--format', 'json', '--top', '0']), runDevtoolsOracle(files[0])])
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

test('inspect - reads the snapshot from standard input, plain or gzip, with the same report', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const dir = await tempDir('leakdiff-stdin-')
  const gz = join(dir, 'mixed.heapsnapshot.gz')
  await writeFile(gz, gzipSync(await readFile(files[0])))
  const [fromFile, fromStdin, fromGzip] = await Promise.all([
    leakdiff(['inspect', files[0], '--format', 'json']),
    leakdiff(['inspect', '-', '--format', 'json'], {}, { stdin: files[0] }),
    leakdiff(['inspect', '--format', 'json', '-o', '-', '-'], {}, { stdin: gz })
  ])
  t.is(fromFile.code, 0)
  const expected = JSON.parse(fromFile.stdout)
  for (const [name, run] of Object.entries({ fromStdin, fromGzip })) {
    t.is(run.code, 0, run.stderr)
    const report = JSON.parse(run.stdout)
    t.is(report.snapshot.path, '<stdin>', name)
    t.deepEqual({ ...report, snapshot: { ...report.snapshot, path: '' } }, { ...expected, snapshot: { ...expected.snapshot, path: '' } }, name)
  }
})

test('inspect text fits 80 columns in its tables and names the file', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const { stdout, code } = await leakdiff(['inspect', files[0], '--top', '5'])
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
  const cases = [
    [['inspect', join(dir, 'missing.heapsnapshot')], /missing\.heapsnapshot: no such file/],
    [['inspect', dir], /is a directory/],
    [['inspect', empty], /empty\.heapsnapshot at byte 0: empty input/],
    [['inspect', notJson], /notes\.txt at byte 0: not a heap snapshot/],
    [['inspect'], /Not enough non-option arguments/],
    [['inspect', empty, '--top', '-1'], /--top expects a whole number/]
  ]
  for (const [args, expected] of /** @type {Array<[string[], RegExp]>} */ (cases)) {
    const { stderr, stdout, code } = await leakdiff(args)
    t.is(code, 2, args.join(' '))
    t.is(stdout, '')
    t.regex(stderr, expected)
    t.false(/\n\s+at /.test(stderr), 'no stack trace')
    t.true(stderr.startsWith('leakdiff: '))
  }
  const { stderr } = await leakdiff(['inspect', empty, '--debug'])
  t.regex(stderr, /\n\s+at /, '--debug shows the stack')
})
