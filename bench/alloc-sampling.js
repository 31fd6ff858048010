// `npm run bench:alloc [-- --intervals 524288,65536,16384 --rate 500 --phases 16 --phase-ms 4000]`:
// what the agent's allocation sampling costs a serving process. A bench/alloc-sampling-server.js
// process answers a fixed rate of HTTP requests from this process (open loop) with a JSON API's work.
//   CPU and event-loop delay: per interval, one process runs phases with sampling off and on in
//   turn, each measured after it settled; neighbouring phases share the shared machine's load, so
//   the bench takes the median over pairs of the difference in CPU time per request, and the
//   phases' loop p99.
//   Memory: per interval (and off), a fresh process holds a heap built after sampling started (its
//   samples stay live, as a leak's do) and reports RSS, the live samples and the profile's size.
// Results go to bench/out/alloc-sampling.json and into a section of docs/benchmarks.md (bench/run.js
// keeps that section when it renders the doc).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { replaceSection } from './doc-sections.js'
import { DOC, OUT, forkServer, machineName, median, option, sleep } from './bench-kit.js'

const SERVER = fileURLToPath(new URL('alloc-sampling-server.js', import.meta.url))
const SECTION = 'alloc-sampling'
const INTERVALS = option('intervals', '524288,65536,16384').split(',').map(Number)
const RATE = Number(option('rate', '500'))
const PHASES = Number(option('phases', '16'))
const PHASE_MS = Number(option('phase-ms', '4000'))
const SETTLE_MS = Number(option('settle-ms', '1000'))
const HEAP_MB = Number(option('heap-mb', '100'))
const WINDOW_MS = Number(option('window-ms', '8000'))
const WARMUP_MS = 3000
const REPEATS = Number(option('repeats', '3'))

/**
 * @typedef {object} Phase
 * @property {boolean} on
 * @property {number} wallMs
 * @property {number} cpuMs
 * @property {number} requests
 * @property {number} loopP99Ms
 */

/**
 * @typedef {{interval: number, phases: Phase[], loadBefore: number}} Alternation
 */

/**
 * @typedef {object} Sample
 * @property {number} interval  bytes; 0: off
 * @property {number} wallMs
 * @property {number} cpuMs
 * @property {number} requests
 * @property {number} loopP50Ms
 * @property {number} loopP99Ms
 * @property {number} loopMaxMs
 * @property {number} rss
 * @property {number} heapUsed
 * @property {number} liveSamples
 * @property {number} profileBytes
 * @property {number} loadBefore
 */

/**
 * One server process under load: `go`, then (for a memory run) `stop` after the window.
 * @param {string[]} args
 * @param {boolean} alternating  the server ends by itself after its phases
 * @returns {Promise<any>}
 */
async function runOnce (args, alternating) {
  const loadBefore = loadavg()[0]
  const { child, port: ready, result } = forkServer(SERVER, [...args, '--heap-mb', String(alternating ? 0 : HEAP_MB)], ['--expose-gc'])
  try {
    const port = await ready
    const load = startLoad(port)
    await sleep(WARMUP_MS)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.send('go')
    if (!alternating) {
      await sleep(WINDOW_MS)
      child.send('stop')
    }
    await exited
    load.stop()
    const line = result()
    if (!line) throw new Error(`no result from ${args.join(' ')}`)
    return { ...line, loadBefore }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

/**
 * Sends RATE requests a second, in ticks of 10 ms, over keep-alive connections.
 * @param {number} port
 */
function startLoad (port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 })
  const perTick = RATE / 100
  let owed = 0
  const timer = setInterval(() => {
    owed += perTick
    for (; owed >= 1; owed--) {
      http.get({ host: '127.0.0.1', port, path: '/', agent }, (response) => response.resume()).on('error', () => {})
    }
  }, 10)
  return {
    stop: () => {
      clearInterval(timer)
      agent.destroy()
    }
  }
}

/** @param {number} bytes */
const formatInterval = (bytes) => bytes === 0 ? 'off' : `${bytes / 1024} KiB`
/** @param {number} ms */
const formatMs = (ms) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`

/**
 * CPU per request and loop p99 of one alternation: medians over neighbouring off/on pairs.
 * @param {Alternation} run
 */
function compare (run) {
  const perRequest = (/** @type {Phase} */ p) => p.cpuMs / Math.max(1, p.requests)
  const deltas = []
  const p99 = { on: /** @type {number[]} */ ([]), off: /** @type {number[]} */ ([]) }
  for (let k = 1; k < run.phases.length; k += 2) {
    const off = run.phases[k - 1]
    const on = run.phases[k]
    deltas.push(perRequest(on) - perRequest(off))
    p99.on.push(on.loopP99Ms)
    p99.off.push(off.loopP99Ms)
  }
  const offPerRequest = median(run.phases.filter((p) => !p.on).map(perRequest))
  return { delta: median(deltas), offPerRequest, p99On: median(p99.on), p99Off: median(p99.off), pairs: deltas.length }
}

/**
 * @param {{alternations: Alternation[], memory: Sample[]}} results
 * @param {{date: string, machine: string}} context
 */
function render ({ alternations, memory }, { date, machine }) {
  const loads = [...alternations, ...memory].map((s) => s.loadBefore)
  const lines = [
    '## Agent: what allocation sampling costs a serving process',
    '',
    `Measured ${date} on ${machine} by \`npm run bench:alloc\` (bench/alloc-sampling.js). ` +
      '**The machine was shared** with other processes (1-minute load average ' +
      `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} at the start of the runs).`,
    '',
    `A server answers ${RATE} requests/s (open loop, from the bench process) with a JSON API's work per request`,
    '(parse a body, filter and map a 200-item list, render ~10 kB of JSON). The sampler is the agent\'s',
    '(src/agent/alloc-sampler.js: an in-process inspector session, live samples only).',
    '',
    `**CPU and event-loop delay.** Per interval, one process runs ${PHASES} phases, sampling off and on in turn, each`,
    `measured for ${PHASE_MS / 1000} s after ${SETTLE_MS / 1000} s to settle (starting or stopping the profiler costs the code that runs next; a`,
    'series samples for minutes). Each on phase is compared with the off phase before it, which saw the same load',
    'on the machine. What this table shows is mostly the cost of switching the profiler on or off: the code that runs',
    'in the following seconds is slower (without the settling time, on phases were the slow ones; with it, the off',
    'phases right after a stop are). The steady state is the next table.',
    '*Δ CPU per request* is the median over those pairs of the difference in the server\'s CPU time (user + system)',
    `per request served; *% of a core* is that difference at ${RATE} requests/s. *Loop p99* is the median over the phases`,
    'of the event-loop delay p99 (`monitorEventLoopDelay`, 10 ms resolution).',
    '',
    '| interval | CPU per request, off | Δ CPU per request | Δ % of a core | loop p99 off → on | pairs |',
    '| --- | ---: | ---: | ---: | ---: | ---: |'
  ]
  for (const run of alternations) {
    const c = compare(run)
    lines.push(`| ${formatInterval(run.interval)} | ${(c.offPerRequest * 1000).toFixed(0)} µs | ${c.delta >= 0 ? '+' : ''}${(c.delta * 1000).toFixed(1)} µs | ` +
      `${c.delta >= 0 ? '+' : ''}${(c.delta * RATE / 10).toFixed(2)} | ${formatMs(c.p99Off)} → ${formatMs(c.p99On)} | ${c.pairs} |`)
  }
  const perRequest = (/** @type {Sample} */ s) => (s.cpuMs / Math.max(1, s.requests)) * 1000
  const offSteady = median(memory.filter((s) => s.interval === 0).map(perRequest))
  lines.push('',
    `**Steady state and memory.** Per interval, fresh processes (${REPEATS} each, intervals interleaved) sample from their start,`,
    `build ~${HEAP_MB} MB of session records (their samples stay live, as a leak's do), serve for ${WARMUP_MS / 1000} s, then are measured`,
    `for ${WINDOW_MS / 1000} s: CPU per request and loop p99 (medians of the runs), and after a GC the RSS, the live samples and the`,
    'size of the profile the agent would save (`HeapProfiler.getSamplingProfile` as JSON).',
    '',
    '| interval | CPU per request | Δ against off | loop p99 | heapUsed | RSS | live samples | profile | runs (µs per request) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |')
  for (const interval of [0, ...new Set(memory.map((s) => s.interval).filter((i) => i > 0))]) {
    const rows = memory.filter((s) => s.interval === interval)
    if (rows.length === 0) continue
    const med = (/** @type {(s: Sample) => number} */ pick) => median(rows.map(pick))
    const cpu = med(perRequest)
    lines.push(`| ${formatInterval(interval)} | ${cpu.toFixed(0)} µs | ${interval === 0 ? '—' : `${cpu - offSteady >= 0 ? '+' : ''}${(cpu - offSteady).toFixed(0)} µs`} | ` +
      `${formatMs(med((s) => s.loopP99Ms))} | ${(med((s) => s.heapUsed) / 1e6).toFixed(0)} MB | ${(med((s) => s.rss) / 1e6).toFixed(0)} MB | ` +
      `${Math.round(med((s) => s.liveSamples))} | ${(med((s) => s.profileBytes) / 1e3).toFixed(0)} kB | ${rows.map((s) => perRequest(s).toFixed(0)).join(', ')} |`)
  }
  return lines.join('\n') + '\n'
}

if (process.argv.includes('--render')) {
  const { date, machine, alternations, memory } = JSON.parse(readFileSync(join(OUT, 'alloc-sampling.json'), 'utf8'))
  writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), SECTION, render({ alternations, memory }, { date, machine })))
  process.exit(0)
}

/** @type {Alternation[]} */
const alternations = []
for (const interval of INTERVALS) {
  const run = await runOnce(['--alternate', String(interval), '--phases', String(PHASES), '--phase-ms', String(PHASE_MS), '--settle-ms', String(SETTLE_MS)], true)
  alternations.push(run)
  const c = compare(run)
  process.stderr.write(`${formatInterval(interval)}: Δ CPU per request ${(c.delta * 1000).toFixed(1)} µs (off ${(c.offPerRequest * 1000).toFixed(0)} µs), ` +
    `loop p99 ${formatMs(c.p99Off)} → ${formatMs(c.p99On)} (load ${run.loadBefore.toFixed(1)})\n`)
}
/** @type {Sample[]} */
const memory = []
// Repeats interleave the intervals, so a burst of other work on the machine hits all of them alike.
for (let repeat = 1; repeat <= REPEATS; repeat++) {
  for (const interval of [0, ...INTERVALS]) {
    const sample = await runOnce(['--interval', String(interval)], false)
    memory.push(sample)
    process.stderr.write(`${repeat}/${REPEATS} ${formatInterval(interval)}: ${((sample.cpuMs / sample.requests) * 1000).toFixed(0)} µs CPU per request, ` +
      `loop p99 ${formatMs(sample.loopP99Ms)}, RSS ${(sample.rss / 1e6).toFixed(0)} MB, ${sample.liveSamples} live samples (load ${sample.loadBefore.toFixed(1)})\n`)
  }
}
const machine = machineName()
const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
mkdirSync(OUT, { recursive: true })
writeFileSync(join(OUT, 'alloc-sampling.json'), JSON.stringify({ date, machine, alternations, memory }, null, 2) + '\n')
writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), SECTION, render({ alternations, memory }, { date, machine })))
process.stderr.write(`wrote ${DOC}\n`)
