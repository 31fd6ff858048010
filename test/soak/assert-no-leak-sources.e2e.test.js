// assertNoLeak in the process it runs in, where the code under test is: a leak made inside a
// package is named at the calling line here, a push onto a module-level array at its line far down
// this file, and a bundled TypeScript module's leak at its .ts line through a map kept apart. A
// thread of its own beside assert-no-leak.e2e.test.js: each assertion snapshots its whole thread,
// so the tests of each file run one after the other and the two files side by side.
import test from 'ava'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { assertNoLeak, LeakAssertionError } from 'leakdiff'
import { Logger } from '../../fixtures/programs/alloc/node_modules/tiny-logger/index.js'

const FILE = fileURLToPath(import.meta.url)

const root = new Logger({ service: 'orders' })
const LOGGER_LINE = readFileSync(FILE, 'utf8').split('\n').findIndex((line) => line.endsWith('// alloc: child per call')) + 1

/** @param {number} i */
function handleOrder (i) {
  root.child({ order: i }).info('handled') // alloc: child per call
}

// Two leaks in one run, as each assertNoLeak snapshots this whole process three times: one made
// inside a package, one far down this file.
test.serial('a leak made inside a package names the calling line of the code under test (allocatedAt); a push onto a module-level array is found at its line, far down a long file', async (t) => {
  const error = await t.throwsAsync(assertNoLeak((i) => { handleOrder(i); remember(i) }, { iterations: 300, warmup: 50 }), { instanceOf: LeakAssertionError })
  const report = /** @type {any} */ (error.report)
  const finding = report.findings.find((/** @type {any} */ f) => f.path.at(-1).edge === 'children')
  t.like(finding.allocatedAt.site, { file: relative(process.cwd(), FILE), line: LOGGER_LINE, function: 'handleOrder', kind: 'user', callLine: true })
  t.true(finding.allocatedAt.stacks[0].frames.some((/** @type {any} */ frame) => frame.kind === 'library' && frame.file.includes('node_modules/tiny-logger/')))
  t.regex(error.message, new RegExp(`allocated\\s+${relative(process.cwd(), FILE).replaceAll('.', '\\.')}:${LOGGER_LINE}\\s+handleOrder`))

  // The logger's `children` grows as an array too: the push here is the one into `kept`.
  const pushed = report.findings.find((/** @type {any} */ f) => f.signature === 'growing-array' && f.path.at(-1).edge === 'kept')
  t.truthy(pushed, error.message)
  // Beyond the first 1,024 characters of this file: the whole source was in the snapshot.
  t.true(readFileSync(FILE, 'utf8').split('\n').slice(0, ADD_LINE - 1).join('\n').length > 1024)
  t.like(pushed.location, { file: relative(process.cwd(), FILE), line: ADD_LINE, column: 3 })
})

test.serial('a bundled TypeScript module whose map is kept apart: sourceMaps leads the card and the report to the .ts line', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-assert-bundle-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const source = fileURLToPath(new URL('../../fixtures/sources/sampled/app.ts', import.meta.url))
  const bundle = join(dir, 'app.js')
  // Loaded here only: every other assertion snapshots this process's heap, esbuild's module not in it.
  const { build } = await import('esbuild')
  await build({ entryPoints: [source], outfile: bundle, bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: 'external', logLevel: 'error' })
  await mkdir(join(dir, 'maps'))
  await rename(`${bundle}.map`, join(dir, 'maps', 'app.js.map'))
  const { serveRound } = await import(pathToFileURL(bundle).href)
  const line = readFileSync(source, 'utf8').split('\n').findIndex((text) => text.includes('// leak: cache')) + 1
  const where = `${relative(process.cwd(), source)}:${line}:`
  const error = await t.throwsAsync(assertNoLeak(serveRound, { iterations: 5, warmup: 2, sourceMaps: join(dir, 'maps') }), { instanceOf: LeakAssertionError })
  t.true(error.message.split('\n')[0].includes(where), error.message.split('\n')[0])
  t.true(error.message.includes('cache.set(id, makeEntry(id))'), 'the card shows the original line')
  const report = /** @type {any} */ (error.report)
  t.like(report.findings[0].location, { file: relative(process.cwd(), source), line })
  t.is(report.findings[0].location.generated.file, relative(process.cwd(), bundle).startsWith('..') ? bundle : relative(process.cwd(), bundle))
})

// Far down this file, past the first 1,024 characters V8 may keep of a script's text.
/** @type {Array<{i: number, tags: number[]}>} */
const kept = []
/** @param {number} i */
function remember (i) {
  kept.push({ i, tags: [i, i + 1] }) // adds: kept
}
const ADD_LINE = readFileSync(FILE, 'utf8').split('\n').findIndex((line) => line.endsWith('// adds: kept')) + 1
