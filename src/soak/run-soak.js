// `leakdiff soak`: a whole service under load, snapshotted by its own agent, diffed and gated.
import { spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve as resolvePath } from 'node:path'
import { requestSeries } from '../agent/request-series.js'
import { InvalidArgumentError, SoakError, describeValue } from '../errors.js'
import { diffSnapshots } from '../pipeline/diff-snapshots.js'
import { DEFAULT_GATES, evaluateGates } from '../report/gates.js'
import { checkSourceOptions } from '../sources/source-roots.js'
import { answers, loopbackUrl, sendRequests } from './http-load.js'
import { startService } from './service.js'
/** @import {DiffReport} from '../report/report-model.js' */
/** @import {Gates, GateResult} from '../report/gates.js' */
/** @import {LoadStats} from './http-load.js' */
/** @import {Service} from './service.js' */

const REGISTER = new URL('../register.js', import.meta.url).href
const WATCH_PARENT = new URL('./watch-parent.js', import.meta.url).href
const SIGNAL = 'SIGUSR2'
/** How long the agent may take to start a series, at least: it answers a signal at once on an idle machine. */
const SERIES_START_MS = 15_000

/**
 * @typedef {object} SoakOptions
 * @property {string[]} command       the service's argv, e.g. ['node', 'server.js']
 * @property {string} [requests]      built-in load: GET this http URL on this machine
 * @property {number} [count]         requests per round (default 1000)
 * @property {number} [concurrency]   requests in flight (default 8)
 * @property {number} [warmup]        requests before the baseline (default a tenth of `count`)
 * @property {string} [load]          the load as a shell command, run once per round (instead of `requests`)
 * @property {string} [ready]         a URL that answers once the service is ready (default `requests`)
 * @property {number} [readyTimeoutMs]  default 30000; also how long the agent may take to start each
 *   snapshot's series (at least 15000)
 * @property {2 | 3} [series]         snapshots: 3 (baseline, after round 1, after round 2) or 2
 * @property {number} [intervalMs]    pause after each load round before its snapshot, so that
 *   in-flight work and closed connections finish (default 500)
 * @property {Gates} [gates]          default DEFAULT_GATES: any finding, any leaking owner
 * @property {number} [top]           growth and class rows in the report (default 10)
 * @property {string} [cwd]           the service's working directory, and where source paths are shown from
 * @property {NodeJS.ProcessEnv} [env]  the service's environment (default process.env)
 * @property {string} [keepSnapshots] a directory for the snapshots, kept afterwards
 * @property {string} [sourceMaps]    a directory of source maps kept apart from the code (src/sources/)
 * @property {string[]} [sourceRoots] `FROM=TO`: where the service's source paths are on this machine
 * @property {AbortSignal} [signal]   stops the soak: the service is stopped and the files removed
 * @property {(message: string) => void} [onProgress]
 * @property {(text: string, stream: 'stdout' | 'stderr') => void} [onServiceOutput]
 */

/**
 * @typedef {object} SoakResult
 * @property {DiffReport} report
 * @property {GateResult} gates
 * @property {LoadStats[]} rounds  the built-in load's numbers per round (empty with `load`)
 * @property {number} pid          the process that was snapshotted
 * @property {SoakThread[]} threads  the service's worker threads with an agent, each diffed apart
 *   (their heaps are not in the main thread's snapshots) over the snapshots it is in, from the first
 *   one to the last in a row (a worker started after the baseline has fewer); one in fewer than two
 *   is named in the report's warnings
 */

/**
 * @typedef {object} SoakThread
 * @property {number} threadId
 * @property {string | null} file
 * @property {string | null} name
 * @property {DiffReport} report
 * @property {GateResult} gates
 */

/**
 * Starts the service with the capture agent (NODE_OPTIONS `--import` of leakdiff/register, a
 * private snapshot directory), waits until it answers, takes a baseline snapshot, drives a round of
 * load, snapshots, a second round, snapshots, stops the service (SIGTERM, then SIGKILL after 5 s),
 * diffs and applies the gates. The service and the snapshot directory are cleaned up on every path.
 * Rejects with a SoakError when the service does not start, answer, or stay up, or the load fails;
 * with InvalidArgumentError for bad options; a CaptureError when a snapshot fails.
 * @param {SoakOptions} options
 * @returns {Promise<SoakResult>}
 */
export async function runSoak (options) {
  const settings = checkOptions(options)
  const { command, cwd, signal, onProgress = () => {} } = settings
  signal?.throwIfAborted()
  const dir = settings.keepSnapshots ? resolvePath(cwd, settings.keepSnapshots) : await mkdtemp(join(tmpdir(), 'leakdiff-soak-'))
  if (settings.keepSnapshots) await mkdir(dir, { recursive: true, mode: 0o700 })
  else await chmod(dir, 0o700)
  /** @type {Service | undefined} */
  let service
  /** @type {Set<import('node:child_process').ChildProcess>} */
  const loads = new Set()
  try {
    const env = {
      ...settings.env,
      // watch-parent ends the service if this process dies without stopping it (SIGKILL).
      NODE_OPTIONS: `${settings.env.NODE_OPTIONS ?? ''} --import=${REGISTER} --import=${WATCH_PARENT}`.trim(),
      LEAKDIFF_SOAK_PARENT: String(process.pid),
      LEAKDIFF_DIR: dir,
      LEAKDIFF_SIGNAL: SIGNAL,
      LEAKDIFF_SERIES: '1',
      LEAKDIFF_KEEP: '0',
      // A soak runs in CI, where whole script sources in the snapshots let findings point at the
      // line that adds to a collection; the user's own setting wins.
      LEAKDIFF_STRING_LIMIT: settings.env.LEAKDIFF_STRING_LIMIT ?? 'whole',
      // Each snapshot is a series of its own: one sampling run across them lets the diff compare
      // their allocation samples. The user's own setting wins (0 turns sampling off).
      LEAKDIFF_ALLOC_SAMPLING: settings.env.LEAKDIFF_ALLOC_SAMPLING ?? 'always',
      // A soak's rounds are short: sampled four times as often as in production, a few hundred
      // requests that keep a few hundred bytes each still leave several samples per round.
      LEAKDIFF_ALLOC_INTERVAL: settings.env.LEAKDIFF_ALLOC_INTERVAL ?? '16KiB'
    }
    onProgress(`starting ${command.join(' ')}`)
    service = await startService(command, { cwd, env, onOutput: settings.onServiceOutput })
    const guard = guardWith(service, signal)
    const pid = await guard(waitUntilReady(service, settings), 'before it was ready')
    onProgress(`service ready (agent in pid ${pid})`)

    /** @type {string[]} */
    const snapshots = []
    // A machine slow enough to need a longer --ready-timeout is slow to start a series as well.
    const seriesStartMs = Math.max(SERIES_START_MS, settings.readyTimeoutMs)
    /** @type {Map<number, {file: string | null, name: string | null, snapshots: string[], first: number}>} each worker thread's, by thread id */
    const threadSnapshots = new Map()
    const snapshot = async (/** @type {string} */ label) => {
      const series = await guard(requestSeries(pid, { dir, signal: SIGNAL, timeoutMs: seriesStartMs, pollMs: 100, abortSignal: signal }), `while writing the ${label} snapshot`)
      snapshots.push(series.snapshots[0])
      for (const thread of series.threads) {
        // A worker may start (or its agent get ready) after the baseline: its snapshots run from the
        // first one it is in, and a gap breaks the run.
        const entry = threadSnapshots.get(thread.threadId) ?? { file: thread.file, name: thread.name, snapshots: [], first: snapshots.length - 1 }
        if (entry.first + entry.snapshots.length === snapshots.length - 1 && thread.snapshots.length > 0) entry.snapshots.push(thread.snapshots[0])
        threadSnapshots.set(thread.threadId, entry)
      }
      onProgress(`${label} snapshot written (${snapshots.length} of ${settings.series})`)
    }
    /** @type {LoadStats[]} */
    const rounds = []
    const round = async (/** @type {number} */ k, /** @type {number} */ count) => {
      const name = k === 0 ? 'the warm-up' : `round ${k} of the load`
      if (settings.requests) {
        const stats = await guard(sendRequests(settings.requests, { count, concurrency: settings.concurrency, abortSignal: signal }), `during ${name}`)
        if (stats.sent > 0 && stats.failed === stats.sent) {
          throw new SoakError(`Expected the service to answer ${settings.requests.href}, but all ${stats.sent} requests of ${name} failed: ${stats.firstError}`)
        }
        if (k > 0) rounds.push(stats)
        onProgress(`${name}: ${stats.sent} requests, ${stats.failed} failed`)
      } else if (settings.load && k > 0) {
        await guard(runLoadCommand(settings.load, { cwd, env: { ...settings.env, LEAKDIFF_SOAK_ROUND: String(k) }, loads }), `during ${name}`)
        onProgress(`${name}: \`${settings.load}\` done`)
      }
      await guard(sleep(settings.intervalMs), `after ${name}`)
    }

    if (settings.requests && settings.warmup > 0) await round(0, settings.warmup)
    await snapshot('baseline')
    for (let k = 1; k < settings.series; k++) {
      await round(k, settings.count)
      await snapshot(k === settings.series - 1 ? 'final' : 'target')
    }
    await service.stop()
    onProgress('service stopped; diffing')
    const report = await diffSnapshots(snapshots, { top: settings.top, cwd, ...settings.sources })
    /** @type {SoakThread[]} */
    const threads = []
    for (const [threadId, entry] of [...threadSnapshots].sort(([a], [b]) => a - b)) {
      // Diffed only up to the last snapshot: a worker gone before it holds nothing now.
      if (entry.snapshots.length < 2 || entry.first + entry.snapshots.length !== snapshots.length) {
        report.warnings.push(`worker thread ${threadId}${entry.file ? ` (${entry.file})` : ''} is not in two or more snapshots in a row up to the last (it started late, or missed one): its heap is not diffed`)
        continue
      }
      onProgress(`diffing thread ${threadId}`)
      const threadReport = await diffSnapshots(entry.snapshots, { top: settings.top, cwd, ...settings.sources })
      threads.push({ threadId, file: entry.file, name: entry.name, report: threadReport, gates: evaluateGates(threadReport, settings.gates) })
    }
    return { report, gates: evaluateGates(report, settings.gates), rounds, pid, threads }
  } finally {
    for (const load of loads) signalGroup(load, 'SIGKILL')
    await service?.stop()
    if (!settings.keepSnapshots) await rm(dir, { recursive: true, force: true })
  }
}

/**
 * @param {SoakOptions} options
 */
function checkOptions ({
  command, requests, count = 1000, concurrency = 8, warmup = Math.ceil(count / 10), load, ready, readyTimeoutMs = 30_000,
  series = 3, intervalMs = 500, gates = DEFAULT_GATES, top = 10, cwd = process.cwd(), env = process.env, keepSnapshots,
  signal, onProgress, onServiceOutput, sourceMaps, sourceRoots = []
}) {
  if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === 'string')) {
    throw new InvalidArgumentError(`Expected \`command\` to be the service's command line as an array, like ['node', 'server.js'], got ${describeValue(command)}`)
  }
  if (requests !== undefined && load !== undefined) throw new InvalidArgumentError('Expected `requests` or `load`, not both')
  for (const [name, value, min] of /** @type {const} */ ([['count', count, 1], ['concurrency', concurrency, 1], ['warmup', warmup, 0], ['top', top, 0]])) {
    if (!Number.isSafeInteger(value) || value < min) throw new InvalidArgumentError(`Expected \`${name}\` to be an integer >= ${min}, got ${describeValue(value)}`)
  }
  for (const [name, value] of /** @type {const} */ ([['readyTimeoutMs', readyTimeoutMs], ['intervalMs', intervalMs]])) {
    if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value))) throw new InvalidArgumentError(`Expected \`${name}\` to be a number of milliseconds >= 0, got ${describeValue(value)}`)
  }
  if (series !== 2 && series !== 3) throw new InvalidArgumentError(`Expected \`series\` to be 2 or 3 snapshots, got ${describeValue(series)}`)
  if (load !== undefined && (typeof load !== 'string' || load.trim() === '')) throw new InvalidArgumentError(`Expected \`load\` to be a shell command, got ${describeValue(load)}`)
  const requestsUrl = requests === undefined ? undefined : loopbackUrl(requests, 'requests')
  const readyUrl = ready === undefined ? requestsUrl : loopbackUrl(ready, 'ready')
  const urls = { requests: requestsUrl, ready: readyUrl }
  const sources = checkSourceOptions({ sourceMaps, sourceRoots })
  return { command, count, concurrency, warmup, load, readyTimeoutMs, series, intervalMs, gates, top, cwd, env, keepSnapshots, signal, onProgress, onServiceOutput, sources, ...urls }
}

/**
 * Resolves with the pid to snapshot once the service answers `ready` (or, without a URL, once its
 * agent is ready). With several processes (npm, a shell, cluster workers), the last one whose agent
 * said `ready` before the service answered is the one serving.
 * @param {Service} service
 * @param {{ready?: URL, readyTimeoutMs: number, signal?: AbortSignal}} settings
 * @returns {Promise<number>}
 */
async function waitUntilReady (service, { ready, readyTimeoutMs, signal }) {
  const deadline = Date.now() + readyTimeoutMs
  const late = () => new SoakError(`Expected the service to be ready within ${readyTimeoutMs / 1000} s, but ${ready && service.agentPids.length > 0 ? `${ready.href} did not answer` : 'its leakdiff agent did not start (is the command a node process, or one that starts node with NODE_OPTIONS?)'}`)
  if (ready) {
    while (!(await answers(ready, 1000))) {
      signal?.throwIfAborted()
      if (!service.running()) return 0
      if (Date.now() >= deadline) throw late()
      await sleep(100)
    }
  }
  if (service.agentPids.length === 0) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(late()), Math.max(0, deadline - Date.now()))
      service.onAgentReady(() => {
        clearTimeout(timer)
        resolve(undefined)
      })
    })
  }
  return /** @type {number} */ (service.agentPids.at(-1))
}

/**
 * Races a step of the soak against the service's exit and the abort signal.
 * @param {Service} service
 * @param {AbortSignal | undefined} signal
 */
function guardWith (service, signal) {
  /**
   * @template T
   * @param {Promise<T>} promise
   * @param {string} when
   * @returns {Promise<T>}
   */
  return async (promise, when) => {
    /** @type {Array<Promise<never>>} */
    const failures = [service.exited.then(({ code, signal: killedBy }) => {
      const last = service.lastLine()
      throw new SoakError(`The service exited ${killedBy ? `on ${killedBy}` : `with code ${code}`} ${when}${last ? `: ${last}` : ''}`)
    })]
    /** @type {(() => void) | undefined} */
    let abort
    if (signal) {
      failures.push(new Promise((resolve, reject) => {
        abort = () => reject(new SoakError(`Soak interrupted ${when}; the service was stopped`, { cause: signal.reason }))
        if (signal.aborted) abort()
        else signal.addEventListener('abort', abort, { once: true })
      }))
    }
    // The losers of the race settle later, or never; their rejections are expected.
    for (const failure of failures) failure.catch(() => {})
    try {
      return await Promise.race([promise, ...failures])
    } finally {
      if (abort) signal?.removeEventListener('abort', abort)
    }
  }
}

/**
 * Runs the user's load command through the shell, in its own process group so that an interrupted
 * soak can end all of it. Its last line of output goes into the error when it fails.
 * @param {string} load
 * @param {{cwd: string, env: NodeJS.ProcessEnv, loads: Set<import('node:child_process').ChildProcess>}} options
 * @returns {Promise<void>}
 */
function runLoadCommand (load, { cwd, env, loads }) {
  return new Promise((resolve, reject) => {
    const child = spawn(load, { shell: true, cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    loads.add(child)
    let lastLine = ''
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8').on('data', (/** @type {string} */ text) => {
        const lines = text.split('\n').filter((line) => line.trim() !== '')
        if (lines.length > 0) lastLine = /** @type {string} */ (lines.at(-1))
      })
    }
    child.once('error', (error) => reject(new SoakError(`Expected to run the load \`${load}\`, but ${error.message}`, { cause: error })))
    child.once('close', (code, signal) => {
      loads.delete(child)
      if (code === 0) resolve()
      else reject(new SoakError(`The load \`${load}\` exited ${signal ? `on ${signal}` : `with code ${code}`}${lastLine ? `: ${lastLine}` : ''}`))
    })
  })
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {NodeJS.Signals} signal
 */
function signalGroup (child, signal) {
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {}
}

/** @param {number} ms */
function sleep (ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms) })
}
