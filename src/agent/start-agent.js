import { resolve, basename } from 'node:path'
import { hostname } from 'node:os'
import { CaptureError, InvalidArgumentError } from '../errors.js'
import { resolveConfig } from './config.js'
import { WriteCostModel } from './write-cost.js'
import { formatStamp, seriesFileNames } from './file-names.js'
import { ensureDirectory, writeFileAtomic } from './fs-safe.js'
import { captureSnapshot, checkSafety, describeError } from './capture-snapshot.js'
import { startSampler } from './alloc-sampler.js'
import { pruneSnapshots, removeStalePartials } from './retention.js'
import { findNodemonAncestor } from './parent-process.js'
import { writeMarker } from './agent-marker.js'
import { formatBytes, formatInterval, guardSink, writeEventToStderr } from './events.js'
import { HeapWatch, describeWatch } from './watch.js'

/** @import {AgentConfig} from './config.js' */
/** @import {EventSink} from './events.js' */

/**
 * @typedef {object} SeriesResult
 * @property {string} id            `<pid>-<start stamp>`
 * @property {string} seriesFile    the series file, status "complete"
 * @property {string[]} snapshots   snapshot paths in order
 * @property {string[]} sidecars    their .meta.json paths
 */

/**
 * @typedef {import('./config.js').AgentConfigInput & {onEvent?: EventSink}} AgentOptions
 */

/**
 * What started a series: a signal, a call to captureSeries(), or watch mode (watch.js). Written into
 * the series file and, as `series.trigger`, into every sidecar.
 * @typedef {{kind: 'signal', signal: string} | {kind: 'request'} | import('./watch.js').WatchTrigger} SeriesTrigger
 */

// One agent per process, even when two copies of the package are loaded (register + an import).
const ACTIVE = Symbol.for('leakdiff.agent.active')
const registry = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))

/**
 * A running agent. While idle it holds only a signal listener: no timer, no thread, no open file
 * (watch mode adds an unref'd timer and a FinalizationRegistry, watch.js).
 */
export class Agent {
  /** @type {Readonly<AgentConfig>} the settings in force, `dir` made absolute */
  config
  #emit
  #cost
  #owner = { pid: process.pid, inFlight: new Set() }
  /** @type {{id: string, written: number, count: number} | null} */
  #current = null
  /** @type {NodeJS.Timeout | null} */
  #timer = null
  /** @type {((stopped: boolean) => void) | null} */
  #wake = null
  #started = false
  #stopped = false
  /** @type {NodeJS.Signals | null} the signal listened to, after the nodemon check */
  #listening = null
  /** @type {HeapWatch | null} */
  #watch = null
  /** @type {(() => void) | null} removes the marker that lets `leakdiff capture` signal this process */
  #removeMarker = null
  /** @type {Promise<import('./alloc-sampler.js').AllocationSampler | null> | null} sampling from start to stop ('always') */
  #sampling = null
  #onSignal = () => {
    try {
      this.#runSeries({ trigger: { kind: 'signal', signal: String(this.#listening) } }, false).catch(() => {})
    } catch {}
  }

  /**
   * @param {AgentConfig} config
   * @param {EventSink} emit
   */
  constructor (config, emit) {
    this.config = Object.freeze(config)
    this.#emit = emit
    this.#cost = new WriteCostModel(config)
  }

  /** Whether a series is being taken now. */
  get busy () {
    return this.#current !== null
  }

  /**
   * Installs the signal listener and says so; startAgent() calls it, once.
   * @returns {this}
   */
  start () {
    if (this.#started) return this
    this.#started = true
    const { signal, count, intervalMs, dir } = this.config
    const plan = `${count} snapshot${count === 1 ? '' : 's'}${count > 1 ? ` ${formatInterval(intervalMs)} apart` : ''} to ${dir}`
    let listening = signal
    if (signal === 'SIGUSR2') {
      const nodemon = findNodemonAncestor()
      if (nodemon !== undefined) {
        listening = null
        this.#emit({
          type: 'config',
          message: `not listening on SIGUSR2: this process runs under nodemon (${nodemon}), which restarts it with SIGUSR2; set LEAKDIFF_SIGNAL to another signal (e.g. SIGHUP)`
        })
      }
    }
    if (listening) process.on(listening, this.#onSignal)
    this.#listening = listening
    if (listening) this.#markListening(listening)
    const { watch } = this.config
    const watching = watch === null ? '' : `; ${describeWatch(watch)}`
    if (this.config.allocSampling === 'always') this.#sampling = startSampler(this.config, this.#emit, `${process.pid}-${formatStamp(new Date())}`)
    this.#emit({
      type: 'ready',
      message: (listening
        ? `ready: kill -${listening.slice(3)} ${process.pid} writes ${plan}`
        : `ready (pid ${process.pid}, no signal): captureSeries() writes ${plan}`) + watching
    })
    if (watch !== null) this.#startWatch(watch)
    return this
  }

  /**
   * Leaves the marker `leakdiff capture` looks for before it sends a signal (agent-marker.js), and
   * removes it when the process exits. Without it capture refuses (unless --force), so a marker
   * that cannot be written is said once.
   * @param {NodeJS.Signals} signal
   */
  #markListening (signal) {
    try {
      const remove = writeMarker(this.config.dir, signal)
      this.#removeMarker = () => {
        process.removeListener('exit', remove)
        remove()
      }
      process.once('exit', remove)
    } catch (error) {
      this.#emit({ type: 'config', message: `leakdiff capture cannot tell that this process runs the agent (it needs --force): the marker was not written to ${this.config.dir}: ${describeError(error)}` })
    }
  }

  /**
   * Starts watch mode. Its series is a signal's series in all but its trigger, and never holds more
   * snapshots than `keep` lets stay in the directory.
   * @param {import('./config.js').WatchConfig} watch
   */
  #startWatch (watch) {
    const { keep, count } = this.config
    this.#watch = new HeapWatch(watch, {
      emit: this.#emit,
      busy: () => this.busy || this.#stopped,
      memoryLimitBytes: this.config.memoryLimitBytes,
      preflight: async () => {
        try {
          await ensureDirectory(this.config.dir)
          const safety = await checkSafety(this.config, this.#cost)
          return 'refusal' in safety ? safety.refusal : null
        } catch {
          // The series meets the same error and reports it.
          return null
        }
      },
      startSeries: (trigger) => this.#runSeries({ count: keep > 0 ? Math.min(count, keep) : count, trigger }, false)
    }).start()
  }

  /**
   * Takes a series now: one snapshot at once, then one per interval until `count`. Resolves when the
   * series file says "complete"; rejects with a CaptureError when a write is refused or fails, when
   * a series is already running, or when the agent is stopped mid-series. The timer between
   * snapshots keeps the process alive, since the caller waits for the result (a series started by
   * the signal does not).
   * @param {{count?: number, intervalMs?: number}} [overrides]
   * @returns {Promise<SeriesResult>}
   */
  captureSeries (overrides = {}) {
    return this.#runSeries({ ...overrides, trigger: { kind: 'request' } }, true)
  }

  /**
   * Removes the signal listener and cancels a pending snapshot. A write in progress finishes;
   * the series then ends as "stopped".
   */
  stop () {
    if (this.#stopped) return
    this.#stopped = true
    if (this.#listening) process.removeListener(this.#listening, this.#onSignal)
    this.#removeMarker?.()
    this.#watch?.stop()
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
    this.#wake?.(true)
    this.#sampling?.then((sampler) => sampler?.stop()).catch(() => {})
    if (registry[ACTIVE] === this) delete registry[ACTIVE]
    this.#emit({ type: 'stopped', message: 'stopped' })
  }

  /**
   * @param {{count?: number, intervalMs?: number, trigger: SeriesTrigger}} overrides
   * @param {boolean} keepAlive
   * @returns {Promise<SeriesResult>}
   */
  async #runSeries ({ count = this.config.count, intervalMs = this.config.intervalMs, trigger }, keepAlive) {
    const { dir, gzip, keep } = resolveConfig({ ...this.config, count, intervalMs })
    if (this.#stopped) throw new CaptureError('Expected a running agent, but it was stopped')
    if (this.#current) {
      const { id, written, count: total } = this.#current
      const message = `${this.#listening && !keepAlive ? this.#listening : 'request'} ignored: series ${id} is still running (${written} of ${total} written)`
      this.#emit({ type: 'ignored', message, seriesId: id })
      throw new CaptureError(`Expected no series in progress, but ${message}`)
    }
    const startedAt = new Date()
    // The interval runs from the start of one write to the start of the next.
    let firstWriteMs = 0
    let totalBytes = 0
    const plan = seriesFileNames({ dir, pid: process.pid, startedAt, count, gzip })
    const current = { id: plan.id, written: 0, count }
    this.#current = current
    /** @type {SeriesResult} */
    const result = { id: plan.id, seriesFile: plan.seriesFile, snapshots: [], sidecars: [] }
    const record = {
      schemaVersion: 1,
      kind: 'leakdiff-series',
      id: plan.id,
      pid: process.pid,
      hostname: hostname(),
      status: 'running',
      startedAt: startedAt.toISOString(),
      endedAt: /** @type {string | null} */ (null),
      count,
      intervalMs,
      gzip,
      trigger,
      planned: plan.snapshots.map((path) => basename(path)),
      snapshots: /** @type {string[]} */ ([]),
      error: /** @type {string | null} */ (null)
    }
    this.#emit({ type: 'series-start', message: `series ${plan.id} started: ${count} snapshot${count === 1 ? '' : 's'} ${count > 1 ? `${formatInterval(intervalMs)} apart ` : ''}to ${dir}`, seriesId: plan.id, count })
    /** @type {unknown} */
    let failure = null
    /** @type {import('./alloc-sampler.js').AllocationSampler | null} */
    let sampler = null
    const spanning = await this.#sampling
    try {
      await ensureDirectory(dir)
      await removeStalePartials(dir, this.#owner)
      await writeFileAtomic(plan.seriesFile, JSON.stringify(record, null, 2) + '\n', this.#owner)
      sampler = spanning ?? await startSampler(this.config, this.#emit, plan.id)
      for (let index = 1; index <= count; index++) {
        if (index > 1 && await this.#sleep(firstWriteMs + (index - 1) * intervalMs - performance.now(), keepAlive)) {
          throw new CaptureError(`Expected ${count} snapshots, but the agent was stopped after ${index - 1}`)
        }
        const series = { id: plan.id, index, count, intervalMs, startedAt: record.startedAt, trigger }
        const where = { seriesId: plan.id, index, count }
        let captured
        try {
          captured = await captureSnapshot({ config: { ...this.config, dir, gzip }, cost: this.#cost, owner: this.#owner, snapshotPath: plan.snapshots[index - 1].replace(/\.gz$/, ''), series, emit: this.#emit, keepAlive, sampler })
        } catch (error) {
          this.#emit({ type: 'error', message: `snapshot ${index} of ${count} failed: ${describeError(error)}`, ...where, error })
          throw error instanceof CaptureError ? error : new CaptureError(`Expected to write snapshot ${index} of ${count} to ${dir}, but ${describeError(error)}`, { cause: error })
        }
        if ('refusal' in captured) {
          this.#emit({ type: 'refused', message: `refused snapshot ${index} of ${count}: ${captured.refusal}`, ...where })
          throw new CaptureError(`Refused snapshot ${index} of ${count}: ${captured.refusal}`)
        }
        if (index === 1) firstWriteMs = captured.startedMs
        result.snapshots.push(captured.path)
        result.sidecars.push(captured.sidecar)
        record.snapshots.push(basename(captured.path))
        current.written = index
        totalBytes += captured.bytes
      }
    } catch (error) {
      failure = error
      if (!(error instanceof CaptureError)) {
        this.#emit({ type: 'error', message: `series ${plan.id} failed: ${describeError(error)}`, seriesId: plan.id, error })
        failure = new CaptureError(`Expected to write a series to ${dir}, but ${describeError(error)}`, { cause: error })
      }
    }
    if (sampler !== spanning) await sampler?.stop()
    record.status = failure === null ? 'complete' : this.#stopped ? 'stopped' : 'failed'
    record.endedAt = new Date().toISOString()
    record.error = failure === null ? null : describeError(failure)
    try {
      // Written last: a reader that sees "complete" finds every snapshot and sidecar in place.
      await writeFileAtomic(plan.seriesFile, JSON.stringify(record, null, 2) + '\n', this.#owner)
    } catch {}
    try {
      const removed = await pruneSnapshots(dir, keep, new Set([plan.id]))
      if (removed.length > 0) {
        this.#emit({ type: 'pruned', message: `removed ${removed.length} old file${removed.length === 1 ? '' : 's'} (keeping ${keep} snapshots)`, paths: removed })
      }
    } catch {}
    const written = result.snapshots.length
    this.#emit({
      type: 'series-end',
      message: `series ${plan.id} ${record.status}: ${written} of ${count} snapshot${count === 1 ? '' : 's'}${written > 0 ? ` (${formatBytes(totalBytes)})` : ''} in ${dir}`,
      seriesId: plan.id,
      count,
      status: record.status,
      paths: result.snapshots
    })
    this.#current = null
    if (failure !== null) throw failure
    return result
  }

  /**
   * Waits `ms`; resolves true when the agent was stopped meanwhile.
   * @param {number} ms
   * @param {boolean} keepAlive
   * @returns {Promise<boolean>}
   */
  #sleep (ms, keepAlive) {
    if (this.#stopped) return Promise.resolve(true)
    return new Promise((resolve) => {
      this.#wake = resolve
      this.#timer = setTimeout(() => {
        this.#timer = null
        this.#wake = null
        resolve(false)
      }, Math.max(0, ms))
      // A host that is done should exit even mid-series; a caller awaiting the series keeps it.
      if (!keepAlive) this.#timer.unref()
    })
  }
}

/**
 * Starts the capture agent in this process: `signal` (default SIGUSR2) starts a series of `count`
 * snapshots `intervalMs` apart in `dir`. Events go to `onEvent`, or as one line each to stderr.
 * Throws InvalidArgumentError on a bad option and CaptureError when an agent already runs here.
 * @param {AgentOptions} [options]
 * @returns {Agent}
 */
export function startAgent (options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError(`Expected agent options to be an object, got \`${String(options)}\` (${typeof options})`)
  }
  const { onEvent, ...rest } = options
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw new InvalidArgumentError(`Expected \`onEvent\` to be a function, got \`${String(onEvent)}\` (${typeof onEvent})`)
  }
  const config = resolveConfig(rest)
  config.dir = resolve(config.dir)
  if (registry[ACTIVE]) {
    throw new CaptureError('Expected one leakdiff agent per process, but one is already running (started by leakdiff/register or an earlier startAgent()); stop() it first')
  }
  const agent = new Agent(config, guardSink(onEvent ?? writeEventToStderr))
  registry[ACTIVE] = agent
  return agent.start()
}
