// One measurement of bench/alloc-sampling.js, in its own process: a busy HTTP server whose
// handler allocates the way a JSON API does (parse a body, build a response, render it), plus a
// held heap of about `--heap-mb` MB built after sampling started (so its samples stay live: the
// memory the profiler keeps). `--interval 0` runs without sampling; otherwise the agent's sampler
// (src/agent/alloc-sampler.js) runs at that interval for the whole run. On the parent's `go` the
// window starts; on `stop` the server reports, as one JSON line on stdout, its CPU time over the
// window, the event-loop delay (monitorEventLoopDelay, 10 ms resolution) percentiles, the
// requests it served, its RSS and heap after a GC, and the live samples the profiler holds.
// `--alternate BYTES --phases N --phase-ms MS --settle-ms MS` measures CPU and event-loop delay instead, in one
// process: on `go` it runs N phases, sampling at BYTES in every other one, and reports each phase,
// so that the bench compares neighbouring phases, which share the shared machine's conditions.
import http from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { AllocationSampler } from '../src/agent/alloc-sampler.js'

const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean).map((pair) => pair.trim().split(' ')))
const INTERVAL = Number(args.interval ?? 0)
const HEAP_MB = Number(args['heap-mb'])
const ALTERNATE = Number(args.alternate ?? 0)
const PHASES = Number(args.phases ?? 0)
const PHASE_MS = Number(args['phase-ms'] ?? 1000)
const SETTLE_MS = Number(args['settle-ms'] ?? 0)
if (!(INTERVAL >= 0) || !(HEAP_MB >= 0) || !(ALTERNATE >= 0)) throw new Error(`Expected --interval BYTES (0: off) --heap-mb N [--alternate BYTES --phases N --phase-ms MS], got ${process.argv.slice(2).join(' ')}`)

const started = INTERVAL > 0 ? await AllocationSampler.start({ intervalBytes: INTERVAL, run: 'bench' }) : null
if (started && 'reason' in started) throw new Error(`sampling did not start: ${started.reason}`)
const sampler = started && 'sampler' in started ? started.sampler : null

// The held heap: session records of ~5 kB each, as in bench/agent-pause-server.js.
const sessions = new Map()
for (let i = 0; process.memoryUsage().heapUsed < HEAP_MB * 1024 * 1024; i++) {
  sessions.set(`s${i}`, { id: i, user: { name: `user ${i}`, roles: ['reader'] }, cart: [{ sku: `SKU-${i % 5000}`, qty: 1 }], token: `${i}`.padEnd(4000, 'x') })
}

const catalog = Array.from({ length: 200 }, (_, i) => ({ sku: `SKU-${i}`, title: `Item ${i}`, price: (i * 37) % 1000, tags: ['a', 'b', `t${i % 7}`] }))
const server = http.createServer((request, response) => {
  // A JSON API's work: parse a request body, filter and map a list, render the response.
  const query = JSON.parse(`{"page":${catalog.length % 7},"tags":["a","t3"],"user":"u${Math.floor(Math.random() * 1000)}"}`)
  const items = catalog.filter((item) => item.tags.includes(query.tags[1]) || item.price < 100)
    .map((item) => ({ ...item, label: `${item.title} (${item.price / 100} EUR)`, user: query.user }))
  response.setHeader('content-type', 'application/json')
  response.end(JSON.stringify({ page: query.page, count: items.length, items }))
})

const histogram = monitorEventLoopDelay({ resolution: 10 })
let served = 0
server.on('request', () => { served++ })
/** @type {{cpu: NodeJS.CpuUsage, at: number, served: number} | null} */
let window = null

/**
 * Phases of sampling off and on in turn; one row per phase.
 * @returns {Promise<void>}
 */
async function alternate () {
  const phases = []
  for (let k = 0; k < PHASES; k++) {
    const on = k % 2 === 1
    const phaseSampler = on ? await AllocationSampler.start({ intervalBytes: ALTERNATE, run: `phase-${k}` }) : null
    // Starting and stopping the profiler costs the code that runs next (measured: an on phase that
    // starts measuring at once looks far dearer than a steady one); a series samples for minutes, so
    // each phase settles before it is measured.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    histogram.reset()
    histogram.enable()
    const cpu = process.cpuUsage()
    const at = performance.now()
    const before = served
    await new Promise((resolve) => setTimeout(resolve, PHASE_MS))
    const used = process.cpuUsage(cpu)
    histogram.disable()
    phases.push({ on, wallMs: performance.now() - at, cpuMs: (used.user + used.system) / 1000, requests: served - before, loopP99Ms: histogram.percentile(99) / 1e6 })
    if (phaseSampler && 'sampler' in phaseSampler) await phaseSampler.sampler.stop()
  }
  process.stdout.write(JSON.stringify({ interval: ALTERNATE, phases }) + '\n')
  process.exit(0)
}

process.on('message', async (message) => {
  if (message === 'go' && ALTERNATE > 0) {
    alternate()
    return
  }
  if (message === 'go') {
    histogram.reset()
    histogram.enable()
    window = { cpu: process.cpuUsage(), at: performance.now(), served }
    return
  }
  if (message !== 'stop' || window === null) return
  const cpu = process.cpuUsage(window.cpu)
  const wallMs = performance.now() - window.at
  histogram.disable()
  const requests = served - window.served
  globalThis.gc?.()
  const memory = process.memoryUsage()
  const profile = sampler ? JSON.parse(await sampler.profileText()) : null
  process.stdout.write(JSON.stringify({
    interval: INTERVAL,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    requests,
    loopP50Ms: histogram.percentile(50) / 1e6,
    loopP99Ms: histogram.percentile(99) / 1e6,
    loopMaxMs: histogram.max / 1e6,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    liveSamples: profile ? profile.samples.length : 0,
    profileBytes: profile ? JSON.stringify(profile).length : 0,
    sessions: sessions.size
  }) + '\n')
  await sampler?.stop()
  process.exit(0)
})

server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  process.stdout.write(`ready ${address.port}\n`)
})
