import { BroadcastChannel } from 'node:worker_threads'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'

/**
 * One signal, every thread. A process signal reaches the main thread only, and a heap snapshot
 * covers one isolate, so the main thread's agent relays its series to the agents of its worker
 * threads over a BroadcastChannel (node:worker_threads; every thread of a process can open one by
 * name) and takes turns with them:
 *
 *   main                                   each worker's agent
 *   begin {series}  ---------------------> joins unless busy with a series of its own
 *                   <--------------------- joined {threadId, seriesFile}
 *   write k, to: t  ---------------------> writes its snapshot k      (one thread at a time:
 *                   <--------------------- wrote {ok}                  peaks never add up)
 *   end {status}    ---------------------> writes its series file
 *                   <--------------------- ended {status, snapshots}
 *
 * Each worker writes its own snapshot with v8.writeHeapSnapshot() in its own thread, with its own
 * safety checks (its own heap limit, the process's memory); the main thread waits asynchronously.
 * The main thread learns which workers exist from the `worker_threads` diagnostics channel (one
 * message per `new Worker()`), so a process without workers opens no channel at all, and nothing
 * runs until a series starts.
 */

export const CHANNEL_NAME = 'leakdiff:agent:series:v1'

/**
 * @typedef {object} RelayedSeries
 * @property {string} mainId       the main thread's series id
 * @property {string} startedAt    ISO, shared by every thread's files
 * @property {number} count
 * @property {number} intervalMs
 * @property {import('./start-agent.js').SeriesTrigger} trigger  what started the main thread's series
 */

/**
 * A worker thread's part in a relayed series, as the main thread's series file lists it.
 * @typedef {object} ThreadSeries
 * @property {number} threadId
 * @property {string | null} file
 * @property {string | null} name
 * @property {string} seriesFile    base name
 * @property {'complete' | 'failed' | 'stopped' | 'no answer' | 'not started'} status  'not started': joined, but the
 *   series ended before its first turn
 * @property {string[]} snapshots   base names
 * @property {string | null} error
 */

/**
 * Live worker threads of this process, from the `worker_threads` diagnostics channel. Only
 * workers created after `start()` are seen (the preload starts the agent before the app's code).
 */
export class WorkerTracker {
  /** @type {Set<number>} */
  live = new Set()
  /** @type {Set<(threadId: number) => void>} */
  #onExit = new Set()
  #subscribed = false
  /** @param {unknown} message */
  #onWorker = (message) => {
    try {
      const worker = /** @type {{worker?: import('node:worker_threads').Worker}} */ (message).worker
      if (!worker) return
      const id = worker.threadId
      this.live.add(id)
      worker.once('exit', () => {
        this.live.delete(id)
        for (const listener of this.#onExit) listener(id)
      })
    } catch {}
  }

  start () {
    if (this.#subscribed) return this
    subscribe('worker_threads', this.#onWorker)
    this.#subscribed = true
    return this
  }

  stop () {
    if (this.#subscribed) unsubscribe('worker_threads', this.#onWorker)
    this.#subscribed = false
  }

  /**
   * @param {(threadId: number) => void} listener
   * @returns {() => void} removes it
   */
  onExit (listener) {
    this.#onExit.add(listener)
    return () => this.#onExit.delete(listener)
  }
}

/**
 * @typedef {object} RelayOptions
 * @property {number} joinWaitMs   how long the first turn waits for workers to join
 * @property {number} writeWaitMs  how long a worker may take to answer a turn
 * @property {boolean} keepAlive   whether the channel and timers keep the process alive
 */

/**
 * The main thread's side of one series: opened when the series starts, when workers are alive.
 */
export class SeriesRelay {
  #channel
  #tracker
  /** @type {Map<number, ThreadSeries>} */
  #threads = new Map()
  /** @type {Set<(message: any) => void>} */
  #waiting = new Set()
  #series
  #options
  #joinDeadline
  #removeExitListener

  /**
   * @param {RelayedSeries} series
   * @param {WorkerTracker} tracker
   * @param {RelayOptions} options
   */
  constructor (series, tracker, options) {
    this.#series = series
    this.#tracker = tracker
    this.#options = options
    this.#joinDeadline = performance.now() + options.joinWaitMs
    this.#channel = new BroadcastChannel(CHANNEL_NAME)
    if (!options.keepAlive) this.#channel.unref()
    this.#channel.onmessage = (/** @type {any} */ event) => {
      try {
        const message = event.data
        if (message?.mainId !== series.mainId) return
        if (message.type === 'joined') {
          this.#threads.set(message.threadId, {
            threadId: message.threadId,
            file: message.file ?? null,
            name: message.name ?? null,
            seriesFile: message.seriesFile,
            status: 'no answer',
            snapshots: [],
            error: null
          })
        }
        for (const waiter of this.#waiting) waiter(message)
      } catch {}
    }
    this.#removeExitListener = tracker.onExit((threadId) => {
      for (const waiter of this.#waiting) waiter({ type: 'exit', threadId })
    })
    this.#post({ type: 'begin', ...series })
  }

  /**
   * Opens a relay when the process has worker threads; null (and nothing opened) when it has none.
   * @param {RelayedSeries} series
   * @param {WorkerTracker | null} tracker
   * @param {RelayOptions} options
   * @returns {SeriesRelay | null}
   */
  static open (series, tracker, options) {
    if (tracker === null || tracker.live.size === 0) return null
    return new SeriesRelay(series, tracker, options)
  }

  /** @param {object} message */
  #post (message) {
    try {
      this.#channel.postMessage({ ...message, mainId: this.#series.mainId })
    } catch {}
  }

  /**
   * Waits until `done(message)` says so for a message, a live worker exits, or `ms` pass.
   * @param {(message: any) => boolean} done
   * @param {number} ms
   * @returns {Promise<boolean>} false on time out
   */
  #waitFor (done, ms) {
    return new Promise((resolve) => {
      /** @param {boolean} value */
      const finish = (value) => {
        clearTimeout(timer)
        this.#waiting.delete(check)
        resolve(value)
      }
      const check = (/** @type {any} */ message) => {
        if (done(message)) finish(true)
      }
      const timer = setTimeout(() => finish(false), Math.max(0, ms))
      if (!this.#options.keepAlive) timer.unref()
      this.#waiting.add(check)
      if (done(null)) finish(true)
    })
  }

  /**
   * Snapshot `index` of every joined worker, one after the other. A worker that refuses, fails or
   * does not answer is left out of the later turns.
   * @param {number} index
   */
  async turn (index) {
    if (index === 1) {
      // Every worker known alive has joined (or exited), or the wait is over.
      await this.#waitFor(() => [...this.#tracker.live].every((id) => this.#threads.has(id)), this.#joinDeadline - performance.now())
    }
    for (const thread of [...this.#threads.values()].sort((a, b) => a.threadId - b.threadId)) {
      if (thread.status !== 'no answer' || thread.snapshots.length !== index - 1 || thread.error !== null) continue
      /** @type {any} */
      let reply = null
      this.#post({ type: 'write', to: thread.threadId, index })
      const answered = await this.#waitFor((message) => {
        if (message?.threadId !== thread.threadId) return false
        if (message.type === 'exit') reply = { ok: false, error: 'the thread exited' }
        else if (message.type === 'wrote' && message.index === index) reply = message
        return reply !== null
      }, this.#options.writeWaitMs)
      if (!answered) thread.error = `no answer to snapshot ${index} within ${Math.round(this.#options.writeWaitMs / 1000)} s`
      else if (reply.ok) thread.snapshots.push(reply.snapshot)
      else thread.error = String(reply.error)
    }
  }

  /**
   * Ends the series in every joined worker, waits (briefly) for their series files, and closes the
   * channel.
   * @param {'complete' | 'failed' | 'stopped'} status  the main thread's
   * @returns {Promise<ThreadSeries[]>}
   */
  async end (status) {
    const threads = [...this.#threads.values()].sort((a, b) => a.threadId - b.threadId)
    // A worker that failed has ended its part already, and one that wrote nothing has no part.
    for (const thread of threads) {
      if (thread.error !== null) thread.status = 'failed'
      else if (thread.snapshots.length === 0) thread.status = 'not started'
    }
    const pending = new Set(threads.filter((thread) => thread.status === 'no answer').map((thread) => thread.threadId))
    this.#post({ type: 'end', status })
    await this.#waitFor((message) => {
      if (message?.type === 'ended' || message?.type === 'exit') {
        const thread = this.#threads.get(message.threadId)
        if (thread && message.type === 'ended') {
          thread.status = message.status
          thread.error = message.error ?? thread.error
        } else if (thread) {
          thread.error ??= 'the thread exited'
        }
        pending.delete(message.threadId)
      }
      return pending.size === 0
    }, pending.size === 0 ? 0 : this.#options.writeWaitMs)
    this.close()
    return threads
  }

  close () {
    this.#removeExitListener()
    try {
      this.#channel.close()
    } catch {}
  }
}

/**
 * @typedef {object} WorkerSide
 * @property {(series: RelayedSeries) => Promise<{seriesFile: string} | null>} begin  joins, or null when busy
 * @property {(mainId: string, index: number) => Promise<{ok: true, snapshot: string} | {ok: false, error: string}>} write
 * @property {(mainId: string, status: string) => Promise<{status: string, error: string | null} | null>} end
 */

/**
 * A worker thread's agent listens for the main thread's series. The channel is unref'd: it never
 * keeps a worker alive. Every handler is guarded: nothing reaches the host.
 * @param {WorkerSide} side
 * @param {() => {id: number, file: string | null, name: string | null}} threadOf  read when it
 *   answers (a worker's file is known only once its script started)
 * @returns {() => void} stops listening
 */
export function listenForSeries (side, threadOf) {
  const channel = new BroadcastChannel(CHANNEL_NAME)
  channel.unref()
  /** @param {object} message */
  const post = (message) => {
    try {
      channel.postMessage({ ...message, threadId: threadOf().id })
    } catch {}
  }
  channel.onmessage = (/** @type {any} */ event) => {
    const message = event.data
    if (message === null || typeof message !== 'object' || typeof message.mainId !== 'string') return
    const run = async () => {
      if (message.type === 'begin') {
        const joined = await side.begin(message)
        const { file, name } = threadOf()
        if (joined) post({ type: 'joined', mainId: message.mainId, file, name, seriesFile: joined.seriesFile })
      } else if (message.type === 'write' && message.to === threadOf().id) {
        post({ type: 'wrote', mainId: message.mainId, index: message.index, ...await side.write(message.mainId, message.index) })
      } else if (message.type === 'end') {
        const ended = await side.end(message.mainId, message.status)
        if (ended) post({ type: 'ended', mainId: message.mainId, ...ended })
      }
    }
    run().catch(() => {})
  }
  return () => {
    try {
      channel.close()
    } catch {}
  }
}
