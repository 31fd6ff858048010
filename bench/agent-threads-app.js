// The process bench/agent-threads.js measures: a main thread and WORKERS workers. Two modes:
//   echo N   each worker echoes N messages to the main thread as fast as it can; prints the time
//            taken (ms), and the workers' startup apart: what an idle agent in every thread costs.
//   pause    each thread builds a heap of OBJECTS small objects; the main thread's agent writes
//            one series of 1 (every thread's turn); prints each thread's write (from its sidecar)
//            and the main thread's event-loop delay while the workers wrote.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { readFileSync, readdirSync } from 'node:fs'

const [mode, arg] = isMainThread ? process.argv.slice(2) : [workerData.mode, workerData.arg]
const objects = Number(process.env.OBJECTS ?? 200_000)

if (!isMainThread) {
  if (mode === 'echo') {
    let left = Number(arg)
    parentPort?.on('message', () => { if (--left >= 0) parentPort?.postMessage(left) })
    parentPort?.postMessage('start')
  } else {
    globalThis.kept = Array.from({ length: objects }, (_, i) => ({ i, label: `w${i}` }))
    // Listening keeps the worker alive until it is terminated.
    parentPort?.on('message', () => {})
    parentPort?.postMessage('built')
  }
} else {
  const count = Number(process.env.WORKERS ?? 2)
  const workers = Array.from({ length: count }, () => new Worker(new URL(import.meta.url), { workerData: { mode, arg } }))
  if (mode === 'echo') {
    // Startup (each worker loading its preload) is timed apart from the echoes.
    const created = performance.now()
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))))
    const start = performance.now()
    const cpu = process.cpuUsage()
    await Promise.all(workers.map((worker) => new Promise((resolve) => {
      worker.on('message', (left) => { if (left === 0) resolve(undefined); else worker.postMessage(0) })
      worker.postMessage(0)
    })))
    const used = process.cpuUsage(cpu)
    // CPU time of the whole process (every thread): steadier than wall time on a shared machine.
    process.stdout.write(JSON.stringify({ ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, startupMs: start - created }) + '\n')
    await Promise.all(workers.map((worker) => worker.terminate()))
  } else {
    globalThis.kept = Array.from({ length: objects }, (_, i) => ({ i, label: `m${i}` }))
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))))
    const { startAgent } = await import('../src/agent.js')
    // The agent the preload started in each worker writes its turn; this one relays.
    const agent = /** @type {any} */ (globalThis)[Symbol.for('leakdiff.agent.active')] ?? startAgent({ signal: null })
    const delay = monitorEventLoopDelay({ resolution: 10 })
    // The main thread writes first (synchronously); the delay is measured from the end of its
    // write, while the workers take their turns in their own threads.
    const watchWrites = setInterval(() => {
      if (readdirSync(process.env.LEAKDIFF_DIR ?? '.').some((name) => /^leakdiff-\d+-\d{8}T.*-1of1\.heapsnapshot$/.test(name))) {
        clearInterval(watchWrites)
        delay.enable()
      }
    }, 5)
    const { sidecars, seriesFile } = await agent.captureSeries({ count: 1 })
    clearInterval(watchWrites)
    delay.disable()
    const mainWrite = JSON.parse(readFileSync(sidecars[0], 'utf8')).durationMs
    const record = JSON.parse(readFileSync(seriesFile, 'utf8'))
    const dir = seriesFile.slice(0, seriesFile.lastIndexOf('/'))
    const threads = record.threads.map((/** @type {any} */ t) => JSON.parse(readFileSync(`${dir}/${t.snapshots[0].replace(/\.heapsnapshot$/, '.meta.json')}`, 'utf8')).durationMs)
    process.stdout.write(JSON.stringify({ mainWriteMs: mainWrite, workerWriteMs: threads, mainLoopMaxMs: delay.max / 1e6 }) + '\n')
    agent.stop()
    await Promise.all(workers.map((worker) => worker.terminate()))
  }
}
