// What a diff of three snapshots costs against inspecting the three files one by one, the whole
// CLI run each time (start, parse, analysis, diff, signatures, report):
//
//   node bench/diff-cost.js [--series demo,owners,200mb] [--repeat 3] [--tree after=.] [--tree before=DIR]
//
// Series (made once into bench/out/diff-cost/<series>/ and kept):
//   demo    `npm run demo -- --keep`'s three snapshots of fixtures/demo/leaky-server.js (~7-10 MB)
//   owners  bench/owners-series.js: an Express service with a listener and a timer per request
//           (thousands of leaking owners, ~14-24 MB)
//   200mb   bench/server-series.js with 52,000 sessions and 5,200 more before each later write
//           (~200-230 MB each)
// Each --tree is a leakdiff checkout whose cli/leakdiff.js runs (default: this one, as `after`), so
// a checkout of the code before a change measures "before" on the same files. Runs take turns:
// per repeat, every tree runs the diff, then the three inspects, one process at a time under
// /usr/bin/time (wall, user + system CPU, peak RSS). Results are added to
// bench/out/diff-cost-results.json and docs/benchmarks.md gets the section `diff-cost`.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DOC, OUT, ROOT, machineName, median } from './bench-kit.js'
import { replaceSection } from './doc-sections.js'
import { formatMB } from './generate.js'

const TIME = '/usr/bin/time'
const RESULTS = join(OUT, 'diff-cost-results.json')
const SERIES_DIR = join(OUT, 'diff-cost')
const HEAP_LIMIT_MB = 16384

/** @type {Record<string, {describe: string, make: (dir: string) => void}>} */
const SERIES = {
  demo: {
    describe: 'the demo (`npm run demo`): fixtures/demo/leaky-server.js under load, a listener and a cache entry per request',
    make (dir) {
      const run = spawnSync(process.execPath, [join(ROOT, 'fixtures/demo/run-demo.js'), '--keep', '--deadline', '600000'], { cwd: ROOT, encoding: 'utf8' })
      const kept = /snapshots kept in (\S+)/.exec(run.stderr ?? '')?.[1]
      if (!kept) throw new Error(`Expected the demo to keep its snapshots, got exit ${run.status}: ${run.stderr}`)
      cpSync(kept, dir, { recursive: true })
      rmSync(kept, { recursive: true, force: true })
    }
  },
  owners: {
    describe: 'bench/owners-series.js: an Express service with a listener and a setInterval per request, never removed (thousands of leaking owners)',
    make (dir) {
      run([process.execPath, '--expose-gc', join(ROOT, 'bench/owners-series.js'), dir, '6000', '6000'])
    }
  },
  '200mb': {
    describe: 'bench/server-series.js: the engine benchmark\'s server heap with 52,000 sessions, 5,200 more before each later write',
    make (dir) {
      run([process.execPath, '--max-old-space-size=8192', join(ROOT, 'bench/server-series.js'), '52000', '5200', ...[1, 2, 3].map((k) => join(dir, `${k}.heapsnapshot`))])
    }
  }
}

const { values } = parseArgs({
  options: {
    series: { type: 'string', default: Object.keys(SERIES).join(',') },
    repeat: { type: 'string', default: '3' },
    tree: { type: 'string', multiple: true, default: [`after=${ROOT}`] }
  }
})
const trees = values.tree.map((spec) => {
  const at = spec.indexOf('=')
  return { label: spec.slice(0, at), dir: resolve(spec.slice(at + 1)) }
})
const repeat = Number(values.repeat)

/**
 * @typedef {object} Timing
 * @property {number} cpuSeconds   user + system
 * @property {number} wallSeconds
 * @property {number} maxRssBytes
 * @property {number} otherCores   average cores busy with other processes during the run
 * @property {string} status
 */

/**
 * @typedef {object} CostRun
 * @property {string} date
 * @property {string} series
 * @property {string} tree
 * @property {number[]} bytes       per file
 * @property {Timing} diff
 * @property {Timing[]} inspects    per file
 * @property {string} machine
 */

const previous = existsSync(RESULTS) ? /** @type {CostRun[]} */ (JSON.parse(readFileSync(RESULTS, 'utf8'))) : []
/** @type {CostRun[]} */
const runs = []
for (const name of values.series.split(',')) {
  const series = SERIES[name]
  if (!series) throw new Error(`Expected a series among ${Object.keys(SERIES).join(', ')}, got ${name}`)
  const files = seriesFiles(name)
  console.log(`${name}: ${files.map((file) => formatMB(statSync(file).size)).join(', ')}`)
  for (let r = 0; r < repeat; r++) {
    for (const tree of trees) {
      const cli = join(tree.dir, 'cli/leakdiff.js')
      const diff = timed([cli, ...files, '--format', 'json', '--output', join(OUT, 'diff-cost-report.json')])
      const inspects = files.map((file) => timed([cli, 'inspect', file, '--format', 'json', '--output', join(OUT, 'diff-cost-report.json')]))
      const sum = (/** @type {'cpuSeconds' | 'wallSeconds'} */ key) => inspects.reduce((total, t) => total + t[key], 0)
      console.log(`  ${tree.label}: diff cpu ${diff.cpuSeconds.toFixed(2)} s wall ${diff.wallSeconds.toFixed(2)} s; inspects cpu ${sum('cpuSeconds').toFixed(2)} s wall ${sum('wallSeconds').toFixed(2)} s; other work ${Math.max(diff.otherCores, ...inspects.map((t) => t.otherCores)).toFixed(2)}`)
      runs.push({ date: new Date().toISOString(), series: name, tree: tree.label, bytes: files.map((file) => statSync(file).size), diff, inspects, machine: machineName() })
    }
  }
}
rmSync(join(OUT, 'diff-cost-report.json'), { force: true })
// A new run of a series and tree replaces the earlier one.
const kept = previous.filter((old) => !runs.some((run) => run.series === old.series && run.tree === old.tree))
const all = [...kept, ...runs]
writeFileSync(RESULTS, JSON.stringify(all, null, 2) + '\n')
writeDoc(all)

/**
 * The series' three snapshots, made first if missing.
 * @param {string} name
 * @returns {string[]}
 */
function seriesFiles (name) {
  const dir = join(SERIES_DIR, name)
  const list = () => existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.heapsnapshot')).sort().map((file) => join(dir, file)) : []
  if (list().length !== 3) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    console.log(`making the ${name} series in ${dir} ...`)
    SERIES[name].make(dir)
  }
  const files = list()
  if (files.length !== 3) throw new Error(`Expected 3 snapshots in ${dir}, got ${files.length}`)
  return files
}

/** @param {string[]} command */
function run (command) {
  const child = spawnSync(command[0], command.slice(1), { stdio: 'inherit' })
  if (child.status !== 0) throw new Error(`Expected ${command.join(' ')} to succeed, got exit ${child.status} (signal ${child.signal})`)
}

/**
 * Runs the CLI once under /usr/bin/time.
 * @param {string[]} args after `node`
 * @returns {Timing}
 */
function timed (args) {
  const timeFile = join(OUT, 'diff-cost-time.txt')
  rmSync(timeFile, { force: true })
  const busyBefore = busySeconds()
  const child = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', timeFile, process.execPath, `--max-old-space-size=${HEAP_LIMIT_MB}`, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  const busy = busySeconds() - busyBefore
  const [wallSeconds, user, system, rssKiB] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()?.split(' ').map(Number) ?? []
  return {
    cpuSeconds: user + system,
    wallSeconds,
    maxRssBytes: rssKiB * 1024,
    otherCores: Math.max(0, (busy - user - system) / wallSeconds),
    // Exit code 1 is the CLI saying "leak": the expected outcome of a diff here.
    status: child.status === 0 || child.status === 1 ? 'ok' : `failed (exit ${child.status}): ${child.stderr.toString().trim().split('\n').pop()}`
  }
}

/** CPU seconds all cores spent busy since boot (/proc/stat, USER_HZ = 1/100 s); NaN without /proc. */
function busySeconds () {
  if (!existsSync('/proc/stat')) return NaN
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  return (user + nice + system + irq + softirq + steal) / 100
}

/** @param {CostRun[]} all */
function writeDoc (all) {
  const seconds = (/** @type {number[]} */ list) => `${median(list).toFixed(2)} s${list.length > 1 ? ` (${Math.min(...list).toFixed(2)}–${Math.max(...list).toFixed(2)})` : ''}`
  const rows = []
  for (const name of Object.keys(SERIES)) {
    for (const tree of [...new Set(all.filter((run) => run.series === name).map((run) => run.tree))]) {
      const cell = all.filter((run) => run.series === name && run.tree === tree)
      const inspectSum = (/** @type {CostRun} */ run, /** @type {'cpuSeconds' | 'wallSeconds'} */ key) => run.inspects.reduce((total, t) => total + t[key], 0)
      const ratio = (/** @type {'cpuSeconds' | 'wallSeconds'} */ key) => median(cell.map((run) => run.diff[key] / inspectSum(run, key))).toFixed(2)
      const failed = cell.flatMap((run) => [run.diff, ...run.inspects]).find((t) => t.status !== 'ok')
      rows.push(`| ${name} | ${cell[0].bytes.map((b) => formatMB(b).replace(' MB', '')).join(', ')} MB | ${tree} | ${failed ? failed.status : cell.length} | ` +
        `${seconds(cell.map((run) => run.diff.cpuSeconds))} | ${seconds(cell.map((run) => inspectSum(run, 'cpuSeconds')))} | ${ratio('cpuSeconds')}× | ` +
        `${seconds(cell.map((run) => run.diff.wallSeconds))} | ${seconds(cell.map((run) => inspectSum(run, 'wallSeconds')))} | ${ratio('wallSeconds')}× | ` +
        `${formatMB(Math.max(...cell.map((run) => run.diff.maxRssBytes)))} | ${Math.max(...cell.flatMap((run) => [run.diff, ...run.inspects].map((t) => t.otherCores))).toFixed(2)} | ${cell[0].date.slice(0, 16).replace('T', ' ')} |`)
    }
  }
  const body = [
    '## A diff of three against inspecting the three',
    '',
    `Measured with \`node bench/diff-cost.js\` on ${machineName()} (${availableParallelism()} cores: worker threads parse ahead while one thread analyses).`,
    'Each row: `leakdiff a b c --format json` against `leakdiff inspect` of each of the three files, whole CLI',
    'runs one at a time, repeated; medians with the range of the runs in brackets. CPU = user + system time',
    'of the process (all its threads). Ratio = diff / the three inspects, the median of the runs\' ratios.',
    'Other work = average cores busy with other processes during a run, the highest of the cell: the',
    'machine is shared, and well above 0 means the wall times (more than the CPU times) are inflated.',
    '',
    ...Object.entries(SERIES).map(([name, series]) => `- ${name}: ${series.describe}.`),
    '',
    '| series | files | code | runs | diff CPU | inspects CPU | CPU ratio | diff wall | inspects wall | wall ratio | diff peak RSS | other work | measured (UTC) |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows
  ].join('\n')
  writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), 'diff-cost', body))
  console.log(`wrote ${DOC}`)
}
