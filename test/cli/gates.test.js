import test from 'ava'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { readXml } from '../helpers/xml.js'
import { leakdiff } from '../helpers/run-cli.js'

// diff/listeners leaks a `config` listener per request (listener-accumulation); diff/churn keeps nothing.
const leaky = captureFixture('diff/listeners').then(({ files }) => files)
const clean = captureFixture('diff/churn').then(({ files }) => files)

// Each CLI run diffs three snapshots (about a second of CPU), so a run checks all it can; `--fail-on
// any` alone is checked with --format junit below, which prints the same line on stderr.
test('without gates the verdict decides (exit 1 on a leak); gates add to it, each line on stderr after the report', async (t) => {
  const files = await leaky
  const [plain, other, tight, loose] = await Promise.all([
    leakdiff(files),
    leakdiff([...files, '--fail-on', 'unbounded-collection,growing-array', '--max-growth', '5MB']),
    leakdiff([...files, '--max-growth', '10kB']),
    leakdiff([...files, '--max-growth', '5MB'])
  ])
  t.is(plain.code, 1)
  // On a leak verdict, the finding it rests on is what failed.
  t.regex(plain.stderr, /^leakdiff: leak found: listener-accumulation at fixtures\/programs\/diff\/listeners\.js:13:\d+: .+ \(and 1 more failed check\)\n$/)
  t.regex(plain.stdout, /listener-accumulation {3}confidence/)
  t.false(plain.stdout.includes('::error'), 'no annotations outside GitHub Actions')
  // --fail-on chose other signatures: the pass says what it rests on.
  t.is(other.code, 0, other.stderr)
  t.regex(other.stderr, /^leakdiff: passed on a leak verdict: 1 finding not in fail-on \(listener-accumulation\); retained growth of leaking owners .+ within max-growth 5\.00 MB\n$/)
  t.regex(other.stdout, /^leakdiff 3 snapshots/)
  t.is(tight.code, 1)
  t.regex(tight.stderr, /^leakdiff: leak found: listener-accumulation at .+ \(and 2 more failed checks\)\n$/)
  // --max-growth alone leaves the verdict's gate in force: a leak under the limit still fails.
  t.is(loose.code, 1)
  t.regex(loose.stderr, /^leakdiff: leak found: listener-accumulation at .+ \(and 1 more failed check\)\n$/)
})

// Which entries allow what (an unrelated signature allows nothing) is evaluateGates' job, checked in
// test/report/gates.test.js; here the CLI reads the list, with and without other gates.
test('--allow waves a signature or a piece of the printed path through, with or without other gates', async (t) => {
  const files = await leaky
  const [byPath, withGate, empty] = await Promise.all([
    leakdiff([...files, '--allow', 'unbounded-collection, bus (EventEmitter) → _events']),
    leakdiff([...files, '--fail-on', 'any', '--max-growth', '0', '--allow', 'listener-accumulation', '--format', 'junit']),
    leakdiff([...files, '--allow', ' , '])
  ])
  t.is(byPath.code, 0, byPath.stderr)
  t.is(byPath.stderr, 'leakdiff: passed on a leak verdict: 1 finding allowed (listener-accumulation)\n')
  t.regex(byPath.stdout, /listener-accumulation {3}confidence/, 'the finding is still reported')
  t.is(withGate.code, 0, withGate.stderr)
  const skipped = readXml(withGate.stdout).filter((e) => e.name === 'skipped')
  t.is(skipped.length, 1)
  t.regex(skipped[0].attributes.message, /^listener-accumulation at .+ \(allowed\)$/)
  t.is(empty.code, 2)
  t.regex(empty.stderr, /^leakdiff: --allow expects signature ids/)
})

test('a leak that only a finding shows (forgotten timers, no growth row over the thresholds): exit 1, and JUnit fails the finding', async (t) => {
  const { files } = await captureFixture('signatures/forgotten-timer')
  const [text, junit] = await Promise.all([leakdiff(files), leakdiff([...files, '--format', 'junit'])])
  t.is(text.code, 1, text.stderr)
  t.regex(text.stderr, /^leakdiff: leak found: forgotten-timer at /)
  t.is(junit.code, 1)
  const elements = readXml(junit.stdout)
  t.is(elements.find((e) => e.name === 'testsuite')?.attributes.failures, '2')
  t.deepEqual(elements.filter((e) => e.name === 'failure').map((e) => e.attributes.type), ['finding', 'verdict'])
})

test('a clean diff passes every gate; bad gate values are usage errors (exit 2) before any snapshot is read', async (t) => {
  const files = await clean
  const [passes, badSize, badList] = await Promise.all([
    leakdiff([...files, '--fail-on', 'any', '--max-growth', '0']),
    leakdiff([...files, '--max-growth', 'lots']),
    leakdiff(['missing-a.heapsnapshot', 'missing-b.heapsnapshot', '--fail-on', ','])
  ])
  t.is(passes.code, 0, passes.stderr)
  t.is(badSize.code, 2)
  t.regex(badSize.stderr, /^leakdiff: --max-growth expects a size like 5MB/)
  t.is(badList.code, 2)
  t.regex(badList.stderr, /^leakdiff: --fail-on expects 'any' or signature ids/)
})

test('--format junit: a well-formed test suite whose failed case carries the finding card; --fail-on any fails on the finding alone', async (t) => {
  const { stdout, stderr, code } = await leakdiff([...await leaky, '--format', 'junit', '--fail-on', 'any'])
  t.is(code, 1)
  // Only the finding failed: no "(and 1 more failed check)", one line.
  t.regex(stderr, /^leakdiff: leak found: listener-accumulation at fixtures\/programs\/diff\/listeners\.js:13:\d+: .+\n$/)
  t.is(stderr.split('\n').length, 2)
  const elements = readXml(stdout)
  t.is(elements[0].name, 'testsuites')
  const cases = elements.filter((e) => e.name === 'testcase')
  t.is(cases.length, 1)
  t.regex(cases[0].attributes.name, /^finding listener-accumulation at fixtures\/programs\/diff\/listeners\.js:13:\d+$/)
  const failure = elements.find((e) => e.name === 'failure')
  t.deepEqual(failure?.parents, ['testsuites', 'testsuite', 'testcase'])
  t.regex(failure?.text ?? '', /listeners +100 → 1,100 → 2,100/)
  t.regex(failure?.text ?? '', /fix {2}/)
})

test('GITHUB_ACTIONS: ::error annotations on stdout (stderr with --format json) and the markdown report in the step summary', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-gh-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const summary = join(dir, 'summary.md')
  const files = await leaky
  const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }
  const [text, json] = await Promise.all([
    leakdiff([...files, '--fail-on', 'any'], env),
    leakdiff([...files, '--fail-on', 'any', '--format', 'json'], env)
  ])
  t.is(text.code, 1)
  // The report is a block the runner reads no commands in; the annotations follow it.
  const [, token] = /^::stop-commands::(\S+)\n/.exec(text.stdout) ?? []
  t.truthy(token)
  const after = text.stdout.slice(text.stdout.indexOf(`\n::${token}::\n`) + token.length + 6)
  const annotations = after.split('\n').filter((line) => line.startsWith('::'))
  t.is(annotations.length, 1)
  t.regex(annotations[0], /^::error file=fixtures\/programs\/diff\/listeners\.js,line=13,col=\d+,title=leakdiff%3A listener-accumulation::A 'config' listener is added to bus .+ Fix: /)
  const markdown = await readFile(summary, 'utf8')
  t.regex(markdown, /^## leakdiff: LEAK/)
  t.regex(markdown, /`listener-accumulation` at `fixtures\/programs\/diff\/listeners\.js:13:\d+`/)
  t.regex(markdown, /\*\*Failed:\*\* leak found: listener-accumulation/)

  t.is(JSON.parse(json.stdout).findings[0].signature, 'listener-accumulation')
  t.regex(json.stderr, /^::error file=fixtures\/programs\/diff\/listeners\.js,line=13,/m)
  // Both runs appended to the file, as a job's steps do.
  t.is((await readFile(summary, 'utf8')).split('## leakdiff: LEAK').length, 3)
})
