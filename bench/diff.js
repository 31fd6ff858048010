// The diff benchmark: `leakdiff a b` and `leakdiff a b c` on ~1 GB snapshots of one process with
// growth between them.
//
//   node bench/diff.js [--generate-only] [--keep]      (npm run bench:diff)
//
// Writes bench/out/diff-1.heapsnapshot, diff-2 and diff-3 with bench/server-series.js (unless all
// exist), runs the CLI once on the first two and once on all three under /usr/bin/time (wall,
// user + system CPU, peak RSS), records the runs in bench/out/diff-results.json and puts the
// figures into docs/benchmarks.md as the generated section `diff` (doc-sections.js; bench/run.js
// carries it over when it renders). The snapshots are deleted afterwards (3.3 GB of disk between
// them) unless --keep.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { replaceSection } from './doc-sections.js'
import { OUT_DIR, formatMB } from './generate.js'

const SERIES_PROGRAM = fileURLToPath(new URL('server-series.js', import.meta.url))
const CLI = fileURLToPath(new URL('../cli/leakdiff.js', import.meta.url))
const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
const RESULTS = join(OUT_DIR, 'diff-results.json')
const TIME = '/usr/bin/time'
// bench/generate.js's 1 GB file has 260,000 sessions; 10 % more arrive before each later snapshot.
const SESSIONS = 260_000
const ADDED = 26_000
const WRITER_HEAP_MB = 8192
const HEAP_LIMIT_MB = 16384

const { values } = parseArgs({ options: { 'generate-only': { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } } })
const files = [1, 2, 3].map((n) => join(OUT_DIR, `diff-${n}.heapsnapshot`))

if (!files.every((file) => existsSync(file))) generate()
if (!values['generate-only']) {
  const runs = []
  for (const inputs of [files.slice(0, 2), files]) {
    const run = await measure(inputs)
    console.log(`diff of ${inputs.length}: ${run.status}, wall ${run.wallSeconds.toFixed(1)} s, cpu ${run.cpuSeconds.toFixed(1)} s, peak RSS ${formatMB(run.maxRssBytes)}`)
    runs.push(run)
  }
  writeFileSync(RESULTS, JSON.stringify(runs, null, 2) + '\n')
  writeDoc(runs)
  if (!values.keep) for (const file of files) rmSync(file, { force: true })
}

function generate () {
  console.log(`writing ${SESSIONS} sessions, then ${ADDED} more before each later file, to ${files.join(', ')} ...`)
  const partials = files.map((file) => `${file}.partial`)
  const started = performance.now()
  const child = spawnSync(process.execPath, [`--max-old-space-size=${WRITER_HEAP_MB}`, SERIES_PROGRAM, String(SESSIONS), String(ADDED), ...partials], { stdio: 'inherit' })
  if (child.status !== 0 || !partials.every((file) => existsSync(file))) {
    for (const file of partials) rmSync(file, { force: true })
    throw new Error(`Expected ${SERIES_PROGRAM} to write ${partials.join(' and ')}, got exit code ${child.status} (signal ${child.signal})`)
  }
  partials.forEach((partial, i) => renameSync(partial, files[i]))
  console.log(`written in ${((performance.now() - started) / 1000).toFixed(0)} s: ${files.map((file) => formatMB(statSync(file).size)).join(', ')}`)
}

/** @param {string[]} inputs */
async function measure (inputs) {
  const timeFile = join(OUT_DIR, 'time-diff.txt')
  const reportFile = join(OUT_DIR, 'diff-report.json')
  rmSync(timeFile, { force: true })
  const nodeArgs = [`--max-old-space-size=${HEAP_LIMIT_MB}`, CLI, ...inputs, '--format', 'json', '--output', reportFile]
  const [command, args] = existsSync(TIME) ? [TIME, ['-f', '%e %U %S %M', '-o', timeFile, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs]
  const busyBefore = busySeconds()
  const started = performance.now()
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] })
  const code = await new Promise((resolve) => child.on('close', resolve))
  const wall = (performance.now() - started) / 1000
  const busy = busySeconds() - busyBefore
  const [wallSeconds, userSeconds, systemSeconds, maxRssKiB] = existsSync(timeFile)
    ? readFileSync(timeFile, 'utf8').trim().split('\n').pop()?.split(' ').map(Number) ?? []
    : [wall, NaN, NaN, NaN]
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined
  rmSync(reportFile, { force: true })
  return {
    date: new Date().toISOString(),
    // Exit code 1 is the CLI saying "leak": the expected outcome here.
    status: code === 0 || code === 1 ? 'ok' : `failed (exit ${code})`,
    files: inputs.map((file) => ({ bytes: statSync(file).size })),
    snapshots: report?.snapshots.map((/** @type {any} */ s) => ({ bytes: s.bytes, nodeCount: s.nodeCount, edgeCount: s.edgeCount })) ?? [],
    verdict: report?.verdict ?? null,
    findings: report?.findings.length ?? null,
    topOwner: report?.growth[0] ? { name: report.growth[0].owner.name, pathText: report.growth[0].pathText, leakedObjects: report.growth[0].leakedObjects } : null,
    wallSeconds,
    userSeconds,
    systemSeconds,
    cpuSeconds: userSeconds + systemSeconds,
    maxRssBytes: maxRssKiB * 1024,
    otherCores: Math.max(0, (busy - userSeconds - systemSeconds) / wallSeconds),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryBytes: totalmem(), node: process.version }
  }
}

/**
 * @param {Array<Awaited<ReturnType<typeof measure>>>} runs
 */
function writeDoc (runs) {
  const doc = readFileSync(DOC, 'utf8')
  const all = runs[runs.length - 1]
  const mb = (/** @type {{bytes: number}[]} */ list) => list.map((f) => formatMB(f.bytes)).join(', ')
  const shared = runs.some((run) => run.otherCores >= 0.25)
  const body = [
    '## Diff of ~1 GB snapshots',
    '',
    `Measured ${all.date.slice(0, 10)} with \`node bench/diff.js\`: \`leakdiff … --format json\` on snapshots of one process,`,
    `${mb(all.files)}${all.snapshots.length > 0 ? ` (${all.snapshots.map((s) => s.nodeCount.toLocaleString('en-US')).join(', ')} nodes)` : ''}, written by`,
    `\`bench/server-series.js\`: the server heap above with ${SESSIONS.toLocaleString('en-US')} sessions, then ${ADDED.toLocaleString('en-US')} more added to the same`,
    'Map and access log before each later write.',
    '',
    '| run | files | verdict | findings | wall | CPU | peak RSS | RSS / files | other work |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...runs.map((run) => {
      const total = run.files.reduce((sum, f) => sum + f.bytes, 0)
      const name = run.files.length === 2 ? '`leakdiff a b`' : '`leakdiff a b c`'
      return `| ${name} | ${formatMB(total)} | ${run.status === 'ok' ? run.verdict : run.status} | ${run.findings ?? '–'} | ${run.wallSeconds.toFixed(1)} s | ${run.cpuSeconds.toFixed(1)} s | ${formatMB(run.maxRssBytes)} | ${(run.maxRssBytes / total).toFixed(2)}× | ${run.otherCores.toFixed(2)} |`
    }),
    '',
    `Top owner: ${all.topOwner ? `\`${all.topOwner.pathText}\`, ${all.topOwner.leakedObjects.toLocaleString('en-US')} new objects` : '–'}.`,
    '',
    'The files are parsed and analysed on two lanes, one per core: the main thread takes the largest, one',
    'worker thread the other two one after the other; the arrays move to the main thread without a copy,',
    'and the diff reads all the analyses, so the peak holds them all. ' + (shared
      ? 'The machine was shared with other work during a run ("other work" is the average number of other busy cores): wall time is inflated; CPU time and peak RSS are the figures to compare with the single-file rows above.'
      : 'CPU time and peak RSS compare with the single-file rows above.'),
    'The snapshots are deleted after the runs (`--keep` keeps them); writing them takes about 4 minutes and 6 GB of RSS.'
  ].join('\n')
  const next = replaceSection(doc, 'diff', body)
  writeFileSync(DOC, next)
  console.log(`wrote ${DOC}`)
}

/** CPU seconds all cores spent busy since boot (/proc/stat, USER_HZ = 1/100 s); NaN without /proc. */
function busySeconds () {
  if (!existsSync('/proc/stat')) return NaN
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  return (user + nice + system + irq + softirq + steal) / 100
}
