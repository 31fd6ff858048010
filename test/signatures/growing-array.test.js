import test from 'ava'
import { isRising, markedLocation, perRoundOf, reportOf, stepsOf, textCardOf } from '../helpers/fixture-reports.js'

const ID = 'growing-array'

test('a request log that is never trimmed: the array, its length per snapshot and the code that holds it', async (t) => {
  const report = await reportOf('signatures/request-log')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.owner.name, 'Array')
  t.is(finding.path.at(-1)?.edge, 'requestLog')
  t.is(finding.path.at(-1)?.id, finding.owner.id)

  // The line that adds to the log, read from the script's source in the snapshot; the handler
  // that closes over the log stays in the evidence, and is the function around that line.
  t.deepEqual(finding.location, markedLocation('signatures/request-log', '// adds: log', 'requestLog.push('))
  t.is(finding.evidence.locationRole, 'adds to it')
  t.deepEqual(finding.evidence.holderLocation, markedLocation('signatures/request-log', '// leak: log', '(req, res) =>'))
  t.deepEqual(finding.evidence.alsoAt, [])
  t.false(finding.evidence.notes.some((note) => note.startsWith('closed over by')), finding.evidence.notes.join('\n'))
  const { card } = await textCardOf('signatures/request-log', ID)
  // The card's location line, which wraps at 80 columns.
  t.regex((card ?? []).slice(1, 3).join(' ').replace(/\s+/g, ' '), /^ fixtures\/programs\/signatures\/request-log\.js:\d+:\d+ \(anonymous function, adds to it\)/)

  const perRound = await perRoundOf('signatures/request-log')
  const { counts, retained, unit } = finding.evidence
  t.is(unit, 'elements')
  t.deepEqual(stepsOf(counts), [perRound, perRound])
  t.true(isRising(retained))
  t.deepEqual(finding.evidence.elementClasses, ['{method, url, headers}'])
  t.true(finding.confidence >= 0.9, String(finding.confidence))
  t.regex(finding.fix.snippet, /if \(requestLog\.length > \d+\) requestLog\.shift\(\)/)
})

test('the fixed twin keeps the last records only: no finding', async (t) => {
  const report = await reportOf('signatures/request-log-fixed')
  t.deepEqual(report.findings, [])
})

test('signatures/string-slices: an array of short slices of big strings is fixed by copying them; the twin that copies and bounds has no finding', async (t) => {
  const [report, fixed] = await Promise.all([reportOf('signatures/string-slices'), reportOf('signatures/string-slices-fixed')])
  const finding = report.findings.find((f) => f.signature === ID && f.path.at(-1)?.edge === 'firstLines')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.deepEqual(finding.location, markedLocation('signatures/string-slices', '// leak: substring', 'firstLines.push('))
  const stores = /** @type {{kind: string, storeBytes: number}} */ (finding.evidence.backingStore)
  t.is(stores.kind, 'string')
  // Each log text is about 30 kB; the array keeps 24 characters of each.
  t.true(stores.storeBytes > 25_000 && stores.storeBytes < 40_000, String(stores.storeBytes))
  t.is(finding.fix.snippet.split('\n').at(-1), 'firstLines.push(structuredClone(log.substring(0, 24)))')
  t.deepEqual(fixed.findings, [])
  t.is(fixed.verdict, 'clean', fixed.reason)
})

test('signatures/weak-list: an array of WeakRefs nothing prunes names the WeakRefs that point at nothing and moves them to a Set a FinalizationRegistry deletes from; the twin that does has no finding', async (t) => {
  const [report, fixed] = await Promise.all([reportOf('signatures/weak-list'), reportOf('signatures/weak-list-fixed')])
  const finding = report.findings.find((f) => f.signature === ID && f.path.at(-1)?.edge === 'watched')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.deepEqual(finding.location, markedLocation('signatures/weak-list', '// leak: weak element', 'watched.push('))
  const perRound = await perRoundOf('signatures/weak-list')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  // Every connection record is gone by the last snapshot: all sampled WeakRefs point at nothing.
  const notes = /** @type {string[]} */ (finding.evidence.notes)
  t.true(notes.some((note) => /^(\d+) of \1 new entries sampled hold a WeakRef, \1 of them pointing at nothing/.test(note)), notes.join(' | '))
  t.regex(finding.fix.summary, /^watched keeps an element for every WeakRef after its object is collected \((\d+) of \1 sampled WeakRefs already point at nothing\)/)
  t.is(finding.fix.snippet, 'const watched = new Set()\nconst forgetWatched = new FinalizationRegistry((ref) => watched.delete(ref))\nconst ref = new WeakRef(value)\nwatched.add(ref)\nforgetWatched.register(value, ref)')
  t.deepEqual(fixed.findings, [])
  t.is(fixed.verdict, 'clean', fixed.reason)
})

test('signatures/holder-shapes: an array a WeakMap keeps for a module-level key is named as the program reads it', async (t) => {
  const report = await reportOf('signatures/holder-shapes')
  const finding = report.findings.find((f) => f.signature === ID)
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.regex(finding.title, /^meta\.get\(app\) \(Array\) only grows: /)
  t.is(finding.path.at(-2)?.edge, 'app')
  t.deepEqual(finding.fix.snippet.split('\n'), ['meta.get(app).push(record)', 'if (meta.get(app).length > 1000) meta.get(app).shift()'])
})

test('a CommonJS module deleted from require.cache and required per request: the requiring module\'s children, placed at the delete, never a bound on Node\'s array', async (t) => {
  const report = await reportOf('signatures/node-owned')
  const finding = report.findings.find((f) => f.signature === ID && f.path.at(-1)?.edge === 'children')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.is(finding.path.at(-2)?.node, 'Module')
  t.deepEqual(finding.location, markedLocation('signatures/node-owned', '// leak: reload', 'delete require.cache'))
  t.is(finding.evidence.locationRole, 'reloads it')
  t.deepEqual(finding.evidence.elementClasses, ['Module'])
  t.regex(finding.title, /^fixtures\/programs\/signatures\/node-owned\.js's module\.children .* only grows: [\d,]+ → [\d,]+ → [\d,]+ copies of fixtures\/programs\/signatures\/node-owned-plugin\.cjs, one per require\(\)/)
  const perRound = await perRoundOf('signatures/node-owned')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.summary, /keeps every copy in its module\.children/)
  t.regex(finding.fix.snippet, /require\('\.\/node-owned-plugin\.cjs'\)/)
  t.notRegex(finding.fix.snippet, /shift\(\)/)
})

test('a heap that churns hard but keeps nothing gives no finding', async (t) => {
  const report = await reportOf('diff/churn')
  t.is(report.verdict, 'clean', report.reason)
  t.deepEqual(report.findings, [])
})

test('an async hook enabled per request: Node\'s list of hooks, placed at the hooks\' callbacks, fixed by making it once or disable()', async (t) => {
  const report = await reportOf('signatures/node-owned')
  const finding = report.findings.find((f) => f.signature === ID && String(f.evidence.nodeModule).startsWith('node:internal/async_hooks'))
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.is(finding.owner.name, 'Array')
  t.is(finding.path.at(-1)?.edge, 'array')
  t.regex(String(finding.evidence.nodeModule), /^node:internal\/async_hooks/)
  t.regex(finding.title, /enabled AsyncHook objects .* each enabled per call and never disabled\.$/)
  // V8 starts a method at the `(` of its parameters: the first callback of the hook.
  t.deepEqual(finding.location, markedLocation('signatures/node-owned', '// leak: hook', '() {}, before', 'init'))
  t.deepEqual(finding.evidence.elementClasses, ['AsyncHook'])
  const perRound = await perRoundOf('signatures/node-owned')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.summary, /every async operation in the process calls each enabled hook/)
  t.regex(finding.fix.snippet, /\.disable\(\)/)
  t.notRegex(finding.fix.snippet, /shift\(\)/)
})

// The performance timeline keeps every mark until the program clears it: unlike Node's other
// lists, the program has a call that takes entries out, and the card gives it.
test('signatures/timing-marks: performance.mark() per request fills Node\'s buffer of marks, fixed by performance.clearMarks(), not by making it once', async (t) => {
  const report = await reportOf('signatures/timing-marks')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.regex(String(finding.evidence.nodeModule), /^node:internal\/perf\//)
  t.deepEqual(finding.evidence.elementClasses, ['PerformanceMark'])
  t.regex(finding.title, /^Node's buffer of performance marks \(node:internal\/perf\/\w+\) only grows: .* each buffered per call and never cleared\.$/)
  const perRound = await perRoundOf('signatures/timing-marks')
  // A start and an end mark per request.
  t.deepEqual(stepsOf(finding.evidence.counts), [2 * perRound, 2 * perRound])
  const notes = /** @type {string[]} */ (finding.evidence.notes)
  t.true(notes.some((note) => note.endsWith('only performance.clearMarks() takes entries out')), notes.join('\n'))
  t.false(notes.some((note) => note.includes('cannot shorten')), notes.join('\n'))
  t.regex(finding.fix.snippet, /performance\.clearMarks\(/)
  t.notRegex(`${finding.fix.summary}\n${finding.fix.snippet}`, /at start-up|shift\(\)/)
  // A mark holds nothing of the program's: the line is the program's call, read from its code.
  t.deepEqual(finding.location, markedLocation('signatures/timing-marks', '// leak: marks per request', 'mark(', ''))
  t.is(finding.evidence.locationRole, 'makes them')
})

test('signatures/timing-marks fixed (marks and measure cleared once read): no finding', async (t) => {
  const report = await reportOf('signatures/timing-marks', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})
