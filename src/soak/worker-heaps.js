// The heaps of the worker threads an assertion checks. A heap snapshot covers one isolate: a
// Worker's heap is in none of the test thread's snapshots, so each is snapshotted apart, by the
// thread that started it (Worker#getHeapSnapshot()), and diffed apart.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { Worker } from 'node:worker_threads'
import { describeThread } from '../agent/thread-info.js'
import { InvalidArgumentError, describeValue } from '../errors.js'
import { readableScriptName } from '../signatures/source-location.js'

/** How long a Worker found before it runs may take to start, before it is left out. */
const START_WAIT_MS = 30_000
const OWN_FILE = import.meta.url

/**
 * One Worker whose heap is checked.
 * @typedef {object} WorkerThread
 * @property {Worker} worker
 * @property {number} threadId       as found: a Worker's threadId turns -1 once it exited
 * @property {string | null} name    the Worker's `name` option, where Node tells the parent thread
 *   (Worker#threadName, newer than Node 20)
 * @property {string | null} startedAt  where `new Worker()` was called (`test/pool.test.js:12:18`),
 *   for a Worker found as it started
 * @property {string[]} snapshots
 * @property {string | null} missed  why a snapshot is missing: then the thread is not diffed
 */

/**
 * Checks the `workers` option: false, true, or an array of Worker objects.
 * @param {unknown} workers
 * @returns {boolean | Worker[]}
 */
export function checkWorkersOption (workers) {
  if (typeof workers === 'boolean') return workers
  if (Array.isArray(workers) && workers.every((worker) => worker instanceof Worker)) {
    // An exited Worker's threadId is -1: its heap is gone.
    if (workers.some((worker) => worker.threadId === -1)) throw new InvalidArgumentError('Expected `workers` to hold running Workers, got one that has exited')
    return [...workers]
  }
  throw new InvalidArgumentError(`Expected \`workers\` to be true, false or an array of Worker objects (node:worker_threads), got ${describeValue(workers)}`)
}

/**
 * The worker threads of one assertion. With `workers: true` they are the Workers started from the
 * start of the assertion to its first snapshot (the warm-up), found through Node's
 * `worker_threads` diagnostics channel (one message per `new Worker()`, in the thread that
 * constructs it); with an array, those Workers. Workers started meanwhile are noted either way,
 * so that a report can say which heaps it did not check.
 */
export class WorkerHeaps {
  /** @type {WorkerThread[]} */
  #threads = []
  /** @type {Map<WorkerThread, () => void>} Workers found as they started, until they exit (with
   * their `exit` listeners): none is kept alive here, or code that starts a Worker per call would
   * seem to leak them */
  #running = new Map()
  #check
  #cwd
  #snapshotsTaken = 0
  /** @param {unknown} message */
  #onWorker = (message) => {
    try {
      const worker = /** @type {{worker?: unknown}} */ (message).worker
      if (!(worker instanceof Worker)) return
      const thread = threadOf(worker, callSiteOf(new Error().stack, this.#cwd))
      const onExit = () => { this.#running.delete(thread) }
      this.#running.set(thread, onExit)
      worker.once('exit', onExit)
    } catch {}
  }

  /**
   * @param {boolean | Worker[]} check  what checkWorkersOption() returned
   * @param {{cwd: string}} options
   */
  constructor (check, { cwd }) {
    this.#check = check
    this.#cwd = cwd
    if (Array.isArray(check)) this.#threads = check.map((worker) => threadOf(worker, null))
  }

  /** Starts noting the Workers that start. */
  listen () {
    subscribe('worker_threads', this.#onWorker)
  }

  /** Stops noting them (before the analysis starts a Worker of its own), leaving their Workers as found. */
  close () {
    unsubscribe('worker_threads', this.#onWorker)
    for (const [thread, onExit] of this.#running) thread.worker.off('exit', onExit)
  }

  /**
   * Writes snapshot `index` (1-based) of each thread checked, one thread after the other, so that
   * their peaks never add up. The first snapshot fixes the threads: with `workers: true`, those
   * started so far and still running. A thread that cannot be snapshotted (it exited) is left out
   * of the later snapshots.
   * @param {number} index
   * @param {(thread: WorkerThread) => string} pathOf  where its snapshot goes
   */
  async snapshot (index, pathOf) {
    if (index === 1 && this.#check === true) this.#threads = [...this.#running.keys()]
    this.#snapshotsTaken = index
    for (const thread of this.#threads) {
      if (thread.missed !== null || thread.snapshots.length !== index - 1) continue
      const path = pathOf(thread)
      try {
        await this.#write(thread.worker, path)
        thread.snapshots.push(path)
      } catch (error) {
        thread.missed = thread.worker.threadId === -1 ? `it exited before snapshot ${index}` : `snapshot ${index} failed: ${/** @type {Error} */ (error)?.message ?? error}`
      }
    }
  }

  /**
   * The threads with every snapshot, to diff.
   * @returns {WorkerThread[]}
   */
  complete () {
    return this.#threads.filter((thread) => thread.missed === null && thread.snapshots.length === this.#snapshotsTaken)
  }

  /**
   * What the report should say about the heaps it did not check.
   * @returns {string[]}
   */
  warnings () {
    const warnings = this.#threads.filter((thread) => thread.missed !== null).map((thread) => `${titleOf(thread)} not checked: ${thread.missed}`)
    const checked = new Set(this.#threads.map((thread) => thread.worker))
    const others = [...this.#running.keys()].filter((thread) => !checked.has(thread.worker)).map(titleOf).join(', ')
    if (others !== '') {
      if (this.#check === false) warnings.push(`${others} ran during the calls; a worker's heap is in none of these snapshots (\`workers: true\` checks it)`)
      else if (this.#check === true) warnings.push(`${others} started after the first snapshot: not checked (a thread is diffed from the first snapshot on)`)
      else warnings.push(`${others} ran during the calls and not checked: not in \`workers\``)
    }
    if (this.#check === true && this.#threads.length === 0) warnings.push('`workers: true` found no worker thread running at the first snapshot: it checks the Workers started from the start of the assertion through the warm-up; list older ones (`workers: [worker]`)')
    return warnings
  }

  /**
   * @param {Worker} worker
   * @param {string} path
   */
  async #write (worker, path) {
    try {
      await this.#take(worker, path)
    } catch (error) {
      // A Worker that has not started yet: once it runs (or exits), once more.
      if (/** @type {{code?: unknown}} */ (error)?.code !== 'ERR_WORKER_NOT_RUNNING' || worker.threadId === -1) throw error
      await started(worker)
      await this.#take(worker, path)
    }
  }

  /**
   * @param {Worker} worker
   * @param {string} path
   */
  async #take (worker, path) {
    await pipeline(await worker.getHeapSnapshot(), createWriteStream(path, { mode: 0o600 }))
  }
}

/**
 * `thread 2 (pool), started at test/pool.test.js:12:18` for messages and reports.
 * @param {{threadId: number, name: string | null, startedAt: string | null}} thread
 * @returns {string}
 */
export function titleOf ({ threadId, name, startedAt }) {
  const title = describeThread({ id: threadId, main: false, file: null, name })
  return startedAt === null ? title : `${title}, started at ${startedAt}`
}

/**
 * @param {Worker} worker
 * @param {string | null} startedAt
 * @returns {WorkerThread}
 */
function threadOf (worker, startedAt) {
  const name = /** @type {{threadName?: unknown}} */ (worker).threadName
  return {
    worker,
    threadId: worker.threadId,
    name: typeof name === 'string' && name !== '' ? name : null,
    startedAt,
    snapshots: [],
    missed: null
  }
}

/**
 * The first frame of a stack outside Node's own code and this module: where `new Worker()` was
 * called, since the diagnostics channel publishes from inside the constructor.
 * @param {string | undefined} stack
 * @param {string} cwd
 * @returns {string | null}
 */
function callSiteOf (stack, cwd) {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const text = line.trim().replace(/^at (async )?/, '')
    const location = text.endsWith(')') ? text.slice(text.lastIndexOf('(') + 1, -1) : text
    const match = /^(.+):(\d+):(\d+)$/.exec(location)
    if (match === null || match[1].startsWith('node:') || match[1] === OWN_FILE) continue
    return `${readableScriptName(match[1], cwd)}:${match[2]}:${match[3]}`
  }
  return null
}

/**
 * Resolves when the Worker runs or exits, or after START_WAIT_MS.
 * @param {Worker} worker
 * @returns {Promise<void>}
 */
function started (worker) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      worker.off('online', done)
      worker.off('exit', done)
      resolve()
    }
    const timer = setTimeout(done, START_WAIT_MS)
    timer.unref()
    worker.once('online', done)
    worker.once('exit', done)
  })
}
