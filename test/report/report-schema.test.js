// The JSON contract: every report the fixture programs give, diff and inspect, printed as
// `--format json` prints it, is valid against the JSON Schema the package ships
// (`leakdiff/schema.json`); a report that lacks a field or holds a wrong type is not; and nothing
// of the analysis crosses into the model but the fields it names.
import test from 'ava'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderReport } from 'leakdiff'
import { CASES } from '../../fixtures/capture/cases.js'
import { compiledService, compiledCjsService } from '../helpers/compiled-service.js'
import { reportOf, sharedDiff, sharedInspect } from '../helpers/fixture-reports.js'
import { captureFixture, committedCase } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'
import { tempDir } from '../helpers/temp-dir.js'
import { diffReportModel } from '../../src/report/report-model.js'

const schema = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('leakdiff/schema.json')), 'utf8'))
// Strict: a keyword the schema misspells is an error, not a rule silently skipped. Formats are
// annotations here; `takenAt`'s pattern is what is checked.
const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false })
const validate = ajv.compile(schema)

/**
 * The report as `--format json` prints it, read back.
 * @param {import('leakdiff').DiffReport | import('leakdiff').InspectReport} report
 */
function printed (report) {
  return JSON.parse(renderReport(report, { format: 'json' }))
}

/**
 * Checks that a printed report is valid, saying where it is not.
 * @param {import('ava').ExecutionContext} t
 * @param {unknown} json
 * @param {string} what
 */
function checkValid (t, json, what) {
  const valid = validate(json)
  t.true(valid, `${what}: ${ajv.errorsText(validate.errors?.slice(0, 8), { separator: '\n' })}`)
}

/** Every signature fixture, leaky and fixed, as the signature tests run it. */
const SIGNATURE_CASES = CASES.filter(({ program, build, nodeArgs }) => program.startsWith('signatures/') && build === undefined && nodeArgs === undefined)

/** Two snapshots of these too: evidence with two counts, and weaker findings. */
const TWO_SNAPSHOTS = ['request-log', 'listener-accumulation', 'forgotten-timer', 'pending-promises', 'closure-retention', 'retained-sockets', 'async-context-retention', 'middleware-accumulation', 'response-cache']
  .map((name) => `signatures/${name}`)

// One test per case: each is a diff of its own, made by the diff service (test/helpers/diff-service.js).
for (const { program, args = [] } of SIGNATURE_CASES) {
  for (const snapshots of TWO_SNAPSHOTS.includes(program) && args.length === 0 ? [3, 2] : [3]) {
    test(`the diff report of ${[program, ...args].join(' ')} (${snapshots} snapshots)`, async (t) => {
      checkValid(t, printed(await reportOf(program, { args, snapshots })), program)
    })
  }
}

test('the signature fixtures are a broad set: leaks and clean runs, every signature\'s findings', async (t) => {
  t.true(SIGNATURE_CASES.length >= 40)
  const reports = await Promise.all(SIGNATURE_CASES.map(({ program, args = [] }) => reportOf(program, { args })))
  t.deepEqual(new Set(reports.map((report) => report.verdict)), new Set(['leak', 'clean']))
  // open-handles has a fixture of its own (diff/file-watchers, below); every other signature is here.
  const signatures = new Set(reports.flatMap((report) => report.findings.map((finding) => finding.signature)))
  for (const id of ['async-context-retention', 'closure-retention', 'forgotten-timer', 'growing-array', 'listener-accumulation', 'middleware-accumulation', 'pending-promises', 'retained-sockets', 'unbounded-collection']) {
    t.true(signatures.has(id), `a ${id} finding among ${[...signatures].join(', ')}`)
  }
})

test('diff reports with the agent\'s sidecars (process, rate), allocation profiles, open handles, hostile names, and from two processes', async (t) => {
  const series = await reportOf('diff/agent-series')
  t.not(series.rate, null)
  t.not(series.process, null)
  checkValid(t, printed(series), 'diff/agent-series')

  for (const program of ['alloc/library-leaks', 'alloc/router-leaks', 'alloc/package-leaks']) {
    const report = await reportOf(program)
    t.not(report.allocations, null)
    t.true(report.findings.some((finding) => finding.allocatedAt), 'a finding tied to allocation stacks')
    if (program !== 'alloc/router-leaks') t.true(report.findings.some((finding) => finding.location?.inside), 'a location inside a package')
    checkValid(t, printed(report), program)
  }

  const [a] = (await captureFixture('diff/array-log')).files
  const [, b] = (await captureFixture('diff/object-cache')).files
  const twoProcesses = await sharedDiff([a, b], { cwd: ROOT })
  t.is(twoProcesses.verdict, 'inconclusive')
  t.is(twoProcesses.comparison, 'aggregates')
  checkValid(t, printed(twoProcesses), 'two processes')

  const handles = await reportOf('diff/file-watchers')
  t.true(handles.findings.some((finding) => finding.signature === 'open-handles'))
  checkValid(t, printed(handles), 'diff/file-watchers')

  const hostile = await reportOf('report/hostile-names')
  checkValid(t, printed(hostile), 'report/hostile-names')
})

/**
 * The agent-series snapshots copied with sidecars as watch mode writes them: the series' trigger
 * (docs/agent.md, "Watch mode").
 * @param {object} trigger
 */
async function watchSeries (trigger) {
  const { files } = await captureFixture('diff/agent-series')
  const dir = await tempDir('leakdiff-schema-')
  return Promise.all(files.map(async (file, i) => {
    const copy = join(dir, `${i + 1}.heapsnapshot`)
    await copyFile(file, copy)
    const meta = JSON.parse(await readFile(file.replace(/\.heapsnapshot$/, '.meta.json'), 'utf8'))
    await writeFile(copy.replace(/\.heapsnapshot$/, '.meta.json'), JSON.stringify({ ...meta, series: { ...meta.series, trigger } }))
    return copy
  }))
}

test('a series the agent\'s watch mode started: the report\'s capture', async (t) => {
  const trigger = { kind: 'watch', reason: 'growth', bytesPerHour: 2 ** 31, spanMs: 6000, heapAfterGc: 40e6, windowMs: 1000, limit: { kind: 'heap', bytes: 4e9, source: 'heap_size_limit', minutesToLimit: 110, fraction: 0.01 } }
  const report = await sharedDiff(await watchSeries(trigger), { cwd: ROOT })
  t.like(report.capture, { reason: 'growth', spanMinutes: 0.1, limit: { kind: 'heap', minutesToLimit: 110 } })
  checkValid(t, printed(report), 'watch-mode series')
})

test('a series watch mode started on RSS: the capture says what grew', async (t) => {
  const trigger = { kind: 'watch', reason: 'time-to-limit', measure: 'rss', bytesPerHour: 2 ** 31, spanMs: 6000, heapAfterGc: 40e6, windowMs: 1000, limit: { kind: 'memory', bytes: 2 ** 30, source: 'cgroup v2', minutesToLimit: 9, fraction: 0.5 } }
  const report = await sharedDiff(await watchSeries(trigger), { cwd: ROOT })
  t.like(report.capture, { reason: 'time-to-limit', measure: 'rss', limit: { kind: 'memory', minutesToLimit: 9 } })
  checkValid(t, printed(report), 'watch-mode series on RSS')
})

// Series the agent captured with its memory readings: the split of the growth (native memory and
// its holders, ArrayBuffer stores, the rest of RSS and the workers behind it), findings that
// release native memory, each limit at its own pace; and worker threads' own series.
for (const [program, args] of /** @type {Array<[string, string[]]>} */ ([
  ['memory/zlib-streams', []],
  ['memory/zlib-streams', ['fixed']],
  ['memory/pooled-views', []],
  ['memory/idle-workers', []],
  ['threads/worker-pool', []],
  ['threads/worker-pool', ['fixed']],
  ['threads/logger-transport', []]
])) {
  test(`the diff report of ${[program, ...args].join(' ')}: memory outside the heap, threads`, async (t) => {
    const { files } = await captureFixture(program, { args })
    const report = await sharedDiff(files, { cwd: ROOT })
    t.not(report.memory, null)
    if (program.startsWith('threads/')) t.like(report.process?.thread, { main: false })
    if (program === 'memory/zlib-streams' && args.length === 0) {
      t.true(report.findings.some((finding) => finding.native !== undefined), 'a finding that releases native memory')
      t.like(report.rate?.limit, { kind: 'memory' })
      t.is(typeof report.rate?.limit?.nearerThan, 'string')
    }
    checkValid(t, printed(report), [program, ...args].join(' '))
  })
}

test('diff reports of compiled and bundled code: locations, paths and names mapped through source maps', async (t) => {
  // The committed builds; built and run now where a checkout has none yet.
  const live = ['tsc', 'inline', 'external'].some((build) => committedCase({ program: 'sources/compiled-service', build }) === null)
  const builds = await compiledService({ live })
  let mapped = 0
  for (const [name, options] of /** @type {const} */ ([['tsc', {}], ['inline', {}], ['external', { sourceMaps: builds.maps }]])) {
    const report = await sharedDiff(builds[name].files, { top: 0, cwd: ROOT, ...options })
    mapped += report.findings.filter((finding) => finding.location?.original !== undefined).length
    checkValid(t, printed(report), `the ${name} build`)
  }
  t.true(mapped > 0, 'findings with original locations')
  const cjs = await compiledCjsService({ live: committedCase({ program: 'sources/compiled-service', build: 'cjs' }) === null })
  checkValid(t, printed(await sharedDiff(cjs.files, { top: 0, cwd: ROOT })), 'the CommonJS build')
})

test('inspect reports', async (t) => {
  for (const program of ['signatures/request-log', 'diff/map-cache', 'report/hostile-names']) {
    const { files } = await captureFixture(program)
    for (const top of [15, 0]) checkValid(t, printed(await sharedInspect(files[files.length - 1], { top, cwd: ROOT })), `inspect ${program} (top ${top})`)
  }
})

/**
 * The errors a changed copy of a valid report gets.
 * @param {any} report
 * @param {(copy: any) => void} change
 */
function errorsAfter (report, change) {
  const copy = structuredClone(report)
  change(copy)
  return validate(copy) ? [] : /** @type {NonNullable<typeof validate.errors>} */ (validate.errors)
}

test('a report that lacks a field, holds a wrong type or a field the contract does not name is invalid', async (t) => {
  const diff = printed(await reportOf('signatures/request-log'))
  t.true(validate(diff), ajv.errorsText(validate.errors))
  /** @type {Array<[string, (copy: any) => void, string]>} */
  const broken = [
    ['no verdict', (r) => { delete r.verdict }, 'verdict'],
    ['a verdict the contract does not know', (r) => { r.verdict = 'leaky' }, '/verdict'],
    ['bytes as text', (r) => { r.summary.leakedBytes = String(r.summary.leakedBytes) }, '/summary/leakedBytes'],
    ['a growth row without its path text', (r) => { delete r.growth[0].pathText }, 'pathText'],
    ['a renamed field', (r) => { r.growth[0].retainedLast = r.growth[0].retainedAfter; delete r.growth[0].retainedAfter }, 'retainedAfter'],
    ['a finding without its counts', (r) => { delete r.findings[0].evidence.counts }, 'counts'],
    ['listed classes that are not names', (r) => { r.findings[0].evidence.elementClasses = [1] }, '/findings/0/evidence/elementClasses/0'],
    ['a 0-based line', (r) => { r.findings[0].location.line = 0 }, '/findings/0/location/line'],
    ['a path step without its id', (r) => { delete r.findings[0].path[0].id }, 'id'],
    ['a time that is not ISO', (r) => { r.snapshots[0].takenAt = 'Tuesday' }, '/snapshots/0/takenAt'],
    ['schemaVersion 2', (r) => { r.schemaVersion = 2 }, '/schemaVersion'],
    ['a memory split without its growth', (r) => { delete r.memory.growth }, 'growth'],
    ['a thread without its id', (r) => { r.process = { pid: 1, hostname: null, nodeVersion: null, script: null, thread: { main: false, file: null, name: null } } }, 'id']
  ]
  for (const [what, change, where] of broken) {
    const errors = errorsAfter(diff, change)
    t.true(errors.some((error) => error.instancePath.startsWith(where) || error.params.missingProperty === where || error.params.additionalProperty === where), `${what}: ${ajv.errorsText(errors)}`)
  }
  // A frame of native code has no position (line and column 0); any other frame has one.
  const allocated = printed(await reportOf('alloc/library-leaks'))
  const frameAt = (/** @type {any} */ r) => r.allocations.growing[0].frames[0]
  t.deepEqual(errorsAfter(allocated, (r) => Object.assign(frameAt(r), { file: '(native)', kind: 'native', line: 0, column: 0 })), [])
  t.true(errorsAfter(allocated, (r) => Object.assign(frameAt(r), { kind: 'user', line: 0 })).some((error) => error.instancePath === '/allocations/growing/0/frames/0/line'))
  // A location inside a package names the package.
  const insideAt = allocated.findings.findIndex((/** @type {any} */ finding) => finding.location?.inside)
  t.true(errorsAfter(allocated, (r) => { delete r.findings[insideAt].location.inside.package }).some((error) => error.params.missingProperty === 'package'))
  t.true(errorsAfter(allocated, (r) => { r.findings[insideAt].location.inside.line = 0 }).some((error) => error.instancePath === `/findings/${insideAt}/location/inside/line`))

  // A finding listed on another's card is a whole finding, with how it is held, and nothing more.
  const held = printed(await reportOf('signatures/per-call-clients'))
  const card = held.findings.findIndex((/** @type {any} */ f) => f.also !== undefined)
  t.true(card >= 0, 'a card that lists a finding it holds')
  t.true(validate(held), ajv.errorsText(validate.errors))
  t.true(errorsAfter(held, (r) => { delete r.findings[card].also[0].heldBy }).some((error) => error.params.missingProperty === 'heldBy'))
  t.true(errorsAfter(held, (r) => { delete r.findings[card].also[0].fix }).some((error) => error.params.missingProperty === 'fix'))
  t.true(errorsAfter(held, (r) => { r.findings[card].also[0].heldBy.share = 2 }).some((error) => error.instancePath === `/findings/${card}/also/0/heldBy/share`))
  t.true(errorsAfter(held, (r) => { r.findings[card].also[0].claimed = [0] }).length > 0)
  t.true(errorsAfter(held, (r) => { r.findings[card].heldBy = r.findings[card].also[0].heldBy }).length > 0)

  // The signature's own evidence is open: a key of its own is no error.
  t.deepEqual(errorsAfter(diff, (r) => { r.findings[0].evidence.newFact = { any: ['json'] } }), [])

  const { files } = await captureFixture('signatures/request-log')
  const inspect = printed(await sharedInspect(files[0], { top: 5, cwd: ROOT }))
  t.true(validate(inspect), ajv.errorsText(validate.errors))
  t.true(errorsAfter(inspect, (r) => { delete r.dominators }).some((error) => error.params.missingProperty === 'dominators'))
  t.true(errorsAfter(inspect, (r) => { r.classes[0].retainedSize = -1 }).some((error) => error.instancePath === '/classes/0/retainedSize'))
  t.true(errorsAfter(inspect, (r) => { r.kind = 'heap' }).length > 0)
})

test('the model carries the fields it names and nothing else of the analysis', async (t) => {
  const report = await reportOf('signatures/request-log')
  const [finding] = report.findings
  const [row] = report.growth
  // What the analysis has beside the contract's fields (a diff row's owners, a matcher's state):
  // none of it reaches the model.
  const model = diffReportModel({
    ...report,
    classes: report.classes.map((row) => ({ ...row, ordinals: [1, 2] })),
    growth: [{ group: { ...row, ordinals: [1, 2, 3] }, pathText: row.pathText }],
    findings: [{ ...finding, claimed: [0], members: [4, 5], holders: [6], owner: { ...finding.owner, ordinal: 7 }, path: finding.path.map((step) => ({ ...step, ordinal: 1 })), location: { ...finding.location, scriptId: 3 } }],
    process: null,
    rate: null,
    capture: null,
    allocations: null
  })
  t.deepEqual(model.growth, [row])
  t.deepEqual(model.findings, [finding])
  t.deepEqual(model.classes, report.classes)
  checkValid(t, printed(model), 'the model of extended parts')
})
