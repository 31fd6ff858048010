// This thread's part of a series, on disk: the series file (written "running" first and with its
// end last, so that a reader that sees "complete" finds every file in place), each snapshot and its
// sidecar, allocation sampling over the series, pruning of old files, and the events that say so.
import { basename } from 'node:path'
import { hostname } from 'node:os'
import { CaptureError } from '../errors.js'
import { startSampler } from './alloc-sampler.js'
import { captureSnapshot, describeError } from './capture-snapshot.js'
import { resolveConfig } from './config.js'
import { formatBytes, formatInterval } from './events.js'
import { seriesFileNames } from './file-names.js'
import { ensureDirectory, writeFileAtomic } from './fs-safe.js'
import { pruneSnapshots, removeStalePartials } from './retention.js'
import { describeThread } from './thread-info.js'
/** @import {AllocationSampler} from './alloc-sampler.js' */
/** @import {AgentConfig} from './config.js' */
/** @import {EventSink} from './events.js' */
/** @import {SeriesTrigger} from './start-agent.js' */
/** @import {ThreadInfo} from './thread-info.js' */
/** @import {WriteCostModel} from './write-cost.js' */

/**
 * A series being written by this thread (SeriesWriter#open).
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

/**
 * @typedef {object} SeriesResult
 * @property {string} id            `<pid>-<start stamp>`
 * @property {string} seriesFile    the series file, status "complete"
 * @property {string[]} snapshots   snapshot paths in order
 * @property {string[]} sidecars    their .meta.json paths
 */

/** Writes this thread's series, one at a time, for the agent (start-agent.js). */
export class SeriesWriter {
  #config
  #emit
  #cost
  #owner
  #thread
  #stopped
  #sampling
  /** @type {{id: string, written: number, count: number} | null} the series being written, and how far */
  #current = null

  /**
   * @param {object} agent  what the writer reads of the agent it writes for
   * @param {Readonly<AgentConfig>} agent.config
   * @param {EventSink} agent.emit
   * @param {WriteCostModel} agent.cost
   * @param {() => ThreadInfo} agent.thread  the thread, read each time (Agent#thread)
   * @param {() => boolean} agent.stopped  whether the agent was stopped
   * @param {() => Promise<AllocationSampler | null> | null} agent.sampling  the sampling that runs
   *   from start to stop ('always'), if any
   */
  constructor ({ config, emit, cost, thread, stopped, sampling }) {
    this.#config = config
    this.#emit = emit
    this.#cost = cost
    this.#thread = thread
    this.#stopped = stopped
    this.#sampling = sampling
    this.#owner = { pid: process.pid, threadId: thread().id, inFlight: new Set() }
  }

  /** The series being written and how far it is, or null. */
  get current () {
    return this.#current
  }

  /**
   * The files and record of a new series of this thread. Nothing is written yet.
   * @param {{count: number, intervalMs: number, trigger: SeriesTrigger, startedAt: Date, mainSeries: string | null}} input
   *   mainSeries: in a worker thread, the main thread's series this one is part of
   */
  open ({ count, intervalMs, trigger, startedAt, mainSeries }) {
    const { dir, gzip, keep } = resolveConfig({ ...this.#config, count, intervalMs })
    const plan = seriesFileNames({ dir, pid: process.pid, startedAt, count, gzip, threadId: this.#thread().id })
    const current = { id: plan.id, written: 0, count }
    this.#current = current
    /** @type {SeriesResult} */
    const result = { id: plan.id, seriesFile: plan.seriesFile, snapshots: [], sidecars: [] }
    const record = {
      schemaVersion: 1,
      kind: 'leakdiff-series',
      id: plan.id,
      pid: process.pid,
      thread: this.#thread(),
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
    this.#emit({ type: 'series-start', message: `series ${plan.id} started: ${count} snapshot${count === 1 ? '' : 's'} ${count > 1 ? `${formatInterval(intervalMs)} apart ` : ''}to ${dir}${this.#thread().main ? '' : ` (${describeThread(this.#thread())})`}`, seriesId: plan.id, count })
    /** @type {OpenSeries} */
    const series = { dir, gzip, keep, count, intervalMs, plan, current, result, record, trigger, mainSeries, totalBytes: 0, sampler: null, spanning: null, extraIds: [] }
    return series
  }

  /**
   * Makes the directory, cleans up, writes the series file ("running") and starts sampling.
   * @param {OpenSeries} series
   */
  async prepare (series) {
    const { dir, plan, record } = series
    series.spanning = await this.#sampling()
    await ensureDirectory(dir)
    await removeStalePartials(dir, this.#owner)
    await writeFileAtomic(plan.seriesFile, JSON.stringify(record, null, 2) + '\n', this.#owner)
    series.sampler = series.spanning ?? await startSampler(this.#config, this.#emit, plan.id)
  }

  /**
   * Writes snapshot `index` of a series; throws a CaptureError when it is refused or fails.
   * @param {OpenSeries} series
   * @param {number} index
   * @param {boolean} keepAlive
   */
  async writeOne (series, index, keepAlive) {
    const { dir, gzip, count, intervalMs, plan, record, trigger, mainSeries } = series
    const info = { id: plan.id, index, count, intervalMs, startedAt: record.startedAt, trigger, ...(mainSeries === null ? {} : { mainSeries }) }
    const where = { seriesId: plan.id, index, count }
    let captured
    try {
      captured = await captureSnapshot({ config: { ...this.#config, dir, gzip }, cost: this.#cost, owner: this.#owner, snapshotPath: plan.snapshots[index - 1].replace(/\.gz$/, ''), series: info, emit: this.#emit, keepAlive, sampler: series.sampler, thread: this.#thread() })
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
  asFailure (error, { plan, dir }) {
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
  async close (series, failure, prune) {
    const { dir, keep, count, plan, record, result, sampler, spanning } = series
    if (sampler !== spanning) await sampler?.stop()
    record.status = failure === null ? 'complete' : this.#stopped() ? 'stopped' : 'failed'
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
}
