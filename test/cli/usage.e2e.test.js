// Command-line mistakes as the CLI's own process shows them: what yargs refuses, and a check's
// error, each one line with exit 2 before any snapshot is read. The checks' messages: usage.test.js.
import test from 'ava'
import { leakdiff } from '../helpers/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'

/** @param {string} stderr */
function errorLines (stderr) {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Run \'leakdiff --help\''))
}

test('a misspelt --fail-on id, an invalid --format choice and an --output that is a directory: one line each, exit 2, before any snapshot is read', async (t) => {
  const missing = ['missing-a.heapsnapshot', 'missing-b.heapsnapshot']
  const [failOn, format, output] = await Promise.all([
    leakdiff([...missing, '--fail-on', 'unbounded-collection,forgoten-timer']),
    leakdiff([...missing, '--format', 'xml']),
    leakdiff([...missing, '-o', await tempDir('leakdiff-usage-')])
  ])
  for (const { stdout, stderr, code } of [failOn, format, output]) {
    t.is(code, 2, stderr)
    t.is(stdout, '')
    t.is(errorLines(stderr).length, 1, stderr)
  }
  t.regex(failOn.stderr, /^leakdiff: --fail-on expects 'any' or signature ids \(.*forgotten-timer.*\), got 'forgoten-timer'\n/)
  t.deepEqual(errorLines(format.stderr), ['leakdiff: Invalid values: Argument: format, Given: "xml", Choices: "text", "json", "markdown", "junit", "html"'])
  t.regex(output.stderr, /^leakdiff: Cannot write the report to .*: it is a directory\n/)
})
