// `npm run bench:alloc [-- --intervals 0,524288,131072,65536,32768,16384 --rate 1000 --repeats 3]`:
// what the agent's allocation sampling costs a serving process. For each sampling interval (0:
// off), a fresh bench/alloc-sampling-server.js process holds a heap (its samples stay live) and
// answers a fixed rate of HTTP requests from this process (open loop: a slower server gets the
// same requests, so CPU time compares). Reported per interval, median of the repeats: the
// server's CPU over the window (% of one core), event-loop delay p99, RSS and the live samples
// the profiler keeps. Results go to bench/out/alloc-sampling.json and into a section of
// docs/benchmarks.md (bench/run.js keeps that section when it renders the doc).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { replaceSection } from './doc-sections.js'
import { DOC, OUT, forkServer, machineName, median, option, sleep } from './bench-kit.js'

const SERVER = fileURLToPath(new URL('alloc-sampling-server.js', import.meta.url))
const SECTION = 'alloc-sampling'
const INTERVALS = option('intervals', '0,524288,131072,65536,32768,16384').split(',').map(Number)
const RATE = Number(option('rate', '1000'))
const REPEATS = Number(option('repeats', '3'))
const HEAP_MB = Number(option('heap-mb', '100'))
const WINDOW_MS = Number(option('window-ms', '8000'))
const WARMUP_MS = 2000

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
 * @param {number} interval
 * @returns {Promise<Sample>}
 */
async function runOnce (interval) {
  const loadBefore = loadavg()[0]
  const { child, port: ready, result } = forkServer(SERVER, ['--interval', String(interval), '--heap-mb', String(HEAP_MB)], ['--expose-gc'])
  try {
    const port = await ready
    const load = startLoad(port)
    await sleep(WARMUP_MS)
    child.send('go')
    await sleep(WINDOW_MS)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.send('stop')
    await exited
    load.stop()
    const line = result()
    if (!line) throw new Error(`no result at interval ${interval}`)
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
 * @param {Sample[]} samples
 * @param {{date: string, machine: string}} context
 */
function render (samples, { date, machine }) {
  /** @param {Sample} s */
  const core = (s) => (100 * s.cpuMs) / s.wallMs
  const off = samples.filter((s) => s.interval === 0)
  const offCore = median(off.map(core))
  const loads = samples.map((s) => s.loadBefore)
  const lines = [
    '## Agent: what allocation sampling costs a serving process',
    '',
    `Measured ${date} on ${machine} by \`npm run bench:alloc\` (bench/alloc-sampling.js). ` +
      '**The machine was shared** with other engineers\' test runs (1-minute load average ' +
      `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} at the start of the runs): each cell is the median of ${REPEATS} runs, ` +
      'each in a fresh process, modes interleaved.',
    '',
    `A server answers ${RATE} requests/s (open loop, from the bench process) with a JSON API's work per request (parse a`,
    `body, filter and map a 200-item list, render ~10 kB of JSON), and holds ~${HEAP_MB} MB of session records built after`,
    'sampling started, so that their samples stay live (what a leak\'s samples cost). The sampler is the agent\'s',
    `(src/agent/alloc-sampler.js: an in-process inspector session, live samples only). Window: ${WINDOW_MS / 1000} s after a ${WARMUP_MS / 1000} s warm-up.`,
    '*CPU* is the server\'s user + system time over the window in % of one core; *Δ CPU* against sampling off.',
    '*Loop p99* is the event-loop delay (`monitorEventLoopDelay`, 10 ms resolution); *live samples* and *profile*',
    'are what `HeapProfiler.getSamplingProfile` returned at the end (JSON size of the `.heapprofile`); *RSS* after a GC.',
    '',
    '| interval | CPU (% of a core) | Δ CPU | loop p99 | loop max | requests | RSS | live samples | profile | runs (CPU %) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |'
  ]
  for (const interval of [...new Set(samples.map((s) => s.interval))].sort((a, b) => (a === 0 ? -1 : b === 0 ? 1 : b - a))) {
    const rows = samples.filter((s) => s.interval === interval)
    const cpu = median(rows.map(core))
    const med = (/** @type {(s: Sample) => number} */ pick) => median(rows.map(pick))
    lines.push(`| ${formatInterval(interval)} | ${cpu.toFixed(1)} | ${interval === 0 ? '—' : `${(cpu - offCore) >= 0 ? '+' : ''}${(cpu - offCore).toFixed(1)}`} | ` +
      `${formatMs(med((s) => s.loopP99Ms))} | ${formatMs(med((s) => s.loopMaxMs))} | ${Math.round(med((s) => s.requests))} | ${(med((s) => s.rss) / 1e6).toFixed(0)} MB | ` +
      `${Math.round(med((s) => s.liveSamples))} | ${(med((s) => s.profileBytes) / 1e3).toFixed(0)} kB | ${rows.map((s) => core(s).toFixed(1)).join(', ')} |`)
  }
  return lines.join('\n') + '\n'
}

if (process.argv.includes('--render')) {
  const { date, machine, samples } = JSON.parse(readFileSync(join(OUT, 'alloc-sampling.json'), 'utf8'))
  writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), SECTION, render(samples, { date, machine })))
  process.exit(0)
}

/** @type {Sample[]} */
const samples = []
for (let repeat = 1; repeat <= REPEATS; repeat++) {
  for (const interval of INTERVALS) {
    const sample = await runOnce(interval)
    samples.push(sample)
    process.stderr.write(`${repeat}/${REPEATS} ${formatInterval(interval)}: CPU ${((100 * sample.cpuMs) / sample.wallMs).toFixed(1)}% of a core, ` +
      `loop p99 ${formatMs(sample.loopP99Ms)}, ${sample.requests} requests, ${sample.liveSamples} live samples (load ${sample.loadBefore.toFixed(1)})\n`)
  }
}
const machine = machineName()
const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
mkdirSync(OUT, { recursive: true })
writeFileSync(join(OUT, 'alloc-sampling.json'), JSON.stringify({ date, machine, samples }, null, 2) + '\n')
writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), SECTION, render(samples, { date, machine })))
process.stderr.write(`wrote ${DOC}\n`)
