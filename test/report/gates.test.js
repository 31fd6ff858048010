import test from 'ava'
import { evaluateGates, renderJunitReport, renderGithubAnnotations, DEFAULT_GATES } from 'leakdiff'
import { measureGrowth, summarizeViolations } from '../../src/report/gates.js'
import { parseFailOn } from '../../src/report/fail-on.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { readXml } from '../helpers/xml.js'

// diff/listeners adds a `config` listener to a module-level emitter per request; diff/churn keeps nothing.
const leaky = captureFixture('diff/listeners').then(({ files }) => sharedDiff(files, { top: 0 }))
const clean = captureFixture('diff/churn').then(({ files }) => sharedDiff(files, { top: 0 }))

test('growth is the retained growth of the leaking rows only', async (t) => {
  const report = await leaky
  const leaking = report.growth.filter((row) => row.leak)
  t.true(leaking.length > 0)
  t.is(measureGrowth(report.growth), leaking.reduce((sum, row) => sum + Math.max(0, row.retainedAfter - row.retainedBefore), 0))
  t.true(measureGrowth(report.growth) > 100_000)
  t.is(measureGrowth((await clean).growth), 0)
})

test('default gates fail a leaking report on the finding and on the growth; a clean one passes', async (t) => {
  const report = await leaky
  const result = evaluateGates(report, DEFAULT_GATES)
  t.false(result.ok)
  t.deepEqual(result.violations.map((check) => check.gate), ['finding', 'max-growth'])
  t.is(result.violations[0].finding?.signature, 'listener-accumulation')
  t.regex(summarizeViolations(result), /^leak found: listener-accumulation at fixtures\/programs\/diff\/listeners\.js:13:\d+: .+ \(max-growth failed too\)$/)
  t.true(evaluateGates(await clean, DEFAULT_GATES).ok)
  t.is(summarizeViolations(evaluateGates(await clean, DEFAULT_GATES)), '')
})

test('fail-on names signatures; max-growth is a limit in bytes; allow waves findings and owners through', async (t) => {
  const report = await leaky
  t.true(evaluateGates(report, { failOn: ['unbounded-collection'] }).ok)
  t.false(evaluateGates(report, { failOn: ['unbounded-collection', 'listener-accumulation'] }).ok)
  const growth = measureGrowth(report.growth)
  t.true(evaluateGates(report, { maxGrowth: growth }).ok)
  const over = evaluateGates(report, { maxGrowth: growth - 1 })
  // The largest owner as the report prints its path.
  const largest = report.growth.find((row) => row.leak)
  t.is(over.violations[0].message.split(' (largest: ')[1], `${largest?.pathText})`)
  t.regex(over.violations[0].message, /^retained growth of leaking owners .+ passes max-growth .+ \(largest: \(GC roots\) → module .+ → config \(Array\)\)$/)
  // By signature id: the finding and the growth row it explains are both allowed.
  const bySignature = evaluateGates(report, { ...DEFAULT_GATES, allow: ['listener-accumulation'] })
  t.true(bySignature.ok, summarizeViolations(bySignature))
  t.true(bySignature.checks[0].allowed)
  // By a piece of the owner's path.
  t.true(evaluateGates(report, { ...DEFAULT_GATES, allow: ['_events'] }).ok)
  // A piece of the path as the report prints it (folded, with classes), and in DevTools' notation.
  t.true(evaluateGates(report, { ...DEFAULT_GATES, allow: ['bus (EventEmitter) → _events'] }).ok)
  t.true(evaluateGates(report, { ...DEFAULT_GATES, allow: ['->bus → EventEmitter ._events'] }).ok)
  t.false(evaluateGates(report, { ...DEFAULT_GATES, allow: ['no-such-path'] }).ok)
  // assertNoLeak's gates (any finding, no growth): an allowed signature passes, and so does the growth it explains.
  t.false(evaluateGates(report, { failOn: 'any', maxGrowth: 0 }).ok)
  t.true(evaluateGates(report, { failOn: 'any', maxGrowth: 0, allow: ['listener-accumulation'] }).ok)
})

test('the verdict gate is the diff\'s own judgement; on a leak each finding not allowed fails with it', async (t) => {
  const leaking = evaluateGates(await leaky, { verdict: true })
  t.false(leaking.ok)
  t.deepEqual(leaking.violations.map((check) => check.gate), ['finding', 'verdict'])
  t.true(leaking.checks.every((check) => check.gated))
  // The verdict is that same leak, not one more failed check.
  t.regex(summarizeViolations(leaking), /^leak found: listener-accumulation at /)
  t.true(summarizeViolations(leaking).endsWith(`: ${leaking.violations[0].finding?.title}`), summarizeViolations(leaking))
  // Allowing the finding allows the verdict it rests on.
  const allowed = evaluateGates(await leaky, { verdict: true, allow: ['listener-accumulation'] })
  t.true(allowed.ok, summarizeViolations(allowed))
  t.deepEqual(allowed.checks.map((check) => [check.gate, check.allowed]), [['finding', true], ['verdict', true]])
  // What the CLI evaluates for `--allow <id>` without other gates: another signature's id allows nothing.
  t.false(evaluateGates(await leaky, { verdict: true, allow: ['unbounded-collection'] }).ok)
  t.true(evaluateGates(await clean, { verdict: true }).ok)
  // No gate at all: the finding is reported but judged by nothing.
  t.deepEqual(evaluateGates(await leaky, {}).checks.map((check) => [check.ok, check.gated]), [[true, false]])
})

test('bad gates throw LEAKDIFF_INVALID_ARG; parseFailOn reads lists', async (t) => {
  const report = await clean
  t.throws(() => evaluateGates(report, { maxGrowth: -1 }), { code: 'LEAKDIFF_INVALID_ARG' })
  t.throws(() => evaluateGates(report, { failOn: /** @type {any} */ ('listener-accumulation') }), { code: 'LEAKDIFF_INVALID_ARG' })
  t.deepEqual(parseFailOn('listener-accumulation, unbounded-collection'), ['listener-accumulation', 'unbounded-collection'])
  t.is(parseFailOn('growing-array,any'), 'any')
  t.throws(() => parseFailOn(' , '), { code: 'LEAKDIFF_INVALID_ARG' })
})

test('JUnit: well-formed, one test case per check, the failure carries the card', async (t) => {
  const report = await leaky
  const elements = readXml(renderJunitReport(report, evaluateGates(report, DEFAULT_GATES)))
  const suite = elements.find((e) => e.name === 'testsuite')
  t.is(suite?.attributes.tests, '2')
  t.is(suite?.attributes.failures, '2')
  const cases = elements.filter((e) => e.name === 'testcase')
  t.deepEqual(cases.map((e) => e.attributes.classname), ['leakdiff.finding', 'leakdiff.max-growth'])
  const failures = elements.filter((e) => e.name === 'failure')
  t.is(failures.length, 2)
  t.regex(failures[0].text, /listener-accumulation {3}confidence/)
  t.regex(failures[0].text, /fixtures\/programs\/diff\/listeners\.js:13:\d+/)
  t.regex(failures[0].text, /bus \(EventEmitter\)|\.bus/)
  const passing = readXml(renderJunitReport(await clean, evaluateGates(await clean, DEFAULT_GATES)))
  t.is(passing.find((e) => e.name === 'testsuite')?.attributes.failures, '0')
  t.is(passing.filter((e) => e.name === 'failure').length, 0)
})

test('JUnit agrees with the exit code: with the verdict gate a finding fails; allowed or not gated, it is skipped, never passing', async (t) => {
  const report = await leaky
  const suiteOf = (/** @type {Parameters<typeof evaluateGates>[1]} */ gates) => {
    const elements = readXml(renderJunitReport(report, evaluateGates(report, gates)))
    // A case's outcome is its child element (failure, skipped), or none for a passing case.
    const cases = elements.flatMap((e, i) => e.name !== 'testcase'
      ? []
      : [{ classname: e.attributes.classname, outcome: elements[i + 1]?.parents.at(-1) === 'testcase' ? elements[i + 1].name : 'passed' }])
    return { suite: elements.find((e) => e.name === 'testsuite')?.attributes, cases }
  }
  const verdict = suiteOf({ verdict: true })
  t.deepEqual(verdict.cases, [{ classname: 'leakdiff.finding', outcome: 'failure' }, { classname: 'leakdiff.verdict', outcome: 'failure' }])
  t.is(verdict.suite?.failures, '2')
  const allowed = suiteOf({ verdict: true, allow: ['listener-accumulation'] })
  t.deepEqual(allowed.cases.map((c) => c.outcome), ['skipped', 'skipped'])
  t.is(allowed.suite?.failures, '0')
  t.is(allowed.suite?.skipped, '2')
  const other = suiteOf({ failOn: ['unbounded-collection'] })
  t.deepEqual(other.cases, [{ classname: 'leakdiff.finding', outcome: 'skipped' }])
  t.regex(readXml(renderJunitReport(report, evaluateGates(report, { failOn: ['unbounded-collection'] }))).find((e) => e.name === 'skipped')?.attributes.message ?? '', /^not gated: listener-accumulation at /)
  const quiet = await clean
  t.deepEqual(readXml(renderJunitReport(quiet, evaluateGates(quiet, { verdict: true }))).filter((e) => e.name === 'failure'), [])
})

test('GitHub annotations: one ::error per finding with a location, escaped, and one per other failed gate', async (t) => {
  const report = await leaky
  const lines = renderGithubAnnotations(report, evaluateGates(report, DEFAULT_GATES)).trimEnd().split('\n')
  t.is(lines.length, 2)
  t.regex(lines[0], /^::error file=fixtures\/programs\/diff\/listeners\.js,line=13,col=\d+,title=leakdiff%3A listener-accumulation::A 'config' listener .+ Fix: .+$/)
  t.regex(lines[1], /^::error title=leakdiff%3A max-growth::retained growth of leaking owners /)
  t.is(renderGithubAnnotations(report, evaluateGates(report, { ...DEFAULT_GATES, allow: ['listener-accumulation'] })), '')
  // A finding that --fail-on does not name is shown on its line, but as a warning: the build did not fail on it.
  const ungated = renderGithubAnnotations(report, evaluateGates(report, { failOn: ['unbounded-collection'] })).trimEnd().split('\n')
  t.is(ungated.length, 1)
  t.regex(ungated[0], /^::warning file=fixtures\/programs\/diff\/listeners\.js,line=13,col=\d+,title=leakdiff%3A listener-accumulation::/)
})

test('the one line of a failed run counts the other findings that failed, and names the other gates, never the verdict they stand for', async (t) => {
  // Leaks in three packages and one of the program's own: several findings.
  const { files } = await captureFixture('alloc/library-leaks')
  const report = await sharedDiff(files, { top: 0 })
  t.true(report.findings.length >= 2)
  const byVerdict = evaluateGates(report, { verdict: true })
  t.deepEqual(byVerdict.violations.map((check) => check.gate), [...report.findings.map(() => 'finding'), 'verdict'])
  const more = report.findings.length - 1
  t.true(summarizeViolations(byVerdict).endsWith(` (and ${more} more finding${more === 1 ? '' : 's'})`), summarizeViolations(byVerdict))
  const withGrowth = evaluateGates(report, { verdict: true, maxGrowth: 0 })
  t.true(summarizeViolations(withGrowth).endsWith(` (and ${more} more finding${more === 1 ? '' : 's'}; max-growth failed too)`), summarizeViolations(withGrowth))
  // Growth alone, no finding judged: the gate's own line.
  t.regex(summarizeViolations(evaluateGates(report, { maxGrowth: 0 })), /^retained growth of leaking owners .+ passes max-growth 0 B/)
})
