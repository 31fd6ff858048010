// Diffs of committed fixture snapshots, made for every test thread of an AVA run by a few threads
// of AVA's own process that live as long as the run. A test thread (a file, or a suite of them) starts
// cold: its first diffs run in V8's interpreter and pay for their compilation (about three times the
// CPU of the same diff in a warm thread, measured on the fixture cases), and most test files make
// only a few. Here the same two threads make all of them, warm after their first few, and each
// diff once per run whichever test files ask for it.
//
// ava.config.js calls startDiffService() in AVA's main process and hands the channel's name to
// the test threads (LEAKDIFF_DIFF_SERVICE); requestDiff() asks over a BroadcastChannel, which
// reaches every thread of the process, and gets the report's JSON back on a channel of its own.
// The service's threads start on the first request, so a run that asks for no diff costs nothing.
import { availableParallelism } from 'node:os'
import { BroadcastChannel, threadId, Worker } from 'node:worker_threads'

const SERVICE_THREAD = new URL('./diff-service-thread.js', import.meta.url)

/**
 * @typedef {object} DiffRequest
 * @property {number} id       per asking thread
 * @property {string} replyTo  the asking thread's channel
 * @property {string} key      what makes two requests the same diff
 * @property {'diff' | 'inspect'} kind  an inspect of `files[0]`, or a diff of them
 * @property {string[]} files
 * @property {Record<string, unknown>} options  plain data (diffSnapshots' options)
 */

/** @typedef {{json: string} | {error: {message: string, code?: string}}} DiffReply */

/**
 * Starts listening for diff requests in this (AVA's main) process.
 * @returns {string} the channel's name, for requestDiff in the test threads
 */
export function startDiffService () {
  const name = `leakdiff-test-diffs-${process.pid}`
  const channel = new BroadcastChannel(name)
  /** @type {Map<string, Promise<DiffReply>>} */
  const replies = new Map()
  /** @type {ServiceThread[]} */
  const threads = []
  channel.onmessage = (/** @type {any} */ event) => {
    const request = /** @type {DiffRequest} */ (event.data)
    let reply = replies.get(request.key)
    if (!reply) {
      if (threads.length === 0) {
        for (let i = 0; i < Math.max(1, Math.min(2, availableParallelism())); i++) threads.push(new ServiceThread())
      }
      // The thread with the fewest diffs waiting.
      const thread = threads.reduce((a, b) => (b.pending < a.pending ? b : a))
      reply = thread.diff(request.files, request.options, request.kind)
      replies.set(request.key, reply)
    }
    reply.then((answer) => {
      const back = new BroadcastChannel(request.replyTo)
      back.postMessage({ id: request.id, ...answer })
      back.close()
    })
  }
  // AVA's process ends when its tests do, whatever the service still holds (after onmessage,
  // which refs the channel).
  channel.unref()
  return name
}

class ServiceThread {
  /** @type {Map<number, (reply: DiffReply) => void>} */
  #waiting = new Map()
  #next = 0
  #worker = new Worker(SERVICE_THREAD)
  /** why the thread can take no more requests; null while it can */
  #gone = /** @type {string | null} */ (null)

  constructor () {
    this.#worker.on('message', (/** @type {{n: number} & DiffReply} */ { n, ...reply }) => {
      this.#waiting.get(n)?.(reply)
      this.#waiting.delete(n)
    })
    const fail = (/** @type {string} */ message) => {
      this.#gone ??= message
      for (const settle of this.#waiting.values()) settle({ error: { message } })
      this.#waiting.clear()
    }
    this.#worker.on('error', (error) => fail(`The diff service's thread failed: ${error.message}`))
    this.#worker.on('exit', (code) => fail(`The diff service's thread exited (${code})`))
    // After the listeners, which ref it.
    this.#worker.unref()
  }

  /** Diffs waiting; a thread that is gone counts as the busiest. */
  get pending () {
    return this.#gone === null ? this.#waiting.size : Infinity
  }

  /**
   * @param {string[]} files
   * @param {Record<string, unknown>} options
   * @param {'diff' | 'inspect'} kind
   * @returns {Promise<DiffReply>}
   */
  diff (files, options, kind) {
    if (this.#gone !== null) return Promise.resolve({ error: { message: this.#gone } })
    const n = this.#next++
    return new Promise((resolve) => {
      this.#waiting.set(n, resolve)
      this.#worker.postMessage({ n, kind, files, options })
    })
  }
}

/** @type {BroadcastChannel | null} */
let requests = null
/** @type {BroadcastChannel | null} */
let replies = null
/** @type {Map<number, {resolve: (json: string) => void, reject: (error: Error) => void}>} */
const asked = new Map()
let nextId = 0

/**
 * The JSON of diffSnapshots(files, options), or of inspectSnapshot(files[0], options), made by the
 * service that ava.config.js started.
 * @param {string} service the channel's name (LEAKDIFF_DIFF_SERVICE)
 * @param {string} key the same for two requests of the same report
 * @param {string[]} files
 * @param {Record<string, unknown>} options plain data
 * @param {'diff' | 'inspect'} [kind]
 * @returns {Promise<string>}
 */
export function requestDiff (service, key, files, options, kind = 'diff') {
  if (requests === null || replies === null) {
    requests = new BroadcastChannel(service)
    requests.unref()
    replies = new BroadcastChannel(`${service}-${threadId}`)
    replies.onmessage = (/** @type {any} */ event) => {
      const { id, ...reply } = /** @type {{id: number} & DiffReply} */ (event.data)
      const waiter = asked.get(id)
      asked.delete(id)
      if (asked.size === 0) replies?.unref()
      if (!waiter) return
      if ('json' in reply) waiter.resolve(reply.json)
      else waiter.reject(Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}))
    }
  }
  const id = nextId++
  // Listening holds this thread open while an answer is due, and only then.
  replies.ref()
  const answer = new Promise((resolve, reject) => asked.set(id, { resolve, reject }))
  requests.postMessage(/** @satisfies {DiffRequest} */ ({ id, replyTo: `${service}-${threadId}`, key, kind, files, options }))
  return /** @type {Promise<string>} */ (answer)
}
