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
import { HeapWatch } from './watch.js'
import { describeWatch } from './watch-words.js'
import { currentThread, describeThread } from './thread-info.js'
import { SeriesRelay, ThreadDirectory, listenForSeries } from './thread-relay.js'

/** @import {AgentConfig} from './config.js' */
/** @import {EventSink} from './events.js' */
/** @import {AllocationSampler} from './alloc-sampler.js' */

/**
 * A series being written by this thread (Agent#openSeries).
 * @typedef {object} OpenSeries
 * @property {string} dir
 * @property {boolean} gzip
 * @property {number} keep
 * @property {number} count
 * @property {number} intervalMs
 * @property {ReturnType<typeof seriesFileNames>} plan
 * @property {{id: string, written: number, count: number}} current
 * @property {SeriesResult} result
 * @property {any} record          the series file's content
 * @property {SeriesTrigger} trigger
 * @property {string | null} mainSeries  in a worker thread: the main thread's series
 * @property {number} totalBytes
 * @property {AllocationSampler | null} sampler
 * @property {AllocationSampler | null} spanning
 * @property {string[]} extraIds   the worker threads' series ids, kept from pruning
 */

/** How long the first turn of a series waits for the live worker threads to join. */
const JOIN_WAIT_MS = 2000
/** How long a worker thread may take to write one snapshot before it is left out (big heaps take minutes). */
const WRITE_WAIT_MS = 300_000

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
  #owner
  /** @type {ThreadDirectory | null} the main thread's view of the worker threads that run an agent */
  #workers = null
  /** @type {(() => void) | null} a worker thread's listener for the main thread's series */
  #stopRelay = null
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
    this.#owner = { pid: process.pid, threadId: this.thread.id, inFlight: new Set() }
    this.#emit = emit
    this.#cost = new WriteCostModel(config)
  }

  /**
   * The thread this agent runs in. Read each time: a preload loaded with `-r` runs in a worker
   * before Node has put the worker's file in process.argv.
   * @returns {import('./thread-info.js').ThreadInfo}
   */
  get thread () {
    return currentThread(this.config.threadName)
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
    // Signals reach the main thread only: a worker thread's agent writes when the main thread's does.
    let listening = this.thread.main ? signal : null
    if (listening === 'SIGUSR2') {
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
    if (this.thread.main) this.#workers = new ThreadDirectory()
    else this.#stopRelay = listenForSeries(this.#workerSide(), () => this.thread)
    const { watch } = this.config
    const watching = watch === null ? '' : `; ${describeWatch(watch)}`
    if (this.config.allocSampling === 'always') this.#sampling = startSampler(this.config, this.#emit, `${process.pid}-${formatStamp(new Date())}`)
    this.#emit({
      type: 'ready',
      message: (listening
        ? `ready: kill -${listening.slice(3)} ${process.pid} writes ${plan}`
        : this.thread.main
          ? `ready (pid ${process.pid}, no signal): captureSeries() writes ${plan}`
          : `ready (pid ${process.pid}, ${describeThread(this.thread)}): writes its snapshots with each series of the main thread's agent, to ${dir}`) + watching
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
      // RSS is the whole process's: the main thread watches it for every thread.
      watchRss: this.thread.main,
      seriesCount: keep > 0 ? Math.min(count, keep) : count,
      seriesSpanMs: ((keep > 0 ? Math.min(count, keep) : count) - 1) * this.config.intervalMs,
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
      startSeries: (trigger) => this.#runSeries({ count: keep > 0 ? Math.min(count, keep) : count, intervalMs: trigger.seriesIntervalMs, trigger }, false)
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
    this.#workers?.close()
    this.#stopRelay?.()
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
    if (this.#stopped) throw new CaptureError('Expected a running agent, but it was stopped')
    if (this.#current) {
      const { id, written, count: total } = this.#current
      const message = `${this.#listening && !keepAlive ? this.#listening : 'request'} ignored: series ${id} is still running (${written} of ${total} written)`
      this.#emit({ type: 'ignored', message, seriesId: id })
      throw new CaptureError(`Expected no series in progress, but ${message}`)
    }
    const series = this.#openSeries({ count, intervalMs, trigger, startedAt: new Date(), mainSeries: null })
    await this.#workers?.rollCall(keepAlive)
    const { plan, record } = series
    // Worker threads take their turn after each of this thread's snapshots (thread-relay.js).
    const relay = SeriesRelay.open({ mainId: plan.id, startedAt: record.startedAt, count, intervalMs, trigger }, this.#workers, { joinWaitMs: JOIN_WAIT_MS, writeWaitMs: WRITE_WAIT_MS, keepAlive })
    // The interval runs from the start of one write to the start of the next.
    let firstWriteMs = 0
    /** @type {unknown} */
    let failure = null
    try {
      await this.#prepareSeries(series)
      for (let index = 1; index <= count; index++) {
        if (index > 1 && await this.#sleep(firstWriteMs + (index - 1) * intervalMs - performance.now(), keepAlive)) {
          throw new CaptureError(`Expected ${count} snapshots, but the agent was stopped after ${index - 1}`)
        }
        const captured = await this.#writeOne(series, index, keepAlive)
        if (index === 1) firstWriteMs = captured.startedMs
        await relay?.turn(index)
      }
    } catch (error) {
      failure = this.#asFailure(error, series)
    }
    if (relay !== null) {
      const threads = await relay.end(failure === null ? 'complete' : this.#stopped ? 'stopped' : 'failed')
      record.threads = threads
      series.extraIds = threads.map((thread) => thread.seriesFile.replace(/^leakdiff-|\.series\.json$/g, ''))
      for (const thread of threads) {
        this.#emit({ type: 'thread', message: `${describeThread({ id: thread.threadId, main: false, file: thread.file, name: thread.name })}: series ${thread.status}, ${thread.snapshots.length} of ${count} snapshot${count === 1 ? '' : 's'}${thread.error ? ` (${thread.error})` : ''}`, seriesId: plan.id })
      }
    }
    await this.#closeSeries(series, failure, true)
    if (failure !== null) throw failure
    return series.result
  }

  /**
   * The files and record of a new series of this thread. Nothing is written yet.
   * @param {{count: number, intervalMs: number, trigger: SeriesTrigger, startedAt: Date, mainSeries: string | null}} input
   *   mainSeries: in a worker thread, the main thread's series this one is part of
   */
  #openSeries ({ count, intervalMs, trigger, startedAt, mainSeries }) {
    const { dir, gzip, keep } = resolveConfig({ ...this.config, count, intervalMs })
    const plan = seriesFileNames({ dir, pid: process.pid, startedAt, count, gzip, threadId: this.thread.id })
    const current = { id: plan.id, written: 0, count }
    this.#current = current
    /** @type {SeriesResult} */
    const result = { id: plan.id, seriesFile: plan.seriesFile, snapshots: [], sidecars: [] }
    const record = {
      schemaVersion: 1,
      kind: 'leakdiff-series',
      id: plan.id,
      pid: process.pid,
      thread: this.thread,
      mainSeries,
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
      error: /** @type {string | null} */ (null),
      /** @type {import('./thread-relay.js').ThreadSeries[] | undefined} the worker threads' series of a main thread's */
      threads: undefined
    }
    this.#emit({ type: 'series-start', message: `series ${plan.id} started: ${count} snapshot${count === 1 ? '' : 's'} ${count > 1 ? `${formatInterval(intervalMs)} apart ` : ''}to ${dir}${this.thread.main ? '' : ` (${describeThread(this.thread)})`}`, seriesId: plan.id, count })
    /** @type {OpenSeries} */
    const series = { dir, gzip, keep, count, intervalMs, plan, current, result, record, trigger, mainSeries, totalBytes: 0, sampler: null, spanning: null, extraIds: [] }
    return series
  }

  /**
   * Makes the directory, cleans up, writes the series file ("running") and starts sampling.
   * @param {OpenSeries} series
   */
  async #prepareSeries (series) {
    const { dir, plan, record } = series
    series.spanning = await this.#sampling
    await ensureDirectory(dir)
    await removeStalePartials(dir, this.#owner)
    await writeFileAtomic(plan.seriesFile, JSON.stringify(record, null, 2) + '\n', this.#owner)
    series.sampler = series.spanning ?? await startSampler(this.config, this.#emit, plan.id)
  }

  /**
   * Writes snapshot `index` of a series; throws a CaptureError when it is refused or fails.
   * @param {OpenSeries} series
   * @param {number} index
   * @param {boolean} keepAlive
   */
  async #writeOne (series, index, keepAlive) {
    const { dir, gzip, count, intervalMs, plan, record, trigger, mainSeries } = series
    const info = { id: plan.id, index, count, intervalMs, startedAt: record.startedAt, trigger, ...(mainSeries === null ? {} : { mainSeries }) }
    const where = { seriesId: plan.id, index, count }
    let captured
    try {
      captured = await captureSnapshot({ config: { ...this.config, dir, gzip }, cost: this.#cost, owner: this.#owner, snapshotPath: plan.snapshots[index - 1].replace(/\.gz$/, ''), series: info, emit: this.#emit, keepAlive, sampler: series.sampler, thread: this.thread })
    } catch (error) {
      this.#emit({ type: 'error', message: `snapshot ${index} of ${count} failed: ${describeError(error)}`, ...where, error })
      throw error instanceof CaptureError ? error : new CaptureError(`Expected to write snapshot ${index} of ${count} to ${dir}, but ${describeError(error)}`, { cause: error })
    }
    if ('refusal' in captured) {
      this.#emit({ type: 'refused', message: `refused snapshot ${index} of ${count}: ${captured.refusal}`, ...where })
      throw new CaptureError(`Refused snapshot ${index} of ${count}: ${captured.refusal}`)
    }
    series.result.snapshots.push(captured.path)
    series.result.sidecars.push(captured.sidecar)
    record.snapshots.push(basename(captured.path))
    series.current.written = index
    series.totalBytes += captured.bytes
    return captured
  }

  /**
   * @param {unknown} error
   * @param {OpenSeries} series
   * @returns {CaptureError}
   */
  #asFailure (error, { plan, dir }) {
    if (error instanceof CaptureError) return error
    this.#emit({ type: 'error', message: `series ${plan.id} failed: ${describeError(error)}`, seriesId: plan.id, error })
    return new CaptureError(`Expected to write a series to ${dir}, but ${describeError(error)}`, { cause: error })
  }

  /**
   * Ends a series: stops its sampling, writes the series file last, prunes old files, says so.
   * @param {OpenSeries} series
   * @param {unknown} failure
   * @param {boolean} prune  false in a worker thread's part of a main thread's series: the main
   *   thread prunes once for all of them
   */
  async #closeSeries (series, failure, prune) {
    const { dir, keep, count, plan, record, result, sampler, spanning } = series
    if (sampler !== spanning) await sampler?.stop()
    record.status = failure === null ? 'complete' : this.#stopped ? 'stopped' : 'failed'
    record.endedAt = new Date().toISOString()
    record.error = failure === null ? null : describeError(failure)
    try {
      // Written last: a reader that sees "complete" finds every snapshot and sidecar in place.
      await writeFileAtomic(plan.seriesFile, JSON.stringify(record, null, 2) + '\n', this.#owner)
    } catch {}
    if (prune) {
      try {
        const removed = await pruneSnapshots(dir, keep, new Set([plan.id, ...series.extraIds]))
        if (removed.length > 0) {
          this.#emit({ type: 'pruned', message: `removed ${removed.length} old file${removed.length === 1 ? '' : 's'} (keeping ${keep} snapshots)`, paths: removed })
        }
      } catch {}
    }
    const written = result.snapshots.length
    this.#emit({
      type: 'series-end',
      message: `series ${plan.id} ${record.status}: ${written} of ${count} snapshot${count === 1 ? '' : 's'}${written > 0 ? ` (${formatBytes(series.totalBytes)})` : ''} in ${dir}`,
      seriesId: plan.id,
      count,
      status: record.status,
      paths: result.snapshots
    })
    this.#current = null
  }

  /**
   * A worker thread's side of the main thread's series (thread-relay.js): join, write when told,
   * end when told. Every path is guarded; a refusal or failure ends this thread's part only.
   * @returns {import('./thread-relay.js').WorkerSide}
   */
  #workerSide () {
    /** @type {{mainId: string, series: OpenSeries | null, begin: import('./thread-relay.js').RelayedSeries} | null} */
    let joined = null
    return {
      begin: async (begin) => {
        if (this.#stopped || this.#current !== null) return null
        const plan = seriesFileNames({ dir: this.config.dir, pid: process.pid, startedAt: new Date(begin.startedAt), count: begin.count, gzip: this.config.gzip, threadId: this.thread.id })
        joined = { mainId: begin.mainId, series: null, begin }
        return { seriesFile: basename(plan.seriesFile) }
      },
      write: async (mainId, index) => {
        if (joined === null || joined.mainId !== mainId) return { ok: false, error: 'not part of this series' }
        try {
          if (joined.series === null) {
            if (this.#current !== null || this.#stopped) throw new CaptureError('Expected an idle agent, but this thread is busy or stopped')
            const { count, intervalMs, startedAt, trigger } = joined.begin
            joined.series = this.#openSeries({ count, intervalMs, trigger, startedAt: new Date(startedAt), mainSeries: mainId })
            await this.#prepareSeries(joined.series)
          }
          const captured = await this.#writeOne(joined.series, index, false)
          return { ok: true, snapshot: basename(captured.path) }
        } catch (error) {
          const series = joined.series
          joined = null
          if (series !== null) await this.#closeSeries(series, series === null ? error : this.#asFailure(error, series), false)
          return { ok: false, error: describeError(error) }
        }
      },
      end: async (mainId, status) => {
        if (joined === null || joined.mainId !== mainId || joined.series === null) return null
        const series = joined.series
        joined = null
        const complete = status === 'complete' && series.result.snapshots.length === series.count
        const failure = complete ? null : new CaptureError(`Expected ${series.count} snapshots, but the main thread's series ${mainId} ended ${status} after ${series.result.snapshots.length}`)
        await this.#closeSeries(series, failure, false)
        return { status: series.record.status, error: series.record.error }
      }
    }
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
