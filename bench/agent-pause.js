// `npm run bench:agent [-- --sizes 50,300 --repeats 3]`: what capturing costs a serving process.
// For each heap size and mode, a fresh bench/agent-pause-server.js process builds the heap, serves
// HTTP under a steady load from this process (4 keep-alive connections), and on `go` writes a
// snapshot bare, through the agent, or writes one and gzips it on the main thread or the agent's
// way (a worker). Reported: the event-loop delay inside the server over the window (its max is the
// pause) and the slowest request the client saw in it. Each cell is repeated and the median shown,
// since the machine is shared. Results go to bench/out/agent-pause.json and into a section of
// docs/benchmarks.md between markers (bench/run.js keeps that section when it renders the doc).
import { fork } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { replaceSection } from './doc-sections.js'
import { DOC, OUT, machineName, median, option, sleep } from './bench-kit.js'
import { startLoad } from './http-load.js'

const SERVER = fileURLToPath(new URL('agent-pause-server.js', import.meta.url))
const SECTION = 'agent-pause'
const SIZES = option('sizes', '50,300').split(',').map(Number)
const REPEATS = Number(option('repeats', '3'))
const GZIP_SIZES = option('gzip-sizes', '50,300').split(',').map(Number)
const WRITE_MODES = ['bare', 'agent']
const GZIP_MODES = ['gzip-sync', 'gzip-main', 'gzip-worker']
const MODES = option('modes', [...WRITE_MODES, ...GZIP_MODES].join(',')).split(',')
const GZIP_LABELS = /** @type {Record<string, string>} */ ({
  'gzip-sync': '`zlib.gzipSync`, main thread',
  'gzip-main': 'zlib streams from the main thread',
  'gzip-worker': 'agent (worker thread)'
})
const WARMUP_MS = 1000

/**
 * @typedef {object} Sample
 * @property {string} mode
 * @property {number} heapMb
 * @property {number} heapUsed
 * @property {number} loopMaxMs
 * @property {number} loopP99Ms
 * @property {number} clientMaxMs   slowest request overlapping the window (failed ones: until the error)
 * @property {number} clientErrors  requests in the window that failed (connection reset)
 * @property {number} [writeMs]
 * @property {number} [seriesMs]
 * @property {number} [gzipMs]
 * @property {number} [fileBytes]
 * @property {number} [gzipBytes]
 * @property {number} loadBefore    1-minute load average when the run started
 */

/** @type {import('node:child_process').ChildProcess | undefined} the server being measured */
let current

/**
 * One measurement in a fresh server process.
 * @param {string} mode
 * @param {number} heapMb
 * @param {string} dir
 * @returns {Promise<Sample>}
 */
async function runOnce (mode, heapMb, dir) {
  const loadBefore = loadavg()[0]
  const child = current = fork(SERVER, ['--mode', mode, '--heap-mb', String(heapMb), '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: ['--max-old-space-size=4096'] })
  let out = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk) => { out += chunk })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    const port = await new Promise((resolve, reject) => {
      const check = () => {
        const match = /^ready (\d+)$/m.exec(out)
        if (match) resolve(Number(match[1]))
      }
      child.stdout?.on('data', check)
      child.once('exit', (code) => reject(new Error(`server exited (${code}) before ready`)))
    })
    const load = startLoad(port)
    await sleep(WARMUP_MS)
    child.send('go')
    await exited
    const requests = await load.stop()
    const line = out.split('\n').find((l) => l.startsWith('{'))
    if (!line) throw new Error(`no result from ${mode} ${heapMb} MB`)
    const result = JSON.parse(line)
    // A write window counts the requests it held up; a gzip window starts when the write's
    // backlog is being answered, so only requests sent from then on count.
    const inWindow = mode.startsWith('gzip')
      ? (/** @type {{start: number, end: number}} */ r) => r.start >= result.windowStart && r.start <= result.windowEnd
      : (/** @type {{start: number, end: number}} */ r) => r.end >= result.windowStart && r.start <= result.windowEnd
    const seen = requests.filter(inWindow)
    const clientMaxMs = Math.max(0, ...seen.map((r) => r.end - r.start))
    return { ...result, heapMb, clientMaxMs, clientErrors: seen.filter((r) => r.error).length, loadBefore }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

/** @param {number | undefined} ms */
const formatMs = (ms) => ms === undefined ? '—' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`
/** @param {number | undefined} bytes */
const formatMb = (bytes) => bytes === undefined ? '—' : `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`

/**
 * @param {Sample[]} samples
 * @param {{date: string, machine: string}} context
 * @returns {string}
 */
function render (samples, { date, machine }) {
  /** @param {string} mode @param {number} heapMb */
  const cell = (mode, heapMb) => samples.filter((s) => s.mode === mode && s.heapMb === heapMb)
  /** @param {Sample[]} rows @param {keyof Sample} key */
  const med = (rows, key) => rows.length && rows.every((r) => typeof r[key] === 'number') ? median(rows.map((r) => /** @type {number} */ (r[key]))) : undefined
  /** @param {Sample[]} rows @param {keyof Sample} key */
  const all = (rows, key) => rows.map((r) => formatMs(/** @type {number} */ (r[key]))).join(', ')
  const loads = samples.map((s) => s.loadBefore)
  const lines = [
    '## Agent: the pause a capture causes in a serving process',
    '',
    `Measured ${date} on ${machine} by \`npm run bench:agent\` (bench/agent-pause.js). ` +
      '**The machine was shared**: other processes ran on its 2 cores at the same time (1-minute load ' +
      `average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} at the start of the runs), so every cell is the median of ${REPEATS} ` +
      'runs, each in a fresh process, and the single runs are listed.',
    '',
    'A server process holds a heap of session records (nested objects and 4 kB strings) and answers',
    'HTTP from 4 keep-alive connections kept busy by the bench. *Loop max* is the longest event-loop',
    'delay inside the server over the window (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution);',
    '*client max* the slowest request the load client saw in it, *errors* the requests in it that failed',
    '(after a long pause the server\'s keep-alive timers fire before it reads the queued requests, so it',
    'closes those connections and their clients get ECONNRESET).',
    '',
    '### The write: agent series against a bare `v8.writeHeapSnapshot()`',
    '',
    'Window: from the trigger until the snapshot is on disk (for the agent: until `captureSeries()`',
    'resolved, series file and sidecar written). *Write* is the synchronous call (agent: the sidecar\'s',
    '`durationMs`); *loop max − write* (median of the runs\' differences) is any block beyond that call.',
    'The write time itself swings with the other work on the machine (the runs of one cell differ by up',
    'to 4×), so compare the agent with bare within a run, by that column, more than across cells.',
    '',
    '| heapUsed | file | mode | write | loop max | loop max − write | client max | errors | runs (loop max) |',
    '| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |'
  ]
  for (const heapMb of SIZES) {
    for (const mode of WRITE_MODES) {
      const rows = cell(mode, heapMb)
      if (rows.length === 0) continue
      lines.push(`| ${formatMb(med(rows, 'heapUsed'))} | ${formatMb(med(rows, 'fileBytes'))} | ${mode === 'bare' ? 'bare `writeHeapSnapshot`' : 'agent series of 1'} | ` +
        `${formatMs(med(rows, 'writeMs'))} | ${formatMs(med(rows, 'loopMaxMs'))} | ${formatMs(median(rows.map((r) => r.loopMaxMs - (r.writeMs ?? 0))))} | ` +
        `${formatMs(med(rows, 'clientMaxMs'))} | ${med(rows, 'clientErrors')} | ${all(rows, 'loopMaxMs')} |`)
    }
  }
  for (const heapMb of SIZES) {
    const bare = med(cell('bare', heapMb), 'loopMaxMs')
    const agent = med(cell('agent', heapMb), 'loopMaxMs')
    if (bare === undefined || agent === undefined) continue
    const extra = median(cell('agent', heapMb).map((r) => r.loopMaxMs - (r.writeMs ?? 0)))
    lines.push('', `At ${heapMb} MB the agent's longest block (median) is ${formatMs(agent)} against ${formatMs(bare)} bare, ` +
      `and exceeds its own write call by ${formatMs(extra)}: the safety checks and file work run ` +
      'asynchronously around the one synchronous call, which is the pause.')
  }
  lines.push('',
    '### gzip: zlib streams on the main thread against the agent\'s worker',
    '',
    'Window: from the end of the write (when the agent starts compressing) until the `.gz` file is',
    'complete. All modes compress the same file at zlib\'s default level. zlib streams already run',
    'deflate on the libuv threadpool, so from the main thread they leave it only buffer handling and the',
    'allocations that, right after a snapshot, set off V8\'s back-to-back full GCs (docs/agent.md measured',
    'that on a heap of 1e6 small objects); `gzipSync` holds the main thread for the whole job.',
    '',
    '| heapUsed | file → gzip | mode | gzip time | loop max | client max | errors | loop p99 | runs (loop max) |',
    '| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |')
  for (const heapMb of GZIP_SIZES) {
    for (const mode of GZIP_MODES) {
      const rows = cell(mode, heapMb)
      if (rows.length === 0) continue
      const sizes = samples.find((s) => s.heapMb === heapMb && s.fileBytes)
      lines.push(`| ${formatMb(med(rows, 'heapUsed'))} | ${formatMb(sizes?.fileBytes)} → ${formatMb(med(rows, 'gzipBytes'))} | ${GZIP_LABELS[mode]} | ` +
        `${formatMs(med(rows, 'gzipMs'))} | ${formatMs(med(rows, 'loopMaxMs'))} | ${formatMs(med(rows, 'clientMaxMs'))} | ${med(rows, 'clientErrors')} | ${formatMs(med(rows, 'loopP99Ms'))} | ${all(rows, 'loopMaxMs')} |`)
    }
  }
  for (const heapMb of GZIP_SIZES) {
    const sync = med(cell('gzip-sync', heapMb), 'loopMaxMs')
    const main = med(cell('gzip-main', heapMb), 'loopMaxMs')
    const worker = med(cell('gzip-worker', heapMb), 'loopMaxMs')
    if (main === undefined || worker === undefined) continue
    lines.push('', `At ${heapMb} MB the longest event-loop block while compressing is ${formatMs(worker)} with the worker, ` +
      `${formatMs(main)} with zlib streams from the main thread${sync === undefined ? '' : ` and ${formatMs(sync)} with \`gzipSync\``} ` +
      `(p99 ${formatMs(med(cell('gzip-worker', heapMb), 'loopP99Ms'))}, ${formatMs(med(cell('gzip-main', heapMb), 'loopP99Ms'))}` +
      `${sync === undefined ? '' : `, ${formatMs(med(cell('gzip-sync', heapMb), 'loopP99Ms'))}`}).`)
  }
  return lines.join('\n') + '\n'
}

if (process.argv.includes('--render')) {
  // Renders the doc section again from the last results, without measuring.
  const { date, machine, samples } = JSON.parse(readFileSync(join(OUT, 'agent-pause.json'), 'utf8'))
  writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), SECTION, render(samples, { date, machine })))
  process.exit(0)
}

const dir = mkdtempSync(join(tmpdir(), 'leakdiff-agent-bench-'))
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    current?.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
    process.exit(130)
  })
}
try {
  /** @type {Sample[]} */
  const samples = []
  /** @type {[string, number][]} */
  const plan = []
  for (const heapMb of SIZES) for (const mode of WRITE_MODES) if (MODES.includes(mode)) plan.push([mode, heapMb])
  for (const heapMb of GZIP_SIZES) for (const mode of GZIP_MODES) if (MODES.includes(mode)) plan.push([mode, heapMb])
  // Repeats interleave the modes, so a burst of other work on the machine hits all of them alike.
  for (let repeat = 1; repeat <= REPEATS; repeat++) {
    for (const [mode, heapMb] of plan) {
      const sample = await runOnce(mode, heapMb, dir)
      samples.push(sample)
      process.stderr.write(`${repeat}/${REPEATS} ${mode} ${heapMb} MB: loop max ${formatMs(sample.loopMaxMs)}, client max ${formatMs(sample.clientMaxMs)} (${sample.clientErrors} errors)` +
        `${sample.writeMs ? `, write ${formatMs(sample.writeMs)}` : ''}${sample.gzipMs ? `, gzip ${formatMs(sample.gzipMs)}` : ''} (load ${sample.loadBefore.toFixed(1)})\n`)
    }
  }
  const machine = machineName()
  let date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
  mkdirSync(OUT, { recursive: true })
  // A run of some modes or sizes replaces those cells and keeps the others.
  const resultsFile = join(OUT, 'agent-pause.json')
  if (existsSync(resultsFile)) {
    const previous = JSON.parse(readFileSync(resultsFile, 'utf8'))
    const measured = new Set(samples.map((sample) => `${sample.mode} ${sample.heapMb}`))
    const kept = previous.samples.filter((/** @type {Sample} */ sample) => !measured.has(`${sample.mode} ${sample.heapMb}`))
    if (kept.length > 0 && !previous.date.startsWith(date.slice(0, 10))) date = `${previous.date} and ${date}`
    else if (kept.length > 0) date = `${previous.date.split(' to ')[0]} to ${date.slice(11)}`
    samples.unshift(...kept)
  }
  writeFileSync(resultsFile, JSON.stringify({ date, machine, samples }, null, 2) + '\n')
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n'
  writeFileSync(DOC, replaceSection(doc, SECTION, render(samples, { date, machine })))
  process.stderr.write(`wrote ${DOC}\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
