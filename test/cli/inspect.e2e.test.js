// What only the CLI's own process shows of `leakdiff inspect`: `-` reads standard input, yargs'
// own refusals, the exit code, and --debug's stack. The report itself: inspect.test.js.
import test from 'ava'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { inspect } from '../helpers/cli-in-process.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { tempDir } from '../helpers/temp-dir.js'
import { leakdiff } from '../helpers/run-cli.js'

test('inspect - reads the snapshot from standard input, plain or gzip, with the same report', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const dir = await tempDir('leakdiff-stdin-')
  const gz = join(dir, 'mixed.heapsnapshot.gz')
  await writeFile(gz, gzipSync(await readFile(files[0])))
  const [fromFile, fromStdin, fromGzip] = await Promise.all([
    inspect(files[0], { format: 'json' }),
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

test('bad input and bad arguments: one line on stderr, exit 2, no stack trace but with --debug', async (t) => {
  const dir = await tempDir('leakdiff-cli-')
  const empty = join(dir, 'empty.heapsnapshot')
  await writeFile(empty, '')
  /** @type {Array<[string[], RegExp]>} */
  const cases = [
    [['inspect', empty], /empty\.heapsnapshot at byte 0: empty input/],
    [['inspect'], /^leakdiff: Expected a snapshot to inspect: leakdiff inspect <snapshot>/],
    [['inspect', empty, '--top', '-1'], /--top expects a whole number/]
  ]
  const [debug, ...runs] = await Promise.all([leakdiff(['inspect', empty, '--debug']), ...cases.map(([args]) => leakdiff(args))])
  for (const [i, { stderr, stdout, code }] of runs.entries()) {
    t.is(code, 2, cases[i][0].join(' '))
    t.is(stdout, '')
    t.regex(stderr, cases[i][1])
    t.false(/\n\s+at /.test(stderr), 'no stack trace')
    t.true(stderr.startsWith('leakdiff: '))
  }
  t.is(debug.code, 2)
  t.regex(debug.stderr, /\n\s+at /, '--debug shows the stack')
})
