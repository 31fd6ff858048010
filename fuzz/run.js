#!/usr/bin/env node
// The long fuzz run: `npm run fuzz -- --time 10m --seed 42`. Mutates a real snapshot (engine/bare,
// plain and gzip) for the given time and stops at the first case leakdiff answers wrongly (another
// exception, an accepted broken file, a changed analysis), hangs on (--stall seconds of CPU time
// on one case) or takes more memory for (--max-rss). It prints the seed and the command that replays the
// case. The cases run in a worker thread, so that this thread can notice a hang.
import fc from 'fast-check'
import { readFile } from 'node:fs/promises'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { parseArgs } from 'node:util'
import { captureFixture } from '../test/helpers/fixture-snapshots.js'
import { readLayout, fuzzCase } from './snapshot-mutations.js'
import { checkCase, digest } from './check-case.js'
import { parseSnapshot } from '../src/parse/parse-snapshot.js'
import { analyzeHeap } from '../src/analysis/analyze-heap.js'

/** @param {string} text e.g. 90s, 10m, 1h, or seconds */
function parseDuration (text) {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text)
  if (!match) throw new Error(`--time expects a duration such as 30s, 10m or 1h, got '${text}'`)
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] ?? 1000
  return Number(match[1]) * unit
}

/** CPU time of this process so far, all threads, in seconds. */
function cpuSeconds () {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

if (isMainThread) {
  const { values } = parseArgs({
    options: {
      time: { type: 'string', default: '1m' },
      seed: { type: 'string' },
      path: { type: 'string' },
      stall: { type: 'string', default: '60' },
      'max-rss': { type: 'string', default: '3072' }
    }
  })
  const seed = values.seed === undefined ? (Date.now() ^ (Math.random() * 2 ** 31)) | 0 : Number(values.seed)
  const timeMs = parseDuration(values.time ?? '1m')
  const stallMs = Number(values.stall) * 1000
  const maxRss = Number(values['max-rss']) * 1024 * 1024
  const replay = (/** @type {string} */ path) => `npm run fuzz -- --seed ${seed} --path ${path}`
  const { files } = await captureFixture('engine/bare')
  process.stdout.write(`fuzzing ${files[0]} with seed ${seed} for ${values.path ? 'one case' : values.time}\n`)

  const worker = new Worker(new URL(import.meta.url), { workerData: { file: files[0], seed, timeMs, path: values.path } })
  let run = -1
  let lastCase = ''
  let lastProgress = Date.now()
  let lastCpu = cpuSeconds()
  const started = Date.now()
  /** @param {string} message */
  const fail = (message) => {
    process.stdout.write(`${message}\nseed ${seed}, run ${run}\ncase ${lastCase}\nreplay: ${replay(String(run))}\n`)
    process.exitCode = 1
    clearInterval(watch)
    worker.terminate()
  }
  // A case hangs when it takes --stall seconds of CPU time (of this process, the worker's included):
  // on a busy machine wall time says little. Ten times that in wall time is a hang too.
  const watch = setInterval(() => {
    if (cpuSeconds() - lastCpu > stallMs / 1000) fail(`HANG: no progress in ${values.stall} s of CPU time`)
    else if (Date.now() - lastProgress > 10 * stallMs) fail(`HANG: no progress for ${10 * Number(values.stall)} s`)
    else if (process.memoryUsage.rss() > maxRss) fail(`MEMORY: the process holds ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MiB, more than --max-rss ${values['max-rss']} MiB`)
  }, 1000)
  worker.on('message', (message) => {
    lastProgress = Date.now()
    lastCpu = cpuSeconds()
    if (message.run !== undefined) {
      run = message.run
      lastCase = message.fuzzCase
    } else if (message.failure) {
      clearInterval(watch)
      process.stdout.write(`FAILED: ${message.failure}\nseed ${seed}, path ${message.path}\ncase ${message.fuzzCase}\nreplay: ${replay(message.path)}\n`)
      process.exitCode = 1
    } else if (message.done) {
      clearInterval(watch)
      process.stdout.write(`no failure in ${message.runs} cases (${((Date.now() - started) / 1000).toFixed(0)} s), seed ${seed}\n`)
    }
  })
  worker.on('error', (error) => fail(`CRASH: the worker died: ${error.stack}`))
  worker.on('exit', (code) => {
    clearInterval(watch)
    if (code !== 0 && process.exitCode !== 1) fail(`CRASH: the worker exited with ${code}`)
  })
} else {
  const { file, seed, timeMs, path } = workerData
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
  const bytes = await readFile(file)
  const layout = readLayout(bytes)
  const original = digest(analyzeHeap(await parseSnapshot(file)))
  let runs = 0
  const details = await fc.check(fc.asyncProperty(fuzzCase, async (fuzz) => {
    port.postMessage({ run: runs++, fuzzCase: JSON.stringify(fuzz) })
    const wrong = await checkCase(layout, original, fuzz)
    if (wrong) throw new Error(wrong)
  }), {
    seed,
    path,
    numRuns: path ? 1 : Number.MAX_SAFE_INTEGER,
    interruptAfterTimeLimit: path ? undefined : timeMs,
    markInterruptAsFailure: false,
    endOnFailure: true
  })
  if (details.failed) {
    const error = /** @type {Error | undefined} */ (details.errorInstance)
    port.postMessage({ failure: error?.message ?? String(details.errorInstance), path: details.counterexamplePath, fuzzCase: JSON.stringify(details.counterexample?.[0]) })
  } else {
    port.postMessage({ done: true, runs })
  }
}
