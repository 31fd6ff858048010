// Run by bench/agent-watch.js (under --max-semi-space-size=1, so that scavenges are frequent):
// what a way of noticing GCs adds to a process that allocates. Rounds of the same allocation work
// alternate between no observer, watch mode (its FinalizationRegistry canary), and a bare
// PerformanceObserver on 'gc' entries with an empty callback (what watch mode does not use); prints
// one JSON line with each mode's median CPU time per round and the GCs a round saw.
import { PerformanceObserver } from 'node:perf_hooks'
import { setImmediate as tick } from 'node:timers/promises'
import { median } from './bench-kit.js'
import { startMeasuringWatch } from './http-load.js'

const ROUNDS = Number(process.argv[2] ?? '21')

/** Short-lived objects, yielding now and then so that callbacks and entries are delivered. */
async function churn () {
  let kept = null
  for (let batch = 0; batch < 40; batch++) {
    for (let i = 0; i < 50_000; i++) kept = { i, list: [i, batch] }
    await tick()
  }
  return kept
}

/** @type {Record<string, () => () => void>} each starts a way of noticing GCs and returns its stop */
const MODES = {
  none: () => () => {},
  watch: () => {
    const watch = startMeasuringWatch({ windowMs: 1000 })
    return () => watch.stop()
  },
  'gc-observer': () => {
    const observer = new PerformanceObserver(() => {})
    observer.observe({ entryTypes: ['gc'] })
    return () => observer.disconnect()
  }
}

/** @type {Record<string, number[]>} */
const cpu = { none: [], watch: [], 'gc-observer': [] }
let gcs = 0
const counter = new PerformanceObserver((list) => { gcs += list.getEntries().length })
await churn()
for (let round = 0; round < ROUNDS; round++) {
  for (const [mode, start] of Object.entries(MODES)) {
    const stop = start()
    const before = process.cpuUsage()
    await churn()
    await tick()
    const used = process.cpuUsage(before)
    stop()
    cpu[mode].push(used.user + used.system)
  }
}
// Counted apart from the timed rounds, since counting is observing.
counter.observe({ entryTypes: ['gc'] })
await churn()
await tick()
counter.disconnect()
console.log(JSON.stringify({
  rounds: ROUNDS,
  gcsPerRound: gcs,
  roundMicros: Object.fromEntries(Object.entries(cpu).map(([mode, values]) => [mode, median(values)]))
}))
