// The engine benchmark: `npm run bench` (after `npm run bench:setup` for memlab).
// For each generated snapshot, runs each contender `--repeat` times (default once), one process at
// a time, the contenders taking turns, each in its own child process, and records wall time,
// user + system CPU time and peak RSS. Results are merged into bench/out/results.json (a later run
// of some sizes or contenders replaces only those rows; each row keeps the time it was measured)
// and docs/benchmarks.md is rendered from them.
//
//   node bench/run.js [--sizes 20mb,200mb] [--contenders floor,leakdiff] [--repeat 2] [--render]
//
// --render only rewrites docs/benchmarks.md from results.json.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { OUT_DIR, SIZES, formatMB, generateSnapshots } from './generate.js'
import { extractNotes, renderBenchmarks } from './render-benchmarks.js'
import { extractSections } from './doc-sections.js'

const CONTENDER_SCRIPT = fileURLToPath(new URL('contender.js', import.meta.url))
const RESULTS = join(OUT_DIR, 'results.json')
const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
const MEMLAB = fileURLToPath(new URL('node_modules/@memlab/heap-analysis/package.json', import.meta.url))
const TIME = '/usr/bin/time'
export const CONTENDERS = ['floor', 'leakdiff', 'memlab']

// Every contender gets the same, raised V8 heap limit, so that a run fails on the machine's memory,
// not on V8's default limit (about 4 GB on this machine). memlab keeps much of its graph in the V8
// heap; on the generated files it still passed with the default limit (7.7 GB peak RSS at 2.1 GB),
// but bigger or differently shaped heaps need the room.
export const HEAP_LIMIT_MB = 16384
// Generous: about three times what memlab needs per GB here, plus start-up.
const timeoutSeconds = (/** @type {number} */ bytes) => Math.round(120 + 300 * bytes / 1e9)

/**
 * One cell of the results: a contender on a file, over one or more repeated runs.
 * @typedef {object} Run
 * @property {string} size          label of the file size, e.g. "200 MB"
 * @property {string} file
 * @property {number} bytes
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {string} contender
 * @property {string} status        "ok", or why a run failed: "out of memory", "timeout after N s", ...
 * @property {number} wallSeconds   median over the runs
 * @property {number} cpuSeconds    user + system, median over the runs
 * @property {number} userSeconds   of the run with the median CPU time
 * @property {number} systemSeconds of the run with the median CPU time
 * @property {number} maxRssBytes   the highest peak RSS of the runs
 * @property {number} otherCores    average cores busy with other work (or stolen by the host) during
 *   the run, from /proc/stat, the highest of the runs: a run that shared the 2 cores is slower than
 *   the code is
 * @property {Record<string, number>} facts  what the contender reported (counts, phase times), in
 *   the run with the median CPU time
 * @property {string} date          ISO time the first run started
 * @property {Measurement[]} [runs] every run (missing in results from before repeats existed)
 */

/**
 * One run of a contender on a file.
 * @typedef {object} Measurement
 * @property {string} status
 * @property {number} wallSeconds
 * @property {number} cpuSeconds
 * @property {number} userSeconds
 * @property {number} systemSeconds
 * @property {number} maxRssBytes
 * @property {number} otherCores
 * @property {Record<string, number>} facts
 * @property {string} date          ISO time the run started
 */

/**
 * @typedef {object} Machine
 * @property {string} cpu
 * @property {number} cores
 * @property {number} memoryBytes
 * @property {string} node
 * @property {boolean} timeAvailable  peak RSS and CPU came from /usr/bin/time
 */

const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    contenders: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    render: { type: 'boolean', default: false }
  }
})

if (!values.render) await runBenchmarks()
// The results live in bench/out, which git does not keep: on a clone without them, rendering would
// empty the tables of docs/benchmarks.md.
if (values.render && !existsSync(RESULTS)) {
  console.error(`bench: nothing to render: ${RESULTS} is missing (run the benchmarks first); docs/benchmarks.md left as it is`)
  process.exit(2)
}
const results = readResults()
const previous = existsSync(DOC) ? readFileSync(DOC, 'utf8') : undefined
const notes = extractNotes(previous)
// Sections other bench scripts generate (bench:agent) are carried over as they are.
const sections = extractSections(previous)
writeFileSync(DOC, renderBenchmarks(results, { heapLimitMb: HEAP_LIMIT_MB, notes }) + (sections ? `\n${sections}` : ''))
console.log(`wrote ${DOC}`)

async function runBenchmarks () {
  const sizes = pickList(values.sizes, SIZES.map((size) => size.name.replace('server-', '')))
  const contenders = pickList(values.contenders, CONTENDERS)
  const repeat = Number(values.repeat)
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`Expected --repeat to be a positive integer, got ${values.repeat}`)
  const files = (await generateSnapshots({ log: (line) => console.log(line) }))
    .filter((file) => sizes.includes(file.name.replace('server-', '')))
  const machine = describeMachine()
  const results = readResults()
  for (const file of files) {
    const runnable = contenders.filter((contender) => {
      if (contender !== 'memlab' || existsSync(MEMLAB)) return true
      console.log(`${file.label} memlab: skipped, not installed (run \`npm run bench:setup\`)`)
      return false
    })
    /** @type {Map<string, Measurement[]>} */
    const measured = new Map(runnable.map((contender) => [contender, /** @type {Measurement[]} */ ([])]))
    // Contenders take turns, so that a change in the machine's load hits them alike.
    for (let round = 1; round <= repeat; round++) {
      for (const contender of runnable) {
        const date = new Date().toISOString()
        const measurement = { ...await measure(contender, file.path, timeoutSeconds(file.bytes)), date }
        measured.get(contender)?.push(measurement)
        console.log(`${file.label} ${contender} (run ${round} of ${repeat}): ${measurement.status}, wall ${measurement.wallSeconds.toFixed(1)} s, ` +
          `cpu ${measurement.cpuSeconds.toFixed(1)} s, peak RSS ${formatMB(measurement.maxRssBytes)}, other work ${measurement.otherCores.toFixed(2)} cores`)
      }
    }
    for (const [contender, runs] of measured) {
      const run = summarizeRuns(runs, { size: file.label, file: file.name, bytes: file.bytes, nodeCount: file.nodeCount, edgeCount: file.edgeCount, contender })
      results.runs = results.runs.filter((old) => !(old.file === run.file && old.contender === run.contender))
      results.runs.push(run)
      results.machine = machine
      writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n')
    }
  }
}

/**
 * One results cell from repeated runs: median CPU and wall time, the highest peak RSS and other
 * work, the first failure if any run failed.
 * @param {Measurement[]} runs
 * @param {Pick<Run, 'size' | 'file' | 'bytes' | 'nodeCount' | 'edgeCount' | 'contender'>} cell
 * @returns {Run}
 */
function summarizeRuns (runs, cell) {
  const ok = runs.filter((run) => run.status === 'ok')
  const counted = ok.length > 0 ? ok : runs
  const byCpu = [...counted].sort((a, b) => a.cpuSeconds - b.cpuSeconds)
  const middle = byCpu[(byCpu.length - 1) >> 1]
  const walls = counted.map((run) => run.wallSeconds).sort((a, b) => a - b)
  return {
    ...cell,
    status: runs.find((run) => run.status !== 'ok')?.status ?? 'ok',
    wallSeconds: walls[(walls.length - 1) >> 1],
    cpuSeconds: middle.cpuSeconds,
    userSeconds: middle.userSeconds,
    systemSeconds: middle.systemSeconds,
    maxRssBytes: Math.max(...counted.map((run) => run.maxRssBytes)),
    otherCores: Math.max(...runs.map((run) => run.otherCores)),
    facts: middle.facts,
    date: runs[0].date,
    runs
  }
}

/**
 * Runs one contender on one file in a child process of its own, under /usr/bin/time when present:
 * it reports the peak RSS and CPU of a child that died of OOM too, which the child cannot.
 * @param {string} contender
 * @param {string} file
 * @param {number} timeout seconds
 * @returns {Promise<Omit<Measurement, 'date'>>}
 */
async function measure (contender, file, timeout) {
  const resultFile = join(OUT_DIR, `result-${contender}.json`)
  const timeFile = join(OUT_DIR, `time-${contender}.txt`)
  rmSync(resultFile, { force: true })
  rmSync(timeFile, { force: true })
  const nodeArgs = [`--max-old-space-size=${HEAP_LIMIT_MB}`, CONTENDER_SCRIPT, contender, file, resultFile]
  const [command, args] = existsSync(TIME)
    ? [TIME, ['-f', '%e %U %S %M', '-o', timeFile, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs]

  const busyBefore = busySeconds()
  const started = performance.now()
  // detached: the child leads a process group of its own, so a timeout kills node under `time` too.
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (text) => { stderr = (stderr + text).slice(-4000) })
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
  }, timeout * 1000)
  const { code, signal } = await new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }))
  })
  clearTimeout(timer)
  const wallSeconds = (performance.now() - started) / 1000
  const busy = busySeconds() - busyBefore

  const result = existsSync(resultFile) ? JSON.parse(readFileSync(resultFile, 'utf8')) : undefined
  const timed = existsSync(timeFile) ? readTime(timeFile) : undefined
  let status = 'ok'
  if (timedOut) status = `timeout after ${timeout} s`
  else if (/out of memory|Allocation failed|terminated by signal 9/i.test(stderr + (timed?.note ?? ''))) status = 'out of memory'
  else if (code !== 0 || result === undefined) status = `failed (exit ${code ?? signal}): ${lastLine(stderr)}`
  const userSeconds = timed?.userSeconds ?? result?.userSeconds ?? NaN
  const systemSeconds = timed?.systemSeconds ?? result?.systemSeconds ?? NaN
  return {
    status,
    wallSeconds: timed?.wallSeconds ?? wallSeconds,
    cpuSeconds: userSeconds + systemSeconds,
    userSeconds,
    systemSeconds,
    maxRssBytes: timed?.maxRssBytes ?? result?.maxRssBytes ?? NaN,
    otherCores: Math.max(0, (busy - userSeconds - systemSeconds) / wallSeconds),
    facts: result?.facts ?? {}
  }
}

/**
 * CPU seconds all cores spent busy since boot, steal included (/proc/stat, in USER_HZ = 1/100 s);
 * NaN where there is no /proc.
 */
function busySeconds () {
  if (!existsSync('/proc/stat')) return NaN
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  return (user + nice + system + irq + softirq + steal) / 100
}

/**
 * Reads GNU time's `-f '%e %U %S %M'` line; before it, time writes a note such as
 * "Command terminated by signal 9" when the child was killed. Undefined when time itself was
 * killed (on a timeout) before it wrote the line.
 * @param {string} path
 */
function readTime (path) {
  const lines = readFileSync(path, 'utf8').trim().split('\n')
  const fields = lines[lines.length - 1].split(' ')
  const [wall, user, system, maxRssKiB] = fields.map(Number)
  if (fields.length !== 4 || ![wall, user, system, maxRssKiB].every(Number.isFinite)) return undefined
  return {
    wallSeconds: wall,
    userSeconds: user,
    systemSeconds: system,
    maxRssBytes: maxRssKiB * 1024,
    note: lines.slice(0, -1).join(' ')
  }
}

/** @returns {Machine} */
function describeMachine () {
  const cpuInfo = readFileSync('/proc/cpuinfo', 'utf8')
  return {
    cpu: /^model name\s*:\s*(.*)$/m.exec(cpuInfo)?.[1] ?? cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryBytes: totalmem(),
    node: process.version,
    timeAvailable: existsSync(TIME)
  }
}

/** @returns {{machine?: Machine, runs: Run[]}} */
function readResults () {
  if (!existsSync(RESULTS)) return { runs: [] }
  return JSON.parse(readFileSync(RESULTS, 'utf8'))
}

/**
 * @param {string | undefined} option comma-separated names, or undefined for all
 * @param {string[]} known
 */
function pickList (option, known) {
  if (option === undefined) return known
  const names = option.split(',').map((name) => name.trim().toLowerCase())
  const unknown = names.filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new Error(`Expected names from ${known.join(', ')}, got ${unknown.join(', ')}`)
  return names
}

/** @param {string} text */
function lastLine (text) {
  return text.trim().split('\n').pop() ?? ''
}
