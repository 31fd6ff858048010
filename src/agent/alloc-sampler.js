// V8's sampling heap profiler, run through an in-process inspector session (no --inspect port)
// while a series is taken. V8 records the JS stack of about one allocation per `intervalBytes`
// (a Poisson process with that mean) and, with the two includeObjectsCollectedBy* flags false,
// drops a sample when its object dies: the profile read at a snapshot holds the stacks of
// sampled objects still alive then, in the format DevTools opens (`.heapprofile`).

import { basename } from 'node:path'
import { writeFileAtomic } from './fs-safe.js'

/** @import {Session} from 'node:inspector' */
/** @import {EventSink} from './events.js' */

/**
 * @typedef {object} SamplingProfile  HeapProfiler.SamplingHeapProfile (Chrome DevTools protocol)
 * @property {object} head
 * @property {Array<{size: number, nodeId: number, ordinal: number}>} samples
 */

/**
 * The thread's one inspector session, connected at the first sampling run and never closed: when a
 * session disconnects, V8 forgets the id it gave every object (the inspector's HeapProfiler.disable,
 * which a disconnect runs, clears them), and the snapshots of the next series could not be matched
 * with those of this one. A session does nothing between runs.
 * @type {Session | undefined}
 */
let threadSession

/**
 * @param {typeof import('node:inspector')} inspector
 * @returns {Session}
 */
function sessionOf (inspector) {
  if (threadSession === undefined) {
    const session = new inspector.Session()
    session.connect()
    threadSession = session
  }
  return threadSession
}

/**
 * One sampling run. `start` resolves with a sampler, or with the reason there is none (no
 * inspector in this build, the profiler already run by someone else): never throws.
 */
export class AllocationSampler {
  /** @type {string} names this sampling run: sample ordinals compare only within one run */
  run
  #session
  #stopped = false

  /**
   * @param {Session} session connected, HeapProfiler enabled and sampling
   * @param {string} run
   */
  constructor (session, run) {
    this.#session = session
    this.run = run
  }

  /**
   * Starts sampling. The profiler is one per isolate and the protocol lets any session stop it, so
   * when another session (a debugger) is already sampling, this one leaves it alone.
   * @param {{intervalBytes: number, run: string}} options
   * @returns {Promise<{sampler: AllocationSampler} | {reason: string}>}
   */
  static async start ({ intervalBytes, run }) {
    try {
      const inspector = await import('node:inspector')
      const session = sessionOf(inspector)
      await post(session, 'HeapProfiler.enable')
      const running = await post(session, 'HeapProfiler.getSamplingProfile').then(() => true, () => false)
      if (running) return { reason: 'the sampling heap profiler is already running in this process (a debugger?), so it was left alone' }
      await post(session, 'HeapProfiler.startSampling', {
        samplingInterval: intervalBytes,
        includeObjectsCollectedByMajorGC: false,
        includeObjectsCollectedByMinorGC: false
      })
      return { sampler: new AllocationSampler(session, run) }
    } catch (error) {
      return { reason: error instanceof Error ? error.message : String(error) }
    }
  }

  /**
   * The samples still alive now, as JSON text in DevTools' `.heapprofile` format.
   * @returns {Promise<string>}
   */
  async profileText () {
    const { profile } = /** @type {{profile: SamplingProfile}} */ (await post(this.#session, 'HeapProfiler.getSamplingProfile'))
    return JSON.stringify(profile)
  }

  /** Stops sampling and lets the samples go; safe to call twice. The session stays (sessionOf). */
  async stop () {
    if (this.#stopped) return
    this.#stopped = true
    try {
      await post(this.#session, 'HeapProfiler.stopSampling')
    } catch {}
  }
}

/**
 * @param {Session} session
 * @param {string} method
 * @param {object} [params]
 * @returns {Promise<unknown>}
 */
function post (session, method, params = {}) {
  return new Promise((resolve, reject) => {
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

/**
 * Starts sampling when the settings ask for it; a sampler that cannot start is one `config`
 * event and no sampling, never a failed series.
 * @param {{allocSampling: boolean | 'always', allocSamplingInterval: number}} config
 * @param {EventSink} emit
 * @param {string} run  the series id, or the agent's for sampling that spans series
 * @returns {Promise<AllocationSampler | null>}
 */
export async function startSampler ({ allocSampling, allocSamplingInterval }, emit, run) {
  if (!allocSampling) return null
  const started = await AllocationSampler.start({ intervalBytes: allocSamplingInterval, run })
  if ('sampler' in started) return started.sampler
  emit({ type: 'config', message: `no allocation sampling (${run}): ${started.reason}` })
  return null
}

/**
 * Reads the live samples now (right after a snapshot's write, whose full GC let the dead ones go)
 * and returns a function that saves them, atomic and owner-only, as `path`. Failures are one
 * `error` event each and no profile.
 * @param {AllocationSampler | null} sampler
 * @param {string} path
 * @param {{pid: number, threadId?: number, inFlight: Set<string>}} owner
 * @param {EventSink} emit
 * @param {{seriesId: string, index: number, count: number}} where
 * @returns {Promise<() => Promise<{file: string, run: string} | null>>} resolves with the saved
 *   file's base name and the sampling run, or null
 */
export async function readProfileFor (sampler, path, owner, emit, where) {
  if (sampler === null) return async () => null
  /** @param {unknown} error */
  const fail = (error) => {
    emit({ type: 'error', message: `allocation samples of snapshot ${where.index} of ${where.count} not saved: ${error instanceof Error ? error.message : String(error)}`, ...where, error })
    return null
  }
  let text
  try {
    text = await sampler.profileText()
  } catch (error) {
    return async () => fail(error)
  }
  return async () => {
    try {
      await writeFileAtomic(path, text, owner)
      return { file: basename(path), run: sampler.run }
    } catch (error) {
      return fail(error)
    }
  }
}
