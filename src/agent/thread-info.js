import * as workerThreads from 'node:worker_threads'

/**
 * Which thread of the process an agent runs in, as sidecars, series files and log lines name it.
 * @typedef {object} ThreadInfo
 * @property {number} id        worker_threads.threadId: 0 for the main thread
 * @property {boolean} main
 * @property {string | null} file  the thread's script: process.argv[1] (in a worker thread Node
 *   puts the worker's own file there)
 * @property {string | null} name  the name given to `new Worker(file, {name})` where this Node tells
 *   a worker its name (`threadName`, newer than Node 20), else the `threadName` option of the agent
 */

/**
 * @param {string | null} [name]  the agent's `threadName` option, if any
 * @returns {ThreadInfo}
 */
export function currentThread (name = null) {
  const own = /** @type {{threadName?: unknown}} */ (workerThreads).threadName
  return {
    id: workerThreads.threadId,
    main: workerThreads.isMainThread,
    file: process.argv[1] ?? null,
    name: name ?? (typeof own === 'string' && own !== '' ? own : null)
  }
}

/**
 * `thread 3 (pool-worker.js)` for log lines; the main thread is `main thread`.
 * @param {ThreadInfo} thread
 * @returns {string}
 */
export function describeThread ({ id, main, file, name }) {
  if (main) return 'main thread'
  const label = name ?? (file === null ? null : file.split(/[\\/]/).pop())
  return `thread ${id}${label ? ` (${label})` : ''}`
}
