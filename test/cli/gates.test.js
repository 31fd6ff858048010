// The end of `leakdiff a b c` with gates, run in this process on the diff the CLI makes
// (emitReport, cli/report-output.js): the report, the gates' line on stderr, CI output and the exit
// code. What only the CLI's process shows (the flags read by yargs, the exit) is in gates.e2e.test.js.
import test from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { checkGateOptions } from '../../cli/gate-options.js'
import { emitReport } from '../../cli/report-output.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { gateArgv, inProcess } from '../helpers/cli-in-process.js'
import { tempDir } from '../helpers/temp-dir.js'
import { readXml } from '../helpers/xml.js'

// diff/listeners leaks a `config` listener per request (listener-accumulation); diff/churn keeps nothing.
// Each is diffed once, with the CLI's options, and every run below ends that same report.
const leaky = captureFixture('diff/listeners').then(({ files }) => sharedDiff(files))
const clean = captureFixture('diff/churn').then(({ files }) => sharedDiff(files))

/**
 * What `leakdiff a b c <flags>` writes and exits with, once the diff is made.
 * @param {Awaited<typeof leaky>} report
 * @param {Parameters<typeof gateArgv>[0]} [flags]
 * @param {{format?: string, env?: Record<string, string>}} [options]
 */
function ending (report, flags = {}, { format = 'text', env } = {}) {
  return inProcess(() => emitReport(report, { format, color: false, ...gateArgv(flags) }, { defaultGates: { verdict: true } }), env)
}

test('without gates the verdict decides (exit 1 on a leak); gates add to it, each line on stderr after the report', async (t) => {
  const report = await leaky
  const plain = await ending(report)
  const other = await ending(report, { 'fail-on': 'unbounded-collection,growing-array', 'max-growth': '5MB' })
  const tight = await ending(report, { 'max-growth': '10kB' })
  const loose = await ending(report, { 'max-growth': '5MB' })
  t.is(plain.code, 1)
  // On a leak verdict, the finding it rests on is what failed.
  t.regex(plain.stderr, /^leakdiff: leak found: listener-accumulation at fixtures\/programs\/diff\/listeners\.js:13:\d+: .+\n$/)
  t.notRegex(plain.stderr, /more finding|failed too/, 'the verdict is that same leak')
  t.regex(plain.stdout, /listener-accumulation {3}confidence/)
  t.false(plain.stdout.includes('::error'), 'no annotations outside GitHub Actions')
  // --fail-on chose other signatures: the pass says what it rests on.
  t.is(other.code, 0, other.stderr)
  t.regex(other.stderr, /^leakdiff: passed on a leak verdict: 1 finding not in fail-on \(listener-accumulation\); retained growth of leaking owners .+ within max-growth 5\.00 MB\n$/)
  t.regex(other.stdout, /^leakdiff 3 snapshots/)
  t.is(tight.code, 1)
  t.regex(tight.stderr, /^leakdiff: leak found: listener-accumulation at .+ \(max-growth failed too\)\n$/)
  // --max-growth alone leaves the verdict's gate in force: a leak under the limit still fails.
  t.is(loose.code, 1)
  t.regex(loose.stderr, /^leakdiff: leak found: listener-accumulation at .+\n$/)
  t.notRegex(loose.stderr, /more finding|failed too/)
})

// Which entries allow what (an unrelated signature allows nothing) is evaluateGates' job, checked in
// test/report/gates.test.js; here the list as --allow gives it, with and without other gates.
test('--allow waves a signature or a piece of the printed path through, with or without other gates', async (t) => {
  const report = await leaky
  const byPath = await ending(report, { allow: 'unbounded-collection, bus (EventEmitter) → _events' })
  const withGate = await ending(report, { 'fail-on': 'any', 'max-growth': '0', allow: 'listener-accumulation' }, { format: 'junit' })
  t.is(byPath.code, 0, byPath.stderr)
  t.is(byPath.stderr, 'leakdiff: passed on a leak verdict: 1 finding allowed (listener-accumulation)\n')
  t.regex(byPath.stdout, /listener-accumulation {3}confidence/, 'the finding is still reported')
  t.is(withGate.code, 0, withGate.stderr)
  const skipped = readXml(withGate.stdout).filter((e) => e.name === 'skipped')
  t.is(skipped.length, 1)
  t.regex(skipped[0].attributes.message, /^listener-accumulation at .+ \(allowed\)$/)
  // A list of nothing is a usage error (exit 2 in gates.e2e.test.js).
  t.throws(() => checkGateOptions(gateArgv({ allow: ' , ' })), { code: 'LEAKDIFF_USAGE', message: /^--allow expects signature ids/ })
})

test('a leak that only a finding shows (forgotten timers, no growth row over the thresholds): exit 1, and JUnit fails the finding', async (t) => {
  const { files } = await captureFixture('signatures/forgotten-timer')
  const report = await sharedDiff(files)
  const text = await ending(report)
  const junit = await ending(report, {}, { format: 'junit' })
  t.is(text.code, 1, text.stderr)
  t.regex(text.stderr, /^leakdiff: leak found: forgotten-timer at /)
  t.is(junit.code, 1)
  const elements = readXml(junit.stdout)
  t.is(elements.find((e) => e.name === 'testsuite')?.attributes.failures, '2')
  t.deepEqual(elements.filter((e) => e.name === 'failure').map((e) => e.attributes.type), ['finding', 'verdict'])
})

test('a clean diff passes every gate; bad gate values are usage errors', async (t) => {
  const passes = await ending(await clean, { 'fail-on': 'any', 'max-growth': '0' })
  t.is(passes.code, 0, passes.stderr)
  t.is(passes.stderr, '')
  // yargs' .check() runs these before the handler reads a snapshot (exit 2: gates.e2e.test.js).
  t.throws(() => checkGateOptions(gateArgv({ 'max-growth': 'lots' })), { code: 'LEAKDIFF_USAGE', message: /^--max-growth expects a size like 5MB/ })
  t.throws(() => checkGateOptions(gateArgv({ 'fail-on': ',' })), { code: 'LEAKDIFF_USAGE', message: /^--fail-on expects 'any' or signature ids/ })
})

test('--format junit: a well-formed test suite whose failed case carries the finding card; --fail-on any fails on the finding alone', async (t) => {
  const { stdout, stderr, code } = await ending(await leaky, { 'fail-on': 'any' }, { format: 'junit' })
  t.is(code, 1)
  // Only the finding failed: one line, nothing after it.
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
  const summary = join(await tempDir('leakdiff-gh-'), 'summary.md')
  const report = await leaky
  const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }
  const text = await ending(report, { 'fail-on': 'any' }, { env })
  const json = await ending(report, { 'fail-on': 'any' }, { format: 'json', env })
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

  t.is(json.code, 1)
  t.is(JSON.parse(json.stdout).findings[0].signature, 'listener-accumulation')
  t.regex(json.stderr, /^::error file=fixtures\/programs\/diff\/listeners\.js,line=13,/m)
  // Both runs appended to the file, as a job's steps do.
  t.is((await readFile(summary, 'utf8')).split('## leakdiff: LEAK').length, 3)
})
