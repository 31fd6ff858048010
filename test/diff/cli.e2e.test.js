// What only the CLI's own process shows of `leakdiff a b c`: the exit code, NO_COLOR and
// FORCE_COLOR, `-` for standard input, and --output read from the command line. What the report
// says: cli.test.js, in the test's process.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { renderDiffReport } from 'leakdiff'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { tempDir } from '../helpers/temp-dir.js'
import { leakdiff } from '../helpers/run-cli.js'

test('a leak exits 1 with the text report on stdout, without colour under NO_COLOR, and its reason on stderr; FORCE_COLOR colours a clean report, exit 0', async (t) => {
  const [{ files }, churn] = await Promise.all([captureFixture('diff/map-cache'), captureFixture('diff/churn')])
  const [plain, colored] = await Promise.all([leakdiff(files), leakdiff(churn.files, { FORCE_COLOR: '1', NO_COLOR: undefined })])
  t.is(plain.code, 1)
  t.regex(plain.stdout, /^leakdiff 3 snapshots/)
  t.regex(plain.stdout.split('\n')[3], /^LEAK {2}/)
  t.false(plain.stdout.includes('\x1b['))
  t.regex(plain.stderr, /^leakdiff: leak found: [^\n]+\n$/)
  t.is(colored.code, 0, colored.stderr)
  t.true(colored.stdout.includes('\x1b['))
  t.regex(colored.stdout, /CLEAN/)
})

test('- diffs a snapshot read from standard input, once at most; --output takes the report off stdout', async (t) => {
  const { files } = await captureFixture('diff/map-cache')
  const output = join(await tempDir('leakdiff-cli-'), 'report.json')
  const [fromStdin, twice, report] = await Promise.all([
    leakdiff([files[0], '-', files[2], '--format', 'json', '--output', output], {}, { stdin: files[1] }),
    leakdiff(['-', '-', files[2]], {}, { stdin: files[1] }),
    sharedDiff(files)
  ])
  t.is(fromStdin.code, 1, fromStdin.stderr)
  t.is(fromStdin.stdout, '')
  const expected = JSON.parse(renderDiffReport(report, { format: 'json' }))
  const written = JSON.parse(await readFile(output, 'utf8'))
  t.is(written.snapshots[1].path, '<stdin>')
  t.deepEqual(written.findings, expected.findings)
  t.deepEqual(written.growth, expected.growth)
  t.is(twice.code, 2)
  t.is(twice.stdout, '')
  t.regex(twice.stderr, /^leakdiff: - \(standard input\) can be read only once/)
})
