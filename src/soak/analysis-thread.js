// The worker thread that diffs assertions' snapshots (analyze-worker.js), kept between assertions
// that follow each other. A thread starts cold: compiling the analysis anew costs about as much CPU
// as the diff of a test process's heap (1 to 1.3 s of the 3.5 s an assertion took, measured on
// three assertions in a row). It is let go once no diff has been asked of it for IDLE_MS, so that
// a process keeps none of its memory (the syntax trees of the sources it read) for long, and it
// never holds the process open.
import { Worker } from 'node:worker_threads'
import { LeakdiffError } from '../errors.js'
/** @import {DiffReport} from '../report/report-model.js' */

const WORKER = new URL('./analyze-worker.js', import.meta.url)
const IDLE_MS = 15_000

/**
 * @typedef {object} AnalysisRequest
 * @property {string[][]} series  snapshot files, one series per thread checked
 * @property {string} cwd
 * @property {{minObjects: number, minBytes: number}} thresholds
 * @property {{sourceMaps: string | null, sourceRoots: string[]}} sources
 */

/** @typedef {{resolve: (reports: DiffReport[]) => void, reject: (error: Error) => void}} Waiter */

/** @type {AnalysisThread | null} */
let current = null

/**
 * Diffs each series on the analysis thread, one after the other.
 * @param {AnalysisRequest} request
 * @returns {Promise<DiffReport[]>}
 */
export function analyzeOnThread (request) {
  current ??= new AnalysisThread()
  return current.analyze(request)
}

class AnalysisThread {
  /** @type {Map<number, Waiter>} */
  #waiting = new Map()
  #next = 0
  /** @type {ReturnType<typeof setTimeout> | null} */
  #idle = null
  #worker

  constructor () {
    // Started clean: the test process's preloads (a TypeScript loader, an APM tracer, coverage
    // hooks: its command line's --import and -r, and NODE_OPTIONS') would run again in it for
    // nothing, and its --input-type would stop it from starting (src/worker-exec-argv.js).
    const { NODE_OPTIONS, ...env } = process.env
    this.#worker = new Worker(WORKER, { execArgv: [], env })
    this.#worker.on('message', (/** @type {{id: number, reports?: DiffReport[], error?: {message: string, code?: string}}} */ message) => {
      const waiter = this.#waiting.get(message.id)
      this.#waiting.delete(message.id)
      this.#settled()
      if (message.reports) waiter?.resolve(message.reports)
      else waiter?.reject(new LeakdiffError(`Expected to diff the assertion's snapshots, but the analysis failed: ${message.error?.message}`, { code: message.error?.code ?? 'LEAKDIFF_ERROR' }))
    })
    this.#worker.once('error', (error) => {
      this.#fail(new LeakdiffError(`Expected to diff the assertion's snapshots, but the analysis thread failed: ${error.message}`, { cause: error }))
    })
    this.#worker.once('exit', (code) => {
      this.#fail(new LeakdiffError(`Expected a report from the analysis thread, but it exited with code ${code}`))
    })
  }

  /**
   * @param {AnalysisRequest} request
   * @returns {Promise<DiffReport[]>}
   */
  analyze (request) {
    if (this.#idle !== null) clearTimeout(this.#idle)
    this.#idle = null
    // Held open while a diff is due, and only then.
    this.#worker.ref()
    const id = this.#next++
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject })
      this.#worker.postMessage({ id, ...request })
    })
  }

  #settled () {
    if (this.#waiting.size > 0) return
    this.#worker.unref()
    this.#idle = setTimeout(() => {
      if (current === this) current = null
      this.#worker.terminate().catch(() => {})
    }, IDLE_MS)
    this.#idle.unref()
  }

  /** @param {Error} error every waiting diff's */
  #fail (error) {
    if (current === this) current = null
    if (this.#idle !== null) clearTimeout(this.#idle)
    for (const waiter of this.#waiting.values()) waiter.reject(error)
    this.#waiting.clear()
  }
}
