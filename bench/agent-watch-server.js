// The busy HTTP service bench/agent-watch.js measures: each request builds a response from a few
// hundred small objects, and a cache of the last 5,000 responses keeps the old generation busy
// (major GCs every few seconds). With `--watch on` it runs watch mode (the agent's HeapWatch) with
// 1 s windows, 600 times as many window checks as the 10-minute default. On `go` it measures over
// `--seconds`: CPU time (process.cpuUsage), event-loop delay (monitorEventLoopDelay, 1 ms
// resolution), requests served and what watch mode saw; prints one JSON line and exits.
import http from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { startMeasuringWatch } from './http-load.js'

const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : process.argv[at + 1]
}
const watching = option('watch', 'off') === 'on'
const seconds = Number(option('seconds', '20'))

const watch = watching
  ? startMeasuringWatch({ windowMs: 1000, timeToLimitMs: 0 })
  : null

/** @type {string[]} */
const cache = []
let served = 0
const server = http.createServer((request, response) => {
  served++
  const rows = Array.from({ length: 200 }, (_, i) => ({ id: served * 200 + i, name: `row ${i}`, tags: ['a', 'b', String(i % 7)] }))
  const body = JSON.stringify({ served, rows })
  cache.push(body)
  if (cache.length > 5000) cache.shift()
  response.end(body.slice(0, 64))
})

process.on('message', async (message) => {
  if (message !== 'go') return
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  const servedBefore = served
  const cpuBefore = process.cpuUsage()
  const statsBefore = watch ? { ...watch.stats } : null
  histogram.enable()
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  histogram.disable()
  const cpu = process.cpuUsage(cpuBefore)
  console.log(JSON.stringify({
    watch: watching,
    seconds,
    cpuMs: (cpu.user + cpu.system) / 1000,
    requests: served - servedBefore,
    loopP99Ms: histogram.percentile(99) / 1e6,
    loopMeanMs: histogram.mean / 1e6,
    majorGcs: watch && statsBefore ? watch.stats.majorGcs - statsBefore.majorGcs : null,
    windows: watch && statsBefore ? watch.stats.windows - statsBefore.windows : null
  }))
  process.exit(0)
})
server.listen(0, '127.0.0.1', () => console.log(`ready ${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`))
