// Locations in the user's own source: a TypeScript service compiled by tsc, bundled and minified by
// esbuild (inline and external maps), and a long plain-JS module; the reports must name the
// original file and the line of each leaking statement, in every output format. The builds and
// their snapshots are committed (compiledService); source-maps.e2e.test.js builds and runs them now,
// and passes --source-root and --source-maps to the CLI.
import test from 'ava'
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { DEFAULT_GATES, evaluateGates, renderDiffReport, renderGithubAnnotations, renderJunitReport } from 'leakdiff'
import { compiledService } from '../helpers/compiled-service.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { markedPosition, ROOT } from '../helpers/fixture-source.js'
import { assertMapped, findingOf, HANDLERS, LEAKS, lineOf } from '../helpers/service-leaks.js'
import { loadSourceMap } from '../../src/sources/source-maps.js'
import { SourceLocator } from '../../src/sources/source-locator.js'
import { analysedSnapshot } from '../helpers/parsed-snapshots.js'
import { caseName } from '../../fixtures/capture/cases.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

/** @type {Map<string, ReturnType<typeof diffSnapshots>>} */
const reports = new Map()

/**
 * @param {'tsc' | 'inline' | 'external'} name
 * @param {Parameters<typeof import('leakdiff').diffSnapshots>[1]} [options]
 */
function reportOf (name, options = {}) {
  const key = JSON.stringify([name, options])
  let report = reports.get(key)
  if (!report) {
    report = compiledService().then((builds) => sharedDiff(builds[name].files, { top: 0, cwd: ROOT, ...options }))
    reports.set(key, report)
  }
  return report
}

test('tsc with separate .map files: each leak at its .ts line, the generated dist/ position kept', async (t) => {
  const report = await reportOf('tsc')
  assertMapped(t, report, 'dist/handlers.js')
  const { tsc } = await compiledService()
  const map = findingOf(report, 'unbounded-collection').location
  t.is(map?.generated?.line, lineOf('quotesByUrl.set(', join(tsc.root, 'dist', 'handlers.js')))
  t.is(map?.original?.snippet, 'quotesByUrl.set(url, quote) // leak: map')
  // Every function of the module closes over quotesByUrl's scope; the one whose code names it is
  // the one that writes to it, so the card names no other place that holds it.
  const notes = findingOf(report, 'unbounded-collection').evidence.notes
  t.false(notes.some((note) => note.startsWith('closed over by')), notes.join('; '))
})

test('a place in the code that ran that a finding\'s note names is mapped to its .ts line, as the finding\'s location is', async (t) => {
  const { tsc } = await compiledService()
  const [generated, last] = await Promise.all([sharedDiff(tsc.files, { top: 0, cwd: ROOT, readSources: false }), analysedSnapshot(/** @type {string} */ (tsc.files.at(-1)))])
  const finding = findingOf(generated, 'unbounded-collection')
  const location = /** @type {NonNullable<typeof finding.location>} */ (finding.location)
  t.regex(location.file, /dist\/handlers\.js$/)
  const ran = `${location.file}:${lineOf('export function handleRequest', join(tsc.root, 'dist', 'handlers.js'))}:8`
  const noted = { ...finding, evidence: { ...finding.evidence, notes: [`closed over by handleRequest at ${ran}`, 'a note without a place'] } }
  const [mapped] = new SourceLocator({ cwd: ROOT }).mapFindings([noted], last)
  t.regex(mapped.evidence.notes[0], new RegExp(`^closed over by handleRequest at ${HANDLERS.replaceAll('.', '\\.')}:${lineOf('export function handleRequest')}:\\d+$`))
  t.is(mapped.evidence.notes[1], 'a note without a place')
})

/**
 * The names a minified bundle's report shows are the ones tsc's (whose names are not minified)
 * shows: each finding's title, fix and the variable that holds the leak, with the minified name
 * kept beside it in the JSON.
 * @param {import('ava').ExecutionContext} t
 * @param {Awaited<ReturnType<typeof diffSnapshots>>} report
 */
async function assertOriginalNames (t, report) {
  const tsc = await reportOf('tsc')
  for (const signature of ['unbounded-collection', 'closure-retention']) {
    const bundled = findingOf(report, signature)
    const written = findingOf(tsc, signature)
    t.is(bundled.title, written.title)
    t.deepEqual(bundled.fix, written.fix)
    t.deepEqual(bundled.evidence.notes.map(withoutPositions), written.evidence.notes.map(withoutPositions))
    // The path's last hop is the module variable that holds the leak, as in tsc's build.
    const [last, lastWritten] = [bundled.path.at(-1), written.path.at(-1)]
    t.like(last, { edge: lastWritten?.edge, edgeType: 'context', node: lastWritten?.node })
    t.true(typeof last?.generatedEdge === 'string' && last.generatedEdge !== last.edge, JSON.stringify(last))
  }
  t.deepEqual(findingOf(report, 'closure-retention').evidence.notes, findingOf(tsc, 'closure-retention').evidence.notes)
  // tsc's build holds `prices` through its module's namespace, the bundle as a module variable:
  // the paths differ, the name does not.
  const listener = findingOf(report, 'listener-accumulation')
  t.is(listener.title, "A 'change' listener is added to prices (EventEmitter) over and over and never removed.")
  t.like(listener.path.at(-3), { edge: 'prices', edgeType: 'context', node: 'EventEmitter' })
  t.is(listener.fix.snippet, "const onEvent = () => { /* ... */ }\nprices.on('change', onEvent)\nres.once('close', () => prices.off('change', onEvent))")
  const map = findingOf(report, 'unbounded-collection')
  t.is(map.location?.function, 'cachedQuote')
  t.regex(String(map.location?.generatedFunction), /^[\w$]+$/)
  t.not(map.location?.generatedFunction, 'cachedQuote')
  t.true(report.growth.some((row) => row.pathText.endsWith(' → quotesByUrl (Map)')), report.growth.map((row) => row.pathText).join('\n'))
  // The class the cache holds, renamed by the minifier: in the evidence, the class table and the growth rows.
  t.deepEqual(map.evidence.valueClasses, findingOf(tsc, 'unbounded-collection').evidence.valueClasses)
  t.true(map.evidence.valueClasses.includes('PricedQuote'))
  const row = report.classes.find((c) => c.name === 'PricedQuote')
  t.like(row, { newCount: tsc.classes.find((c) => c.name === 'PricedQuote')?.newCount })
  t.true(typeof row?.generatedName === 'string' && row.generatedName !== 'PricedQuote', JSON.stringify(row))
  t.true(report.growth.some((g) => g.classes.some((c) => c.name === 'PricedQuote')))
  const text = renderDiffReport(report, { format: 'text', color: false, width: 400 })
  for (const name of ['quotesByUrl (Map)', 'auditTrail (Array)', 'prices (EventEmitter)', 'capture trace', 'prices.on(', 'PricedQuote']) t.true(text.includes(name), name)
  const markdown = renderDiffReport(report, { format: 'markdown' })
  for (const name of ['quotesByUrl (Map)', 'auditTrail (Array)', 'prices (EventEmitter)']) t.true(markdown.includes(name), name)
  const gates = evaluateGates(report, DEFAULT_GATES)
  t.true(renderJunitReport(report, gates).includes('quotesByUrl (Map) gains entries'))
  t.true(renderGithubAnnotations(report, gates).includes('quotesByUrl (Map) gains entries'))
}

/**
 * A note with its places (`file:line:column`) left out: the function a name starts at maps to
 * another column in a bundle than in tsc's output.
 * @param {string} note
 */
function withoutPositions (note) {
  return note.replace(/:\d+:\d+/g, '')
}

test('an esbuild bundle, minified, with an inline map', async (t) => {
  const report = await reportOf('inline')
  assertMapped(t, report, 'inline/app/server.js')
  await assertOriginalNames(t, report)
})

test('an external-map bundle moved since it ran, its map kept apart: sourceRoots and sourceMaps find them, without them a note says how', async (t) => {
  const { external, maps } = await compiledService()
  // What --source-root and --source-maps pass (source-maps.e2e.test.js runs the CLI with them).
  const report = await sharedDiff(external.files, { top: 0, cwd: ROOT, sourceRoots: [`${external.root}=${external.local}`], sourceMaps: maps })
  t.is(report.verdict, 'leak')
  assertMapped(t, report, 'checkout/server.js')
  await assertOriginalNames(t, report)
  const lost = await reportOf('external')
  for (const { signature } of LEAKS) {
    const finding = findingOf(lost, signature)
    // Named as the report names a file under the checkout: from its root.
    t.is(finding.location?.file, relative(ROOT, join(external.root, 'server.js')))
    t.is(finding.location?.original, undefined)
    t.true(finding.evidence.notes.some((note) => note.includes('is not on this machine') && note.includes('--source-root')), finding.evidence.notes.join('; '))
  }
})

test('a map without names (stripped from a copy of the real one): locations are mapped, names stay as they ran', async (t) => {
  const { dir, external, maps } = await compiledService()
  const bare = join(dir, 'maps-without-names')
  mkdirSync(bare, { recursive: true })
  const { names, ...nameless } = JSON.parse(readFileSync(join(maps, 'server.js.map'), 'utf8'))
  t.true(names.length > 0)
  writeFileSync(join(bare, 'server.js.map'), JSON.stringify(nameless))
  const report = await sharedDiff(external.files, { top: 0, cwd: ROOT, sourceRoots: [`${external.root}=${external.local}`], sourceMaps: bare })
  const named = await reportOf('inline')
  for (const { signature, marker } of LEAKS) {
    const finding = findingOf(report, signature)
    t.like(finding.location, { file: HANDLERS, line: lineOf(marker) }, signature)
    t.false(finding.path.some((step) => step.generatedEdge !== undefined), signature)
  }
  // The same esbuild run over the same sources names alike: what the named map renamed is shown as it ran.
  const map = findingOf(report, 'unbounded-collection')
  const renamed = findingOf(named, 'unbounded-collection')
  t.is(map.path.at(-1)?.edge, renamed.path.at(-1)?.generatedEdge)
  t.true(map.title.startsWith(`${renamed.path.at(-1)?.generatedEdge} (Map) gains entries`), map.title)
  t.is(map.location?.function, renamed.location?.generatedFunction)
  t.is(map.location?.generatedFunction, undefined)
})

test('a broken map: the generated location and a one-line note', async (t) => {
  const { dir, tsc } = await compiledService()
  const broken = join(dir, 'broken')
  cpSync(tsc.root, broken, { recursive: true })
  writeFileSync(join(broken, 'dist', 'handlers.js.map'), '{"version": 3, "sources": ["../src/handlers.ts"], "mappings": "AAAA')
  const compiled = join(tsc.root, 'dist', 'handlers.js')
  const report = await reportOf('tsc', { sourceRoots: [`${tsc.root}=${broken}`] })
  for (const { signature, code } of LEAKS) {
    const finding = findingOf(report, signature)
    t.is(finding.location?.file, relative(ROOT, compiled), signature)
    t.is(finding.location?.line, lineOf(code, compiled), signature)
    t.is(finding.location?.original, undefined)
    const notes = finding.evidence.notes.filter((note) => note.includes('is not valid JSON'))
    t.is(notes.length, 1, finding.evidence.notes.join('; '))
    t.false(notes[0].includes('\n'))
  }
})

test('a long plain-JS module cut at 1,024 characters in the snapshot: the lines come from the file on disk', async (t) => {
  const program = 'sources/long-module'
  const { files } = await captureFixture(program)
  // The first and the last snapshot are enough to name the leaks, at two thirds of the parsing.
  const pair = [files[0], files[files.length - 1]]
  const report = await sharedDiff(pair, { top: 0, cwd: ROOT })
  for (const { signature, marker } of LEAKS) {
    const { location } = findingOf(report, signature)
    const { file, line } = markedPosition(program, marker)
    t.like(location, { file, line }, signature)
    t.is(location?.original, undefined)
  }
  // Without the file the Map's write is past the snapshot's copy: only the function that holds it is known.
  const blind = await sharedDiff(pair, { top: 0, cwd: ROOT, readSources: false })
  t.not(findingOf(blind, 'unbounded-collection').location?.line, markedPosition(program, '// leak: map').line)
})

test('every output names the .ts line: text, markdown, json, junit, annotations', async (t) => {
  const report = await reportOf('tsc')
  const line = lineOf('// leak: map')
  const at = `${HANDLERS}:${line}:`
  const text = renderDiffReport(report, { format: 'text', color: false })
  t.true(text.includes(at))
  t.true(text.includes('quotesByUrl.set(url, quote)'))
  t.regex(text, /ran as\s+\S*dist\/handlers\.js:\d+:\d+/)
  const markdown = renderDiffReport(report, { format: 'markdown' })
  t.true(markdown.includes(at))
  t.true(markdown.includes('quotesByUrl.set(url, quote)'))
  const json = JSON.parse(renderDiffReport(report, { format: 'json' }))
  const map = json.findings.find((/** @type {any} */ f) => f.signature === 'unbounded-collection')
  t.like(map.location, { file: HANDLERS, line, original: { file: HANDLERS, line } })
  t.is(typeof map.location.generated.line, 'number')
  const gates = evaluateGates(report, DEFAULT_GATES)
  t.true(renderJunitReport(report, gates).includes(at))
  t.true(renderGithubAnnotations(report, gates).includes(`file=${HANDLERS},line=${line},`))
})

test('maps that are not what they should be give one line on what is wrong and no map', async (t) => {
  const { dir, tsc } = await compiledService()
  const maps = join(dir, 'bad-maps')
  mkdirSync(maps, { recursive: true })
  const real = JSON.parse(readFileSync(join(tsc.root, 'dist', 'handlers.js.map'), 'utf8'))
  const load = (/** @type {string} */ json, text = 'export {}\n') => {
    writeFileSync(join(maps, 'handlers.js.map'), json)
    return loadSourceMap({ scriptPath: null, scriptName: '/app/dist/handlers.js', text, whole: false, mapsDir: maps, cwd: dir })
  }
  t.not(load(JSON.stringify(real)).map, null)
  const cases = [
    [readFileSync(join(tsc.root, 'dist', 'server.js.map'), 'utf8'), 'is the map of server.js, not of handlers.js'],
    [JSON.stringify({ ...real, version: 2 }), 'has version 2, expected 3'],
    [JSON.stringify({ ...real, sources: [] }), 'lists no sources'],
    ['{"version": 3', 'is not valid JSON']
  ]
  for (const [json, says] of cases) {
    const { map, note } = load(json)
    t.is(map, null)
    t.true(note?.includes(says) && !note.includes('\n'), String(note))
  }
  const inline = load('{}', `export {}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from('{oops').toString('base64')}\n`)
  t.true(inline.note?.startsWith('the inline source map of /app/dist/handlers.js is not valid JSON'), String(inline.note))
})

test('allocation stacks in a minified bundle: "allocated at" names the .ts line that allocates, and the bundle position it ran at', async (t) => {
  // fixtures/sources/sampled/app.ts bundled and minified by esbuild with an inline map, as it ran.
  const source = join(ROOT, 'fixtures/sources/sampled/app.ts')
  const sampled = { program: 'sources/sampled-bundle', build: /** @type {const} */ ('sampled') }
  const bundle = join(ROOT, 'fixtures', 'snapshots', caseName(sampled), 'app', 'app.js')
  const { files } = await captureFixture(sampled.program, sampled)
  const report = await sharedDiff(files, { top: 0, cwd: ROOT })
  const finding = report.findings.find((f) => f.signature === 'unbounded-collection')
  if (finding === undefined) return t.fail(report.findings.map((f) => f.signature).join(', '))
  t.like(finding.location, { file: 'fixtures/sources/sampled/app.ts', line: lineOf('// leak: cache', source) })
  const site = finding.allocatedAt?.site
  if (!site) return t.fail('no allocatedAt')
  t.like(site, { file: 'fixtures/sources/sampled/app.ts', line: lineOf('// alloc: entry', source), kind: 'user', callLine: true })
  t.is(site.generated?.file, relative(ROOT, bundle))
  t.is(site.generated?.line, 1, 'a minified bundle is one line')
  t.true(site.original?.snippet?.includes('new Array(64)'))
  // The allocating function as the source names it; the minified name is kept beside it.
  t.is(site.function, 'makeEntry')
  t.regex(String(site.generatedFunction), /^[\w$]+$/)
  t.not(site.generatedFunction, 'makeEntry')
})
