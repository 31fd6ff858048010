import test from 'ava'
import { join } from 'node:path'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { HEAP_NAMES } from '../../src/analysis/shown-names.js'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { tallyTimers } from '../../src/signatures/timers/live-timers.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { markedPosition, ROOT } from '../helpers/fixture-source.js'
import { PER_ROUND, WARMUP, checkWeakerWithTwoSnapshots, isRising, markedLocation, perRoundOf, reportOf, roundCounts, stepsOf } from '../helpers/fixture-reports.js'

const ID = 'forgotten-timer'

test('an interval per request that is never cleared: the timer list, the callback and the timers per snapshot', async (t) => {
  const report = await reportOf('signatures/forgotten-timer')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  // The finding makes it a leak: under Node 20 no growth row passes the thresholds; under Node 24
  // the global object owns the timers' growth (V8 12+ lets it dominate the timer lists), and the
  // finding claims that row.
  t.is(report.verdict, 'leak', report.reason)
  t.regex(report.reason, /^1 finding: forgotten-timer in /)
  const [finding] = report.findings
  // The 30 s list also holds the http.Server's own connection check, which the server references:
  // the ring of timers has two entries, so no growth row owns the timers and the finding stands alone.
  t.is(finding.owner.name, 'TimersList')
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['timerListMap', '30000'])
  t.is(finding.path.at(-1)?.id, finding.owner.id)

  t.deepEqual(finding.location, markedLocation('signatures/forgotten-timer', '// leak: interval per request', '() {', 'heartbeat'))

  const { evidence } = finding
  t.is(evidence.unit, 'timers')
  t.deepEqual(evidence.counts, roundCounts())
  t.is(evidence.perStep, PER_ROUND)
  t.is(evidence.ownerCount, 1)
  t.is(evidence.intervals, WARMUP + 2 * PER_ROUND)
  t.is(evidence.newTimers, 2 * PER_ROUND)
  t.is(evidence.durationMs, 30_000)
  t.true(isRising(evidence.retained))
  // Each callback keeps its request's session object (with a 16-element array) alive.
  const [top] = /** @type {Array<{name: string, bytes: number}>} */ (evidence.callbackVariables)
  t.is(top.name, 'session')
  t.true(top.bytes >= (WARMUP + 2 * PER_ROUND) * 100, `session bytes ${top.bytes}`)
  t.true(finding.confidence >= 0.85, String(finding.confidence))
  t.true(finding.reasons.some((reason) => /intervals/.test(reason)))
  t.regex(finding.fix.snippet, /const timer = setInterval\(heartbeat, 30000\)\nres\.on\('close', \(\) => clearInterval\(timer\)\)/)
})

test('with two snapshots the same timers are found, with lower confidence and a reason saying why', async (t) => {
  const found = await checkWeakerWithTwoSnapshots(t, 'signatures/forgotten-timer', ID)
  t.deepEqual(found?.two.evidence.counts, roundCounts(PER_ROUND, 2))
})

test('a delay of its own: the TimersList is the growth owner, and the finding claims its growth row', async (t) => {
  const report = await reportOf('signatures/forgotten-timer', { args: ['60000'] })
  t.is(report.verdict, 'leak', report.reason)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  const [row] = report.growth
  t.is(row.owner.name, 'TimersList')
  t.is(finding.owner.id, row.owner.id)
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['timerListMap', '60000'])
  t.is(finding.evidence.durationMs, 60_000)
  t.deepEqual(finding.evidence.counts, roundCounts())
  t.true(finding.reasons.includes(`they retain 100% of the growth held by TimersList @${row.owner.id}`), finding.reasons.join('; '))
  t.is(finding.location?.line, markedPosition('signatures/forgotten-timer', '// leak: interval per request').line)
})

test('the fixed twin clears its interval when the connection closes: no finding', async (t) => {
  const report = await reportOf('signatures/forgotten-timer-fixed')
  t.deepEqual(report.findings, [])
})

test('timeouts whose handles the program keeps in a Map and never clears: the Map is named, and the fix clears and deletes there', async (t) => {
  const report = await reportOf('signatures/kept-timers')
  t.deepEqual(report.findings.map((f) => f.signature), ['forgotten-timer'])
  const [finding] = report.findings
  t.deepEqual(finding.location, markedLocation('signatures/kept-timers', '// leak: kept', '() =>'))
  t.true(finding.evidence.notes.includes('the program keeps 100% of the new handles in retries (Map), and clears none of them'), finding.evidence.notes.join('\n'))
  t.regex(finding.fix.summary, /^the program keeps each handle in retries but never clears it/)
  t.deepEqual(finding.fix.snippet.split('\n').slice(1), ['clearTimeout(retries.get(id))', 'retries.delete(id)'])
})

// Timers a package runs for something the program started in it (node-cron's heartbeat of each task
// scheduled per request): the program holds no handle on them, so the card is about ending what it
// started, placed at the program's callback each timer keeps (written at the schedule call).
test('a package\'s own timers (node-cron\'s heartbeats): at the program\'s callback they keep, ended through what the package returned', async (t) => {
  const program = 'signatures/scheduled-tasks'
  const report = await reportOf(program)
  const finding = report.findings.flatMap((f) => [f, ...(f.also ?? [])]).find((f) => f.signature === ID)
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.deepEqual(finding.location, markedLocation(program, '// leak: schedule', '() =>'))
  t.is(finding.evidence.library, 'node-cron')
  t.regex(finding.fix.summary, /^these timers are node-cron's own: something the program makes through node-cron per call \(the call at fixtures\/programs\/signatures\/scheduled-tasks\.js:\d+/)
  // The task node-cron returned, alive and kept by the timers, offers the way out.
  t.like(finding.evidence.madeBy, { from: 'node-cron' })
  t.regex(finding.fix.snippet, new RegExp(`handle\\.${finding.evidence.madeBy?.method}\\(\\)`))
  t.notRegex(finding.fix.snippet, /setTimeout|setInterval/)
  t.true(finding.evidence.notes.some((note) => note.startsWith('the timers are node-cron\'s own, each keeping the program\'s function at')), finding.evidence.notes.join('\n'))
})

// rxjs runs an interval() as a timer whose callback is its scheduler's flush bound to an action,
// and the program's function sits several objects below (the action, two subscribers, an
// observer): the card is placed at that function and ends the subscription with unsubscribe().
test('rxjs interval() subscribed per request: rxjs\'s own timers, at the program\'s subscribe callback, ended with unsubscribe()', async (t) => {
  const program = 'signatures/rx-subscriptions'
  const report = await reportOf(program, { args: ['interval'] })
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.deepEqual(finding.location, markedLocation(program, '// leak: interval subscription', '(n) => { seen'))
  t.is(finding.evidence.library, 'rxjs')
  t.like(finding.evidence.madeBy, { from: 'rxjs', method: 'unsubscribe' })
  t.regex(finding.fix.snippet, /handle\.unsubscribe\(\)/)
  // The callback is rxjs's: what it captures is no variable of the program's.
  t.deepEqual(finding.evidence.callbackVariables, [])
  t.false(finding.evidence.notes.some((note) => note.startsWith('the callback captures')), finding.evidence.notes.join('\n'))
  const perRound = await perRoundOf(program, { args: ['interval'] })
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
})

// lodash's debounce() hands out a function, not an object: made in the same call as the timer's
// callback, it carries cancel(), which the card names.
test('lodash debounce() per request, never cancelled: lodash\'s own timers, at the program\'s function, ended with cancel()', async (t) => {
  const program = 'signatures/debounced-saves'
  const report = await reportOf(program)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.deepEqual(finding.location, markedLocation(program, '// leak: debounced save', '() =>'))
  t.is(finding.evidence.library, 'lodash')
  t.like(finding.evidence.madeBy, { className: 'function debounced', from: 'lodash', method: 'cancel' })
  t.regex(finding.fix.snippet, /handle\.cancel\(\)/)
  const perRound = await perRoundOf(program)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
})

test('lodash debounce() cancelled when its response closes: no finding', async (t) => {
  const report = await reportOf('signatures/debounced-saves', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
  t.is(report.verdict, 'clean')
})

// ioredis' client copies EventEmitter's constructor onto its prototype, and its base class has
// every Redis command: the class is the function that owns the prototype (Redis), and its own
// disconnect() beats the base's SHUTDOWN, which would stop the server.
test('an ioredis client per request that never connects, never disconnected: its reconnect timers, ended with the client\'s own disconnect()', async (t) => {
  const program = 'signatures/redis-clients'
  const report = await reportOf(program)
  const finding = report.findings.find((f) => f.signature === ID)
  if (finding === undefined) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.is(finding.evidence.library, 'ioredis')
  // At the program's function each timer keeps: the retryStrategy written on the client's line.
  t.is(finding.location?.line, markedLocation(program, '// leak: client per request', 'new Redis').line)
  t.like(finding.evidence.madeBy, { className: 'Redis', from: 'ioredis', method: 'disconnect' })
  t.regex(finding.fix.snippet, /handle\.disconnect\(\)/)
  t.notRegex(`${finding.fix.summary}\n${finding.fix.snippet}`, /shutdown/)
})

test('ioredis clients disconnected when their response closes: no finding', async (t) => {
  const report = await reportOf('signatures/redis-clients', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
  t.is(report.verdict, 'clean')
})

// A package's timers kept by an object of the package made per call: the object's own method that
// ends them is the fix (opossum's Status, made for each CircuitBreaker, and shutdown(); close()
// there closes the circuit), not a guess among stop, destroy and close.
test('signatures/circuit-breakers: a CircuitBreaker per request leaves opossum\'s intervals running; the fix names shutdown()', async (t) => {
  const report = await reportOf('signatures/circuit-breakers')
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.evidence.library, 'opossum')
  t.like(finding.evidence.madeBy, { from: 'opossum', method: 'shutdown' })
  const perRound = await perRoundOf('signatures/circuit-breakers')
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.regex(finding.fix.summary, /until shutdown\(\) ends them/)
  t.regex(finding.fix.snippet, /handle\.shutdown\(\)/)
  t.notRegex(`${finding.fix.summary}\n${finding.fix.snippet}`, /destroy|\bclose\(\)/)
})

test('signatures/circuit-breakers fixed (one breaker made at start-up): no finding', async (t) => {
  const report = await reportOf('signatures/circuit-breakers', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})

test('one analysis located from two working directories: each location relative to its own', async (t) => {
  const { files } = await captureFixture('signatures/forgotten-timer')
  const analysis = analyzeHeap(await parseSnapshot(files[2]))
  const fileIn = (/** @type {string} */ cwd) => [...tallyTimers(analysis, cwd, HEAP_NAMES, false).values()]
    .map((tally) => tally.location?.file).find((file) => file?.endsWith('forgotten-timer.js'))
  const fromRoot = fileIn(ROOT)
  t.is(fromRoot, 'fixtures/programs/signatures/forgotten-timer.js')
  t.is(fileIn(join(ROOT, 'fixtures')), 'programs/signatures/forgotten-timer.js')
  t.is(fileIn(ROOT), fromRoot)
})
