// `npm run bench:watch [-- --repeats 3 --seconds 20 --long 180 --skip-long]`: what watch mode costs a
// busy service, and how often it would start a series where there is no leak.
//
// 1. Cost: bench/agent-watch-server.js (a busy HTTP service) under a steady load from this process
//    (4 keep-alive connections), without watch mode and with it (1 s windows), interleaved and
//    repeated in fresh processes: CPU time, event-loop delay p99 and requests served over
//    `--seconds`. Besides, the price of the one sample taken per major GC (v8.getHeapStatistics()),
//    timed here, times the major GCs the server saw: the sampling's share of a core.
//    And bench/agent-watch-gc.js: CPU time of an allocation loop with no observer, with watch mode
//    and with a PerformanceObserver on 'gc' (what watch mode avoids), rounds interleaved.
// 2. False triggers: fixtures/agent/watch-service.js, the busy service of the tests that does not
//    leak (a large sawtooth, a cache that fills then stays flat, a one-time warm-up jump), runs for
//    `--long` seconds with the tests' short windows and no cool-down, once with V8's own heap growth
//    and once with --heap-growing-percent=15 (many more major GCs, so many more windows judged);
//    every trigger is counted. The leaking variant runs beside it for how soon it triggers.
// Results go to bench/out/agent-watch.json and a section of docs/benchmarks.md.
import { fork, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getHeapStatistics } from 'node:v8'
import { replaceSection } from './doc-sections.js'
import { median, sleep } from './bench-kit.js'
import { startLoad } from './http-load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SERVER = fileURLToPath(new URL('agent-watch-server.js', import.meta.url))
const GC_BENCH = fileURLToPath(new URL('agent-watch-gc.js', import.meta.url))
const SERVICE = join(ROOT, 'fixtures', 'agent', 'watch-service.js')
const OUT = join(ROOT, 'bench', 'out')
const DOC = join(ROOT, 'docs', 'benchmarks.md')
const SECTION = 'agent-watch'

const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : process.argv[at + 1]
}
const REPEATS = Number(option('repeats', '3'))
const SECONDS = Number(option('seconds', '20'))
const LONG = Number(option('long', '180'))
// Keeps the trigger runs of the last results (they take 7 minutes) and measures the rest again.
const SKIP_LONG = process.argv.includes('--skip-long')

/**
 * @typedef {object} CostSample
 * @property {boolean} watch
 * @property {number} seconds
 * @property {number} cpuMs
 * @property {number} requests
 * @property {number} loopP99Ms
 * @property {number} loopMeanMs
 * @property {number | null} majorGcs
 * @property {number | null} windows
 * @property {number} loadBefore
 */

/**
 * One cost measurement in a fresh server process.
 * @param {boolean} watch
 * @returns {Promise<CostSample>}
 */
async function measureCost (watch) {
  const loadBefore = loadavg()[0]
  const child = fork(SERVER, ['--watch', watch ? 'on' : 'off', '--seconds', String(SECONDS)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk) => { out += chunk })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    const port = await new Promise((resolve, reject) => {
      child.stdout?.on('data', () => {
        const match = /^ready (\d+)$/m.exec(out)
        if (match) resolve(Number(match[1]))
      })
      child.once('exit', (code) => reject(new Error(`server exited (${code}) before ready`)))
    })
    const load = startLoad(port)
    await sleep(2000)
    child.send('go')
    await exited
    await load.stop()
    const line = out.split('\n').find((l) => l.startsWith('{'))
    if (!line) throw new Error('no result from the server')
    return { ...JSON.parse(line), loadBefore }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

/**
 * @typedef {object} GcSample
 * @property {string[]} nodeArgs
 * @property {number} rounds
 * @property {number} gcsPerRound
 * @property {Record<string, number>} roundMicros  median CPU time of a round: none, watch, gc-observer
 */

/**
 * Runs bench/agent-watch-gc.js in a fresh process.
 * @param {string[]} nodeArgs
 * @returns {Promise<GcSample>}
 */
async function measureGcCost (nodeArgs) {
  const child = fork(GC_BENCH, ['21'], { execArgv: nodeArgs, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk) => { out += chunk })
  await new Promise((resolve) => child.once('exit', resolve))
  return { nodeArgs, ...JSON.parse(out) }
}

/**
 * Microseconds one v8.getHeapStatistics() takes here, the call watch mode makes per major GC.
 * @returns {number}
 */
function timeHeapStatistics () {
  for (let i = 0; i < 10_000; i++) getHeapStatistics()
  const runs = []
  for (let r = 0; r < 5; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < 100_000; i++) getHeapStatistics()
    runs.push(Number(process.hrtime.bigint() - start) / 1000 / 100_000)
  }
  return median(runs)
}

/**
 * @typedef {object} TriggerRun
 * @property {string} name
 * @property {boolean} leak
 * @property {string[]} nodeArgs
 * @property {number} seconds
 * @property {number} triggers
 * @property {number | null} firstTriggerSeconds
 */

/**
 * Runs the test service with watch mode for `seconds` and counts its triggers.
 * @param {{name: string, leak: boolean, nodeArgs: string[], seconds: number, dir: string}} run
 * @returns {Promise<TriggerRun>}
 */
async function countTriggers ({ name, leak, nodeArgs, seconds, dir }) {
  const started = Date.now()
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'leakdiff/register', SERVICE], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LEAKDIFF_FIXTURE_LEAK: leak ? '1' : '0',
      LEAKDIFF_DIR: join(dir, name),
      LEAKDIFF_SIGNAL: 'none',
      LEAKDIFF_SERIES: '1',
      LEAKDIFF_KEEP: '3',
      LEAKDIFF_WATCH: '1',
      LEAKDIFF_WATCH_WINDOW: '1s',
      LEAKDIFF_WATCH_WINDOWS: '6',
      LEAKDIFF_WATCH_MIN_RATE: '4GB/h',
      LEAKDIFF_WATCH_TIME_TO_LIMIT: 'off',
      // Every window judged on its own: no cool-down hides a second false trigger.
      LEAKDIFF_WATCH_COOLDOWN: leak ? '1h' : '0'
    },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  /** @type {number[]} */
  const triggers = []
  let buffered = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) if (line.startsWith('leakdiff: watch: ')) triggers.push((Date.now() - started) / 1000)
  })
  // Ended here after `seconds`, or earlier when the fixture exits.
  await new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), seconds * 1000)
    child.once('exit', () => { clearTimeout(timer); resolve(undefined) })
  })
  return { name, leak, nodeArgs, seconds: (Date.now() - started) / 1000, triggers: triggers.length, firstTriggerSeconds: triggers[0] ?? null }
}

/**
 * A long run chains fresh processes of about a minute each (as the published runs did) until `seconds` passed.
 * @param {{name: string, leak: boolean, nodeArgs: string[], seconds: number, dir: string}} run
 * @returns {Promise<TriggerRun>}
 */
async function countTriggersLong (run) {
  const total = { ...run, seconds: 0, triggers: 0, firstTriggerSeconds: /** @type {number | null} */ (null), processes: 0 }
  while (total.seconds < run.seconds - 1) {
    const part = await countTriggers({ ...run, seconds: Math.min(58, run.seconds - total.seconds) })
    if (total.firstTriggerSeconds === null && part.firstTriggerSeconds !== null) total.firstTriggerSeconds = total.seconds + part.firstTriggerSeconds
    total.seconds += part.seconds
    total.triggers += part.triggers
    total.processes++
  }
  return total
}

/**
 * @param {{date: string, machine: string, cost: CostSample[], statsMicros: number, gc: GcSample[], runs: TriggerRun[]}} results
 * @returns {string}
 */
function render ({ date, machine, cost, statsMicros, gc, runs }) {
  const off = cost.filter((s) => !s.watch)
  const on = cost.filter((s) => s.watch)
  /** @param {CostSample[]} rows @param {(s: CostSample) => number} pick */
  const med = (rows, pick) => median(rows.map(pick))
  const share = (/** @type {CostSample} */ s) => s.cpuMs / (s.seconds * 1000) * 100
  const perRequest = (/** @type {CostSample} */ s) => s.cpuMs * 1000 / s.requests
  const gcPerSecond = med(on, (s) => (s.majorGcs ?? 0) / s.seconds)
  const samplingShare = gcPerSecond * statsMicros / 1e6 * 100
  const loads = cost.map((s) => s.loadBefore)
  const lines = [
    '## Agent: what watch mode costs, and how often it starts a series without a leak',
    '',
    `Measured ${date} on ${machine} by \`npm run bench:watch\` (bench/agent-watch.js). **The machine was shared** (1-minute load ` +
      `average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} at the start of the cost runs), so the cost runs are ` +
      `interleaved, ${REPEATS} of each in fresh processes, medians shown and single runs listed.`,
    '',
    '### Cost in a busy HTTP service',
    '',
    `bench/agent-watch-server.js under 4 keep-alive connections for ${SECONDS} s: each request builds ~200 small objects and a`,
    'cache of the last 5,000 responses keeps the old generation busy. Watch mode runs with 1 s windows (600 times',
    'the window checks of the 10-minute default). *Loop p99* is the 99th percentile event-loop delay',
    '(`monitorEventLoopDelay`, 1 ms resolution). The client keeps 4 requests in flight, so a server that the',
    'shared machine gives more CPU serves more requests: compare CPU per request, not the share of a core.',
    '',
    '| watch mode | CPU (share of a core) | CPU per request | requests/s | loop p99 | loop mean | runs (loop p99) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |'
  ]
  for (const [label, rows] of /** @type {[string, CostSample[]][]} */ ([['off', off], ['on, 1 s windows', on]])) {
    lines.push(`| ${label} | ${med(rows, share).toFixed(1)} % | ${med(rows, perRequest).toFixed(0)} µs | ${med(rows, (s) => s.requests / s.seconds).toFixed(0)} | ` +
      `${med(rows, (s) => s.loopP99Ms).toFixed(2)} ms | ${med(rows, (s) => s.loopMeanMs).toFixed(2)} ms | ${rows.map((s) => `${s.loopP99Ms.toFixed(2)} ms`).join(', ')} |`)
  }
  lines.push('',
    `The server saw ${gcPerSecond.toFixed(2)} major GCs a second with watch mode on. The one sample taken per major GC, ` +
    `\`v8.getHeapStatistics()\`, takes ${statsMicros.toFixed(2)} µs here, so sampling costs ${samplingShare.toFixed(5)} % of a core; ` +
    'the window check runs once a window (once every 10 minutes by default). What the A/B columns show beyond that is ' +
    'the noise of a shared machine: the difference between the medians is within the spread of the single runs.',
    '',
    '### Noticing GCs: watch mode\'s canary against a PerformanceObserver on \'gc\'',
    '',
    'bench/agent-watch-gc.js: rounds of the same allocation loop (2 million short-lived objects, yielding every',
    '50,000) alternate between no observer, watch mode (a FinalizationRegistry canary that only a major GC',
    'collects) and a bare `PerformanceObserver` on `gc` entries with an empty callback; 21 rounds each, medians of',
    'the CPU time of a round. Node makes a `gc` entry for every GC, minor ones included, once anything observes them.',
    '',
    '| V8 flags | GCs a round | no observer | watch mode | PerformanceObserver(\'gc\') |',
    '| --- | ---: | ---: | ---: | ---: |')
  for (const sample of gc) {
    const { none, watch, 'gc-observer': observer } = sample.roundMicros
    const versus = (/** @type {number} */ value) => `${(value / 1000).toFixed(1)} ms (${value >= none ? '+' : ''}${((value / none - 1) * 100).toFixed(0)} %)`
    lines.push(`| ${sample.nodeArgs.join(' ') || '(defaults)'} | ${sample.gcsPerRound} | ${(none / 1000).toFixed(1)} ms | ${versus(watch)} | ${versus(observer)} |`)
  }
  lines.push('',
    '### Triggers where there is no leak',
    '',
    'fixtures/agent/watch-service.js (the tests\' busy service: a large sawtooth of request objects, a cache that fills',
    'in a second and then stays flat, a 4 MB warm-up jump) with the tests\' settings: 1 s windows, 6 of them, 4 GB/h,',
    'no time-to-limit trigger (time runs ~600 times faster than in production, so a 4 GB heap limit looks minutes',
    'away), and no cool-down, so that every window is judged. The leaking variant (3-4 MB/s into a Map) ran beside it.',
    '',
    '| service | V8 flags | run | triggers | first trigger |',
    '| --- | --- | ---: | ---: | ---: |')
  for (const run of runs) {
    lines.push(`| ${run.leak ? 'leaking' : 'not leaking'} | ${run.nodeArgs.join(' ') || '(defaults)'} | ${Math.round(run.seconds)} s | ${run.leak ? '—' : run.triggers} | ` +
      `${run.firstTriggerSeconds === null ? 'none' : `${run.firstTriggerSeconds.toFixed(1)} s`} |`)
  }
  return lines.join('\n') + '\n'
}

if (process.argv.includes('--render')) {
  const results = JSON.parse(readFileSync(join(OUT, 'agent-watch.json'), 'utf8'))
  writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), SECTION, render(results)))
  process.exit(0)
}

const dir = mkdtempSync(join(tmpdir(), 'leakdiff-watch-bench-'))
try {
  /** @type {CostSample[]} */
  const cost = []
  for (let repeat = 1; repeat <= REPEATS; repeat++) {
    for (const watch of [false, true]) {
      const sample = await measureCost(watch)
      cost.push(sample)
      process.stderr.write(`${repeat}/${REPEATS} watch ${watch ? 'on' : 'off'}: CPU ${sample.cpuMs.toFixed(0)} ms, ${sample.requests} requests, loop p99 ${sample.loopP99Ms.toFixed(2)} ms, major GCs ${sample.majorGcs ?? '—'} (load ${sample.loadBefore.toFixed(1)})\n`)
    }
  }
  const statsMicros = timeHeapStatistics()
  process.stderr.write(`v8.getHeapStatistics(): ${statsMicros.toFixed(2)} µs\n`)
  /** @type {GcSample[]} */
  const gc = []
  for (const nodeArgs of [[], ['--max-semi-space-size=1']]) {
    const sample = await measureGcCost(nodeArgs)
    gc.push(sample)
    process.stderr.write(`gc ${nodeArgs.join(' ') || 'defaults'}: ${JSON.stringify(sample.roundMicros)}, ${sample.gcsPerRound} GCs a round\n`)
  }
  /** @type {TriggerRun[]} */
  const runs = SKIP_LONG ? JSON.parse(readFileSync(join(OUT, 'agent-watch.json'), 'utf8')).runs : []
  for (const nodeArgs of SKIP_LONG ? [] : [[], ['--heap-growing-percent=15']]) {
    const flag = nodeArgs.length ? 'growing' : 'default'
    const [steady, leaking] = await Promise.all([
      countTriggersLong({ name: `steady-${flag}`, leak: false, nodeArgs, seconds: LONG, dir }),
      countTriggers({ name: `leak-${flag}`, leak: true, nodeArgs, seconds: 55, dir })
    ])
    runs.push(steady, leaking)
    process.stderr.write(`${flag}: not leaking ${steady.triggers} triggers in ${Math.round(steady.seconds)} s; leaking first trigger ${leaking.firstTriggerSeconds ?? 'none'} s\n`)
  }
  const machine = `${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node.js ${process.version}`
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
  const results = { date, machine, cost, statsMicros, gc, runs }
  mkdirSync(OUT, { recursive: true })
  writeFileSync(join(OUT, 'agent-watch.json'), JSON.stringify(results, null, 2) + '\n')
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n'
  writeFileSync(DOC, replaceSection(doc, SECTION, render(results)))
  process.stderr.write(`wrote ${DOC}\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
