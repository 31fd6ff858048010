import test from 'ava'
import { PER_ROUND, checkCleanTwin, isRising, markedLocation, perRoundOf, reportOf, roundCounts, stepsOf } from '../helpers/fixture-reports.js'

const ID = 'closure-retention'

test('callbacks capturing req and res in a module-level list: claimed as closure retention, not as a growing array', async (t) => {
  const report = await reportOf('signatures/closure-retention')
  t.deepEqual(report.findings.map((f) => f.signature), [ID, 'unbounded-collection'])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Array')
  t.is(finding.path.at(-1)?.edge, 'auditLines')
  t.is(finding.path.at(-1)?.id, finding.owner.id)
  t.is(finding.owner.id, report.growth[0].owner.id)

  t.deepEqual(finding.location, markedLocation('signatures/closure-retention', '// leak: captures req and res', '() =>'))

  const perRound = await perRoundOf('signatures/closure-retention')
  const { evidence } = finding
  t.is(evidence.unit, 'closures')
  t.deepEqual(evidence.counts, roundCounts(perRound))
  t.is(evidence.perStep, perRound)
  t.is(evidence.ownerCount, 1)
  t.true(isRising(evidence.retained))
  const variables = /** @type {Array<{name: string, bytes: number}>} */ (evidence.capturedVariables)
  t.deepEqual(variables.map((v) => v.name).sort(), ['req', 'res'])
  // A request/response pair is kilobytes; each closure keeps one.
  t.true(/** @type {number} */ (evidence.bytesPerClosure) > 1000, `bytesPerClosure ${evidence.bytesPerClosure}`)
  t.true(/** @type {number} */ (evidence.rowShare) > 0.9)
  t.true(finding.confidence >= 0.85, String(finding.confidence))
  t.regex(finding.title, /capture (res, req|req, res) and are kept by auditLines \(Array\)/)
})

test('callbacks that capture only a function (a promise\'s resolve) kept in a set: the set is the finding, not what they capture', async (t) => {
  const report = await reportOf('signatures/closure-retention')
  const finding = report.findings.find((f) => f.path.at(-1)?.edge === 'waiting')
  if (!finding) return t.fail(JSON.stringify(report.findings.map((f) => f.title)))
  t.is(finding.signature, 'unbounded-collection')
  t.deepEqual(finding.location, markedLocation('signatures/closure-retention', '// leak: fired timers stay in the set', 'waiting.add(', 'pause'))
  t.false(report.findings.some((f) => f.signature === ID && f.path.at(-1)?.edge === 'waiting'))
})

// Closures a package made (winston's child logger: `write` over the metadata it was handed): what
// they capture is not the program's to change, so the Map that keeps one per call is the finding.
test('a package\'s closures kept in a Map, one per request: the Map is the finding, named with the package\'s closure, not "capture only what the callback uses"', async (t) => {
  const report = await reportOf('signatures/package-closures')
  t.deepEqual(report.findings.map((f) => f.signature), ['unbounded-collection'])
  const [finding] = report.findings
  t.is(finding.path.at(-1)?.edge, 'requestLogs')
  t.deepEqual(finding.location, markedLocation('signatures/package-closures', '// leak: child logger per request', 'requestLogs.set('))
  const perRound = await perRoundOf('signatures/package-closures')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.deepEqual(finding.evidence.valueClasses, ['DerivedLogger'])
  const note = finding.evidence.notes.find((n) => n.startsWith('each entry (DerivedLogger) holds a closure of winston\'s code'))
  if (note === undefined) return t.fail(finding.evidence.notes.join('\n'))
  t.regex(note, /\(value at node_modules\/winston\/lib\/winston\/logger\.js:\d+\) that keeps defaultRequestMetadata: /)
  t.regex(finding.fix.summary, /^the entries are DerivedLogger objects from winston, .* requestLogs keeps one per call: take each out when its work is done/)
  t.notRegex(finding.fix.summary, /capture only|LRU/)
  t.is(finding.fix.snippet, 'requestLogs.set(meta.requestId, log)\ntry {\n  // ... the work, as before\n} finally {\n  requestLogs.delete(meta.requestId)\n}')
})

test('the package closures\' fixed twin takes each entry out in a finally: no finding', (t) => checkCleanTwin(t, 'signatures/package-closures-fixed'))

test('the fixed twin captures only a number: no finding', async (t) => {
  const report = await reportOf('signatures/closure-retention-fixed')
  t.deepEqual(report.findings, [])
})

test('one long-lived closure whose scope variable keeps growing: the scope, the variable and the function', async (t) => {
  const report = await reportOf('signatures/closure-scope')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'system / Context')
  t.is(finding.path.at(-1)?.id, finding.owner.id)
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['record', 'context'])

  t.deepEqual(finding.location, markedLocation('signatures/closure-scope', '// leak: history grows', '(/**', 'record'))

  const { evidence } = finding
  t.is(evidence.unit, 'objects')
  const steps = stepsOf(evidence.counts)
  // A fixed number of objects per request (the entry, its headers copy and arrays), about the same
  // each round (the engine may add a few objects of its own to the subtree).
  t.true(steps[0] >= 3 * PER_ROUND, `steps ${steps}`)
  t.true(Math.abs(steps[0] - steps[1]) <= steps[0] * 0.02, `steps ${steps}`)
  t.deepEqual(/** @type {Array<{name: string}>} */ (evidence.capturedVariables).map((v) => v.name), ['history'])
  t.true(isRising(evidence.retained))
  t.true(finding.confidence >= 0.75, String(finding.confidence))
})

test('the fixed twin of the growing scope keeps a bounded window: no finding', async (t) => {
  const report = await reportOf('signatures/closure-scope-fixed')
  t.deepEqual(report.findings, [])
})
