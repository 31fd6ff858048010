import { resolve } from 'node:path'
import { CaptureError, InvalidArgumentError } from '../errors.js'
import { resolveConfig } from './config.js'
import { WriteCostModel } from './write-cost.js'
import { formatStamp } from './file-names.js'
import { ensureDirectory } from './fs-safe.js'
import { checkSafety } from './capture-snapshot.js'
import { startSampler } from './alloc-sampler.js'
import { formatInterval, guardSink, writeEventToStderr } from './events.js'
import { SeriesWriter } from './series-writer.js'
import { listenForSignal } from './signal-listener.js'
import { HeapWatch } from './watch.js'
import { describeWatch } from './watch-words.js'
import { currentThread, describeThread } from './thread-info.js'
import { SeriesRelay, ThreadDirectory, listenForSeries } from './thread-relay.js'
import { workerSide } from './worker-side.js'

/** @import {AgentConfig} from './config.js' */
/** @import {EventSink} from './events.js' */
/** @import {SeriesResult} from './series-writer.js' */

/** How long the first turn of a series waits for the live worker threads to join. */
const JOIN_WAIT_MS = 2000
/** How long a worker thread may take to write one snapshot before it is left out (big heaps take minutes). */
const WRITE_WAIT_MS = 300_000

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
  #writer
  /** @type {ThreadDirectory | null} the main thread's view of the worker threads that run an agent */
  #workers = null
  /** @type {(() => void) | null} a worker thread's listener for the main thread's series */
  #stopRelay = null
  /** @type {NodeJS.Timeout | null} */
  #timer = null
  /** @type {((stopped: boolean) => void) | null} */
  #wake = null
  #started = false
  #stopped = false
  /** @type {NodeJS.Signals | null} the signal listened to, after the nodemon check */
  #listening = null
  /** @type {(() => void) | null} removes the signal listener and the marker that lets `leakdiff capture` signal this process */
  #stopListening = null
  /** @type {HeapWatch | null} */
  #watch = null
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
    this.#writer = new SeriesWriter({ config: this.config, emit, cost: this.#cost, thread: () => this.thread, stopped: () => this.#stopped, sampling: () => this.#sampling })
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
    return this.#writer.current !== null
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
    const listener = listenForSignal({ signal: this.thread.main ? signal : null, dir, emit: this.#emit, onSignal: this.#onSignal })
    const listening = listener.signal
    this.#listening = listening
    this.#stopListening = listener.stop
    if (this.thread.main) this.#workers = new ThreadDirectory()
    else this.#stopRelay = listenForSeries(workerSide({ writer: this.#writer, config: this.config, thread: () => this.thread, stopped: () => this.#stopped }), () => this.thread)
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
    this.#stopListening?.()
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
    const current = this.#writer.current
    if (current) {
      const { id, written, count: total } = current
      const message = `${this.#listening && !keepAlive ? this.#listening : 'request'} ignored: series ${id} is still running (${written} of ${total} written)`
      this.#emit({ type: 'ignored', message, seriesId: id })
      throw new CaptureError(`Expected no series in progress, but ${message}`)
    }
    const series = this.#writer.open({ count, intervalMs, trigger, startedAt: new Date(), mainSeries: null })
    await this.#workers?.rollCall(keepAlive)
    const { plan, record } = series
    // Worker threads take their turn after each of this thread's snapshots (thread-relay.js).
    const relay = SeriesRelay.open({ mainId: plan.id, startedAt: record.startedAt, count, intervalMs, trigger }, this.#workers, { joinWaitMs: JOIN_WAIT_MS, writeWaitMs: WRITE_WAIT_MS, keepAlive })
    // The interval runs from the start of one write to the start of the next.
    let firstWriteMs = 0
    /** @type {unknown} */
    let failure = null
    try {
      await this.#writer.prepare(series)
      for (let index = 1; index <= count; index++) {
        if (index > 1 && await this.#sleep(firstWriteMs + (index - 1) * intervalMs - performance.now(), keepAlive)) {
          throw new CaptureError(`Expected ${count} snapshots, but the agent was stopped after ${index - 1}`)
        }
        const captured = await this.#writer.writeOne(series, index, keepAlive)
        if (index === 1) firstWriteMs = captured.startedMs
        await relay?.turn(index)
      }
    } catch (error) {
      failure = this.#writer.asFailure(error, series)
    }
    if (relay !== null) {
      const threads = await relay.end(failure === null ? 'complete' : this.#stopped ? 'stopped' : 'failed')
      record.threads = threads
      series.extraIds = threads.map((thread) => thread.seriesFile.replace(/^leakdiff-|\.series\.json$/g, ''))
      for (const thread of threads) {
        this.#emit({ type: 'thread', message: `${describeThread({ id: thread.threadId, main: false, file: thread.file, name: thread.name })}: series ${thread.status}, ${thread.snapshots.length} of ${count} snapshot${count === 1 ? '' : 's'}${thread.error ? ` (${thread.error})` : ''}`, seriesId: plan.id })
      }
    }
    await this.#writer.close(series, failure, true)
    if (failure !== null) throw failure
    return series.result
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
