// "Allocated at": the agent's allocation profiles, saved beside real snapshots, tied to the
// findings of the diff. The fixtures leak through packages of their own (node_modules beside them)
// and through app code; each calling line is marked `// alloc: <name>` in the program.
import test from 'ava'
import { copyFile, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderDiffReport } from 'leakdiff'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { tempDir } from '../helpers/temp-dir.js'

const PROGRAM = 'fixtures/programs/alloc/library-leaks.js'
const leaks = captureFixture('alloc/library-leaks')
const leakReport = leaks.then(({ files }) => sharedDiff(files))
// The control runs with a debugger port open: sampling works beside it.
const churn = captureFixture('alloc/churn', { nodeArgs: ['--expose-gc', '--inspect=127.0.0.1:0'] })

/** Line numbers of the `// alloc: <name>` marks in the program. */
async function marks () {
  const text = await readFile(fileURLToPath(new URL(`../../${PROGRAM}`, import.meta.url)), 'utf8')
  /** @type {Record<string, number>} */
  const lines = {}
  text.split('\n').forEach((line, i) => {
    const mark = /\/\/ alloc: (.+)$/.exec(line)
    if (mark) lines[mark[1]] = i + 1
  })
  return lines
}

/**
 * The finding whose owner is held under `edge`.
 * @param {import('leakdiff').DiffReport} report
 * @param {string} edge
 */
function findingAt (report, edge) {
  const finding = report.findings.find((f) => f.path[f.path.length - 1]?.edge === edge)
  if (finding === undefined) throw new Error(`no finding held at ${edge}: ${report.findings.map((f) => f.path.at(-1)?.edge).join(', ')}`)
  return finding
}

for (const [edge, mark, library] of [
  ['compiled', 'schema compile', 'schema-lib'],
  ['interceptors', 'interceptor', 'http-client-lib'],
  ['children', 'logger child', 'tiny-logger'],
  ['sessions', 'app session', null]
]) {
  test(`a leak made ${library ? `inside ${library}` : 'by app code'}: allocatedAt names the app's calling line (${mark})`, async (t) => {
    const report = await leakReport
    const lines = await marks()
    const finding = findingAt(report, /** @type {string} */ (edge))
    // The card stands on the program's line that leaks, never in the harness that runs the rounds
    // (whose scope the retainer path passes through first), nor in the library: a leak the
    // library made is located at the program's call, the library's frame beside it.
    t.like(finding.location, { file: PROGRAM, line: lines[/** @type {string} */ (mark)] })
    t.false(/serveRound|onEvent/.test(finding.title), finding.title)
    const inside = finding.location?.inside
    // The interceptor is the program's own arrow on that line: the signature placed it there.
    if (library !== null && edge !== 'interceptors') t.like(inside, { package: library, file: `fixtures/programs/alloc/node_modules/${library}/index.js` })
    else t.is(inside, undefined)
    const { allocatedAt } = finding
    if (!allocatedAt) return t.fail('no allocatedAt')
    t.like(allocatedAt.site, { file: PROGRAM, line: lines[/** @type {string} */ (mark)], function: 'handleRequest', kind: 'user', callLine: true })
    const [stack] = allocatedAt.stacks
    const at = stack.frames.findIndex((frame) => frame.line === allocatedAt.site?.line && frame.file === PROGRAM)
    t.true(at > 0, 'the site is a caller of the allocating frame')
    const below = stack.frames.slice(0, at)
    if (library) {
      t.true(below.every((frame) => frame.kind === 'library' || frame.kind === 'native'), JSON.stringify(below))
      t.true(below.some((frame) => frame.file.includes(`node_modules/${library}/`)))
    } else {
      t.deepEqual(below.map((frame) => [frame.function, frame.kind]), [['SessionRecord', 'user']])
    }
    // About 400 objects of ~2 kB per step, sampled every 64 KiB on average.
    t.true(allocatedAt.samples >= 3 && allocatedAt.bytes > 256 * 1024, `${allocatedAt.samples} samples, ${allocatedAt.bytes} bytes`)
    t.true(stack.steps.every((bytes) => bytes > 0))
    t.true(allocatedAt.basis.length >= 2)
  })
}

test('each finding gets a site of its own; JSON keeps the stacks, text and markdown show the top frames', async (t) => {
  const report = await leakReport
  const allocations = report.allocations
  if (!allocations) return t.fail('no allocations')
  t.is(allocations.intervalBytes, 64 * 1024)
  t.deepEqual(allocations.profiles.map((path) => path.replace(/^.*[\\/]/, '')), ['1.heapprofile', '2.heapprofile', '3.heapprofile'])
  t.true(allocations.growing.length >= 4)
  const sites = report.findings.map((finding) => `${finding.allocatedAt?.site?.file}:${finding.allocatedAt?.site?.line}`)
  t.is(new Set(sites).size, 4, sites.join(' '))
  // JSON keeps the stacks.
  const json = JSON.parse(renderDiffReport(report, { format: 'json' }))
  t.deepEqual(json.findings[0].allocatedAt, JSON.parse(JSON.stringify(report.findings[0].allocatedAt)))
  t.is(json.schemaVersion, 1)
  const text = renderDiffReport(report, { format: 'text', color: false, width: 100 })
  const lines = await marks()
  t.regex(text, new RegExp(`allocated\\s+${PROGRAM.replaceAll('.', '\\.')}:${lines['logger child']}\\s+handleRequest\\s+→\\s+child\\s+\\(tiny-logger/index\\.js:\\d+\\)`))
  const markdown = renderDiffReport(report, { format: 'markdown' })
  t.true(markdown.includes(`- allocated at: \`${PROGRAM}:${lines['schema compile']}  handleRequest\` → compile (schema-lib/index.js:`))
})

test('the agent\'s profiles are whole DevTools profiles, owner-only, and named in the sidecar', async (t) => {
  const { dir, files } = await leaks
  for (const [i, file] of files.entries()) {
    const profile = join(dir, `${i + 1}.heapprofile`)
    t.is((await stat(profile)).mode & 0o777, 0o600)
    const data = JSON.parse(await readFile(profile, 'utf8'))
    t.is(data.head.callFrame.functionName, '(root)')
    t.true(Array.isArray(data.samples))
    const meta = JSON.parse(await readFile(file.replace(/\.heapsnapshot$/, '.meta.json'), 'utf8'))
    t.regex(meta.allocationProfile.file, new RegExp(`-${i + 1}of3\\.heapprofile$`))
    t.is(meta.allocationProfile.intervalBytes, 64 * 1024)
  }
  t.false((await readdir(dir)).some((name) => name.endsWith('.partial')))
})

test('a control that allocates heavily and keeps nothing: no stack grows, no finding', async (t) => {
  const { files } = await churn
  const report = await sharedDiff(files)
  t.is(report.verdict, 'clean')
  t.deepEqual(report.allocations?.growing, [])
  t.deepEqual(report.findings, [])
})

test('a sampling profiler already run by another session (a debugger) is left running; the series still completes', async (t) => {
  const { dir, files, report } = await captureFixture('alloc/library-leaks', { args: ['foreign'] })
  t.is(files.length, 3)
  // The other session's profiler still ran after the agent's series, with samples of its own.
  t.true(report.foreign > 0, JSON.stringify(report))
  t.false((await readdir(dir)).some((name) => name.endsWith('.heapprofile')))
  const meta = JSON.parse(await readFile(files[0].replace(/\.heapsnapshot$/, '.meta.json'), 'utf8'))
  t.is(meta.allocationProfile, null)
  const diff = await sharedDiff(files)
  t.is(diff.allocations, null)
  t.true(diff.findings.every((finding) => finding.allocatedAt === undefined))
})

test('a damaged profile is one warning and no allocations, never a failed diff', async (t) => {
  const { files } = await leaks
  const dir = await tempDir('leakdiff-alloc-')
  const copies = []
  for (const [i, file] of files.entries()) {
    const copy = join(dir, `${i + 1}.heapsnapshot`)
    await copyFile(file, copy)
    await writeFile(join(dir, `${i + 1}.heapprofile`), i === 1 ? '{"head": {"callFrame": {}}, "samples": []}' : await readFile(file.replace(/\.heapsnapshot$/, '.heapprofile')))
    copies.push(copy)
  }
  const report = await sharedDiff(copies)
  t.is(report.allocations, null)
  t.true(report.warnings.some((warning) => /ignored the allocation profiles: .*2\.heapprofile is not a sampling heap profile \(expected each node/.test(warning)), report.warnings.join('\n'))
  t.true(report.findings.length >= 4)
})
