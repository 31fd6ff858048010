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
 * The main thread knows which workers run an agent from their `hello` (ThreadDirectory), so a
 * process without them relays nothing, and nothing runs until a series starts.
 */

export const CHANNEL_NAME = 'leakdiff:agent:series:v1'
/** How long the worker threads' agents have to answer the main thread's roll call. */
const ROLL_CALL_MS = 300

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
 * The main thread's directory of the worker threads that run an agent: each worker's agent says
 * `hello` when it starts (and answers the `roll-call` the main thread's agent makes when it starts
 * after them) and `bye` when it stops; a worker that exits without a word is dropped through the
 * `worker_threads` diagnostics channel (one message per `new Worker()`). The channel is unref'd and
 * idle: it costs nothing until a thread speaks.
 */
export class ThreadDirectory {
  /** @type {Set<number>} worker threads whose agent said hello */
  agents = new Set()
  /** @type {Set<(message: any) => void>} */
  #listeners = new Set()
  #channel
  /** @param {unknown} message */
  #onWorker = (message) => {
    try {
      const worker = /** @type {{worker?: import('node:worker_threads').Worker}} */ (message).worker
      if (!worker) return
      const id = worker.threadId
      worker.once('exit', () => this.#receive({ type: 'exit', threadId: id }))
    } catch {}
  }

  /** performance.now() until which answers to the roll call may still come */
  rollCallUntil = performance.now() + ROLL_CALL_MS

  constructor () {
    this.#channel = new BroadcastChannel(CHANNEL_NAME)
    this.#channel.unref()
    this.#channel.onmessage = (/** @type {any} */ event) => this.#receive(event.data)
    subscribe('worker_threads', this.#onWorker)
    this.post({ type: 'roll-call' })
  }

  /** @param {any} message */
  #receive (message) {
    try {
      if (message === null || typeof message !== 'object' || !Number.isSafeInteger(message.threadId)) return
      if (message.type === 'hello') this.agents.add(message.threadId)
      if (message.type === 'bye' || message.type === 'exit') this.agents.delete(message.threadId)
      for (const listener of this.#listeners) listener(message)
    } catch {}
  }

  /** @param {object} message */
  post (message) {
    try {
      this.#channel.postMessage(message)
    } catch {}
  }

  /**
   * Waits for the answers to the roll call, when an agent started a moment ago (a series asked for
   * right after startAgent()).
   * @param {boolean} keepAlive
   * @returns {Promise<void>}
   */
  async rollCall (keepAlive) {
    const left = this.rollCallUntil - performance.now()
    if (left <= 0) return
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, left)
      if (!keepAlive) timer.unref()
    })
  }

  /**
   * @param {(message: any) => void} listener  every message from a worker thread, and `exit`
   * @returns {() => void} removes it
   */
  listen (listener) {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Whether the channel keeps the process alive (while a series someone waits for runs).
   * @param {boolean} keepAlive
   */
  keepAlive (keepAlive) {
    if (keepAlive) this.#channel.ref()
    else this.#channel.unref()
  }

  close () {
    unsubscribe('worker_threads', this.#onWorker)
    try {
      this.#channel.close()
    } catch {}
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
  #directory
  /** @type {Map<number, ThreadSeries>} */
  #threads = new Map()
  /** @type {Set<(message: any) => void>} */
  #waiting = new Set()
  #series
  #options
  #joinDeadline
  #stopListening

  /**
   * @param {RelayedSeries} series
   * @param {ThreadDirectory} directory
   * @param {RelayOptions} options
   */
  constructor (series, directory, options) {
    this.#series = series
    this.#directory = directory
    this.#options = options
    this.#joinDeadline = performance.now() + options.joinWaitMs
    if (options.keepAlive) directory.keepAlive(true)
    this.#stopListening = directory.listen((message) => {
      if (message.type !== 'exit' && message.mainId !== series.mainId) return
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
    })
    this.#post({ type: 'begin', ...series })
  }

  /**
   * Opens a relay when worker threads run an agent; null (and nothing sent) when none does.
   * @param {RelayedSeries} series
   * @param {ThreadDirectory | null} directory
   * @param {RelayOptions} options
   * @returns {SeriesRelay | null}
   */
  static open (series, directory, options) {
    if (directory === null || directory.agents.size === 0) return null
    return new SeriesRelay(series, directory, options)
  }

  /** @param {object} message */
  #post (message) {
    this.#directory.post({ ...message, mainId: this.#series.mainId })
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
      // Every worker thread with an agent has joined (or exited), or the wait is over.
      await this.#waitFor(() => [...this.#directory.agents].every((id) => this.#threads.has(id)), this.#joinDeadline - performance.now())
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
    this.#stopListening()
    if (this.#options.keepAlive) this.#directory.keepAlive(false)
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
    if (message?.type === 'roll-call') post({ type: 'hello' })
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
  post({ type: 'hello' })
  return () => {
    post({ type: 'bye' })
    try {
      channel.close()
    } catch {}
  }
}
