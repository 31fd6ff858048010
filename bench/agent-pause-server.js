// One measurement of bench/agent-pause.js, in its own process: an HTTP server holding a heap of
// about `--heap-mb` MB (session records with nested objects and strings), which on the parent's
// `go` message does one of
//   bare         v8.writeHeapSnapshot() from a fresh tick
//   agent        a 1-snapshot series through the agent (startAgent().captureSeries())
//   gzip-sync    a bare write, then zlib.gzipSync of the file on the main thread
//   gzip-main    a bare write, then gzip of the file with zlib streams driven from the main thread
//   gzip-worker  a bare write, then gzip of the file the way the agent does (a worker thread)
// and reports, over the measured window, the event-loop delay (perf_hooks.monitorEventLoopDelay,
// 10 ms resolution: its max is the longest the loop was blocked) as one JSON line on stdout.
// For the gzip modes the window starts when the write ends: what the agent does next.
import http from 'node:http'
import { createReadStream, createWriteStream } from 'node:fs'
import { readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { pipeline } from 'node:stream/promises'
import { writeHeapSnapshot } from 'node:v8'
import { createGzip, gzipSync } from 'node:zlib'
import { startAgent } from '../src/agent.js'
import { gzipFile } from '../src/agent/compress.js'

const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean).map((pair) => pair.trim().split(' ')))
const MODE = args.mode
const HEAP_MB = Number(args['heap-mb'])
const DIR = args.dir
if (!['bare', 'agent', 'gzip-sync', 'gzip-main', 'gzip-worker'].includes(MODE) || !(HEAP_MB > 0) || !DIR) {
  throw new Error(`Expected --mode bare|agent|gzip-sync|gzip-main|gzip-worker --heap-mb N --dir D, got ${process.argv.slice(2).join(' ')}`)
}

// About 5 kB of heap per session: a record, a user, headers, a cart, and a 4 kB token-like string.
let seed = 0x5eed
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}
const sessions = new Map()
const target = HEAP_MB * 1024 * 1024
for (let i = 0; process.memoryUsage().heapUsed < target;) {
  for (let k = 0; k < 1000; k++, i++) {
    const id = `s${i.toString(36)}`
    sessions.set(id, {
      id,
      user: { name: `user ${i}`, email: `user${i}@example.com`, roles: ['reader', random() > 0.5 ? 'writer' : 'guest'] },
      headers: { 'user-agent': 'Mozilla/5.0', accept: 'application/json', 'x-request-id': `${i}-${random()}` },
      cart: Array.from({ length: 3 }, (_, j) => ({ sku: `SKU-${(i * 3 + j) % 5000}`, qty: 1 + j })),
      token: Buffer.alloc(4000, 97 + (i % 26)).toString('latin1'),
      seenAt: Date.now()
    })
  }
}

const server = http.createServer((request, response) => {
  const session = sessions.get(`s${Math.floor(random() * sessions.size).toString(36)}`)
  response.setHeader('content-type', 'application/json')
  response.end(JSON.stringify({ id: session?.id, items: session?.cart.length }))
})

// Enabled from the start: its first sample only sets a timestamp, so a block right after
// enable() would go unseen.
const histogram = monitorEventLoopDelay({ resolution: 10 })
histogram.enable()
const ms = (/** @type {number} */ ns) => ns / 1e6

/** @returns {Promise<void>} */
const tick = () => new Promise((resolve) => setImmediate(resolve))

async function measure () {
  const file = join(DIR, `bench-${process.pid}.heapsnapshot`)
  const result = { mode: MODE, heapUsed: process.memoryUsage().heapUsed, sessions: sessions.size }
  /** @type {number} */
  let windowStart
  if (MODE === 'bare' || MODE === 'agent') {
    histogram.reset()
    // The first sample after reset() only sets a timestamp (measured on Node 20: a block right
    // after reset() goes unseen); let a few samples pass first.
    await new Promise((resolve) => setTimeout(resolve, 50))
    windowStart = Date.now()
    if (MODE === 'bare') {
      await tick()
      const t0 = performance.now()
      writeHeapSnapshot(file)
      Object.assign(result, { writeMs: performance.now() - t0, fileBytes: (await stat(file)).size })
      await rm(file)
    } else {
      const agent = startAgent({ dir: DIR, signal: null, count: 1, intervalMs: 0, keep: 0, onEvent: () => {} })
      const t0 = performance.now()
      const series = await agent.captureSeries()
      const sidecar = JSON.parse(await readFile(series.sidecars[0], 'utf8'))
      Object.assign(result, { writeMs: sidecar.durationMs, seriesMs: performance.now() - t0, fileBytes: sidecar.bytes })
      agent.stop()
      for (const path of [...series.snapshots, ...series.sidecars, series.seriesFile]) await rm(path)
    }
  } else {
    await tick()
    const t0 = performance.now()
    writeHeapSnapshot(file)
    const writeMs = performance.now() - t0
    // Skipping the first sample after reset() is right here: it spans the write.
    histogram.reset()
    windowStart = Date.now()
    const t1 = performance.now()
    if (MODE === 'gzip-sync') {
      await writeFile(`${file}.gz`, gzipSync(await readFile(file)))
      await rm(file)
    } else if (MODE === 'gzip-main') {
      await pipeline(createReadStream(file), createGzip(), createWriteStream(`${file}.gz`))
      await rm(file)
    } else {
      await gzipFile(file, `${file}.gz`, { pid: process.pid, inFlight: new Set() })
    }
    Object.assign(result, { writeMs, gzipMs: performance.now() - t1, gzipBytes: (await stat(`${file}.gz`)).size })
    await rm(`${file}.gz`)
  }
  const windowEnd = Date.now()
  // Serve the requests that queued up during the window and let the late delay sample land.
  await new Promise((resolve) => setTimeout(resolve, 300))
  histogram.disable()
  Object.assign(result, {
    windowStart,
    windowEnd,
    loopMaxMs: ms(histogram.max),
    loopP99Ms: ms(histogram.percentile(99)),
    loopMeanMs: ms(histogram.mean)
  })
  process.stdout.write(JSON.stringify(result) + '\n')
}

process.on('message', (message) => {
  if (message === 'go') measure().then(() => process.exit(0), (error) => { process.stderr.write(`${error.stack}\n`); process.exit(1) })
})
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  process.stdout.write(`ready ${address.port}\n`)
})
