import test from 'ava'
import { copyFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { tempDir } from '../helpers/temp-dir.js'
import { leakdiff } from '../helpers/run-cli.js'

/** @param {string} stderr */
function errorLines (stderr) {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Run \'leakdiff --help\''))
}

test('a misspelt --fail-on id is refused with the known ids, before any snapshot is read', async (t) => {
  const { stdout, stderr, code } = await leakdiff(['missing-a.heapsnapshot', 'missing-b.heapsnapshot', '--fail-on', 'unbounded-collection,forgoten-timer'])
  t.is(code, 2)
  t.is(stdout, '')
  t.deepEqual(errorLines(stderr), [errorLines(stderr)[0]])
  t.regex(stderr, /^leakdiff: --fail-on expects 'any' or signature ids \(.*forgotten-timer.*\), got 'forgoten-timer'\n/)
})

test('an invalid --format choice is one line', async (t) => {
  const { stderr, code } = await leakdiff(['missing-a.heapsnapshot', 'missing-b.heapsnapshot', '--format', 'xml'])
  t.is(code, 2)
  t.deepEqual(errorLines(stderr), ['leakdiff: Invalid values: Argument: format, Given: "xml", Choices: "text", "json", "markdown", "junit", "html"'])
})

test('an --output that cannot be written is refused before the snapshots are read', async (t) => {
  const dir = await tempDir('leakdiff-usage-')
  const cases = [
    [['missing-a.heapsnapshot', 'missing-b.heapsnapshot', '-o', join(dir, 'no', 'report.txt')], /^leakdiff: Cannot write the report to .*report\.txt: no directory /],
    [['missing-a.heapsnapshot', 'missing-b.heapsnapshot', '-o', dir], /^leakdiff: Cannot write the report to .*: it is a directory\n/],
    [['inspect', 'missing-a.heapsnapshot', '-o', join(dir, 'no', 'report.json')], /^leakdiff: Cannot write the report to .*report\.json: no directory /]
  ]
  for (const [args, expected] of /** @type {Array<[string[], RegExp]>} */ (cases)) {
    const { stdout, stderr, code } = await leakdiff(args)
    t.is(code, 2, args.join(' '))
    t.is(stdout, '')
    t.regex(stderr, expected)
    t.false(stderr.includes('internal error'))
  }
})

test('capture refuses the signals the agent refuses, before anything is sent', async (t) => {
  // Our own pid: SIGUSR1 would open this process's inspector, SIGTERM would end it.
  for (const signal of ['usr1', 'SIGTERM']) {
    const { stderr, code } = await leakdiff(['capture', String(process.pid), '--signal', signal, '--timeout', '1s'])
    t.is(code, 2)
    t.regex(stderr, /^leakdiff: --signal SIG(USR1|TERM): the agent never listens on it/)
  }
  const unknown = await leakdiff(['capture', String(process.pid), '--signal', 'nosuch'])
  t.is(unknown.code, 2)
  t.regex(unknown.stderr, /^leakdiff: --signal expects a signal name such as SIGUSR2 or SIGHUP, got 'nosuch'\n/)
})

test('inspect text fits 80 columns, retainer paths included; an empty diff says no class changed', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  // A copy: the same file twice is refused (below).
  const copy = join(await tempDir('leakdiff-usage-'), 'copy.heapsnapshot')
  await copyFile(files[0], copy)
  const [inspect, same] = await Promise.all([leakdiff(['inspect', files[0], '--top', '20']), leakdiff([files[0], copy])])
  t.is(inspect.code, 0)
  const lines = inspect.stdout.split('\n')
  t.true(lines.some((line) => line.startsWith('      ')), 'a wrapped path')
  for (const line of lines.slice(1)) t.true(line.length <= 80, line)
  t.is(same.code, 0)
  t.regex(same.stdout, /\nClasses\n {2}no class gained or lost objects\n/)
})

test('one snapshot given twice, by its name or through a link, is refused: it would diff to a clean nothing', async (t) => {
  const dir = await tempDir('leakdiff-usage-')
  const file = join(dir, 'a.heapsnapshot')
  await writeFile(file, '{}')
  await symlink(file, join(dir, 'b.heapsnapshot'))
  for (const second of [file, join(dir, 'b.heapsnapshot')]) {
    const { stdout, stderr, code } = await leakdiff([file, second])
    t.is(code, 2)
    t.is(stdout, '')
    t.deepEqual(errorLines(stderr), [`leakdiff: ${second} is given twice: diff snapshots taken at different times (oldest first)`])
  }
})
