// Gates given on the command line (or to a soak) add to the ones in force; none switches another
// off in silence, and a pass that rests on an allow or a threshold says so.
import test from 'ava'
import { DEFAULT_GATES, evaluateGates } from 'leakdiff'
import { gatesFor, measureGrowth, summarizePass } from '../../src/report/gates.js'
import { reportOf } from '../helpers/fixture-reports.js'

// diff/array-log pushes onto a module-level array per request: a growing-array leak.
const leaky = reportOf('diff/array-log')
const clean = reportOf('diff/churn')
/** The diff's own gate: the verdict. */
const DIFF = { verdict: true }

test('max-growth alone adds a limit: a leak well under it still fails on its verdict (diff) or finding (soak)', async (t) => {
  const report = await leaky
  t.is(report.verdict, 'leak')
  const limit = 4 * measureGrowth(report.growth)
  const diff = evaluateGates(report, gatesFor({ maxGrowth: limit }, DIFF))
  t.false(diff.ok)
  t.deepEqual(diff.violations.map((check) => check.gate), ['finding', 'verdict'])
  t.is(diff.violations[0].finding?.signature, 'growing-array')
  t.true(diff.checks.some((check) => check.gate === 'max-growth' && check.ok), 'the limit is checked too')
  const soak = evaluateGates(report, gatesFor({ maxGrowth: limit }, DEFAULT_GATES))
  t.deepEqual(soak.violations.map((check) => check.gate), ['finding'])
})

test('a pass that rests on allow, on fail-on\'s choice or on max-growth says so in one line', async (t) => {
  const report = await leaky
  const growth = measureGrowth(report.growth)
  /** @param {Parameters<typeof gatesFor>[0]} given */
  const pass = (given, /** @type {Parameters<typeof gatesFor>[1]} */ defaults = DIFF) => {
    const gates = gatesFor(given, defaults)
    const result = evaluateGates(report, gates)
    t.true(result.ok, JSON.stringify(given))
    return summarizePass(report, result, gates)
  }
  t.is(pass({ allow: ['growing-array'] }), 'passed on a leak verdict: 1 finding allowed (growing-array)')
  t.regex(pass({ failOn: ['listener-accumulation'], maxGrowth: 4 * growth }),
    /^passed on a leak verdict: 1 finding not in fail-on \(growing-array\); retained growth of leaking owners [\d.]+ kB within max-growth [\d.]+ [kM]B$/)
  t.regex(pass({ allow: ['growing-array'], maxGrowth: 4 * growth }, DEFAULT_GATES), /^passed on a leak verdict: 1 finding allowed \(growing-array\)$/)
  for (const gates of [DIFF, DEFAULT_GATES]) {
    const result = evaluateGates(await clean, gatesFor({}, gates))
    t.true(result.ok)
    t.is(summarizePass(await clean, result, gatesFor({}, gates)), '', 'nothing to say of a clean pass')
  }
})
