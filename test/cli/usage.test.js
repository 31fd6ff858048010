// Mistakes in a command line that the commands' checks catch, run in this process as the CLI runs
// them once yargs has parsed it (cli-in-process.js): one line, exit 2, before a snapshot is read or
// a signal sent. What yargs itself refuses, and the exit of the CLI's process: usage.e2e.test.js.
import test from 'ava'
import { copyFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { checkGateOptions } from '../../cli/gate-options.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { capture, diff, gateArgv, inspect } from '../helpers/cli-in-process.js'
import { tempDir } from '../helpers/temp-dir.js'

/** @param {string} stderr */
function errorLines (stderr) {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Run \'leakdiff --help\''))
}

test('a misspelt --fail-on id is refused with the known ids', (t) => {
  const error = t.throws(() => checkGateOptions(gateArgv({ 'fail-on': 'unbounded-collection,forgoten-timer' })), { code: 'LEAKDIFF_USAGE' })
  t.regex(error?.message ?? '', /^--fail-on expects 'any' or signature ids \(.*forgotten-timer.*\), got 'forgoten-timer'$/)
})

test('a mistyped command (read as a snapshot that does not exist) is named, with the command it may be', async (t) => {
  for (const [word, command] of [['inpsect', 'inspect'], ['Capture', 'capture'], ['captur', 'capture'], ['sok', 'soak']]) {
    const { stdout, stderr, code } = await diff([word, 'x.heapsnapshot'])
    t.is(code, 2, stderr)
    t.is(stdout, '')
    t.deepEqual(errorLines(stderr), [`leakdiff: '${word}' is no snapshot file nor a command: did you mean 'leakdiff ${command}'?`])
  }
  // A file that is missing is said to be missing, whatever its name is close to.
  const missing = await diff(['snap', 'x.heapsnapshot'])
  t.is(missing.code, 2)
  t.deepEqual(errorLines(missing.stderr), ['leakdiff: snap: no such file'])
})

test('a value given to a switch (--color never reaches the command as a snapshot named never) is named, with how switches are given', async (t) => {
  for (const snapshots of [['a.heapsnapshot', 'b.heapsnapshot', 'never'], ['a.heapsnapshot', 'b.heapsnapshot', 'c.heapsnapshot', 'always']]) {
    const { stdout, stderr, code } = await diff(snapshots)
    t.is(code, 2, stderr)
    t.is(stdout, '')
    t.deepEqual(errorLines(stderr), [`leakdiff: '${snapshots[snapshots.length - 1]}' is read as a snapshot: switches such as --color take no value (--color, --no-color)`])
  }
})

test('an --output that cannot be written is refused before the snapshots are read', async (t) => {
  const dir = await tempDir('leakdiff-usage-')
  const missing = ['missing-a.heapsnapshot', 'missing-b.heapsnapshot']
  const cases = [
    [diff(missing, { output: join(dir, 'no', 'report.txt') }), /^leakdiff: Cannot write the report to .*report\.txt: no directory /],
    [diff(missing, { output: dir }), /^leakdiff: Cannot write the report to .*: it is a directory\n/],
    [inspect('missing-a.heapsnapshot', { output: join(dir, 'no', 'report.json') }), /^leakdiff: Cannot write the report to .*report\.json: no directory /]
  ]
  for (const [run, expected] of /** @type {Array<[ReturnType<typeof diff>, RegExp]>} */ (cases)) {
    const { stdout, stderr, code } = await run
    t.is(code, 2, stderr)
    t.is(stdout, '')
    t.regex(stderr, expected)
    t.false(stderr.includes('internal error'))
  }
})

test('capture refuses the signals the agent refuses, before anything is sent', async (t) => {
  // Our own pid: SIGUSR1 would open this process's inspector, SIGTERM would end it.
  for (const signal of ['usr1', 'SIGTERM']) {
    const { stderr, code } = await capture(String(process.pid), { signal, timeout: '1s' })
    t.is(code, 2)
    t.regex(stderr, /^leakdiff: --signal SIG(USR1|TERM): the agent never listens on it/)
  }
  const unknown = await capture(String(process.pid), { signal: 'nosuch' })
  t.is(unknown.code, 2)
  t.regex(unknown.stderr, /^leakdiff: --signal expects a signal name such as SIGUSR2 or SIGHUP, got 'nosuch'\n/)
})

test('capture checks its arguments', async (t) => {
  const bad = await capture('abc')
  t.is(bad.code, 2)
  t.regex(bad.stderr, /^leakdiff: Expected a process id \(an integer > 0\), got 'abc'$/m)
  const timeout = await capture(String(process.pid), { timeout: 'soon' })
  t.is(timeout.code, 2)
  t.regex(timeout.stderr, /^leakdiff: --timeout expects a duration such as 10s, 2m or 500ms, got 'soon'$/m)
})

test('inspect text fits 80 columns, retainer paths included; an empty diff says no class changed', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  // A copy: the same file twice is refused (below).
  const copy = join(await tempDir('leakdiff-usage-'), 'copy.heapsnapshot')
  await copyFile(files[0], copy)
  const shown = await inspect(files[0], { top: 20 })
  const same = await diff([files[0], copy])
  t.is(shown.code, 0)
  const lines = shown.stdout.split('\n')
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
    const { stdout, stderr, code } = await diff([file, second])
    t.is(code, 2)
    t.is(stdout, '')
    t.deepEqual(errorLines(stderr), [`leakdiff: ${second} is given twice: diff snapshots taken at different times (oldest first)`])
  }
})
