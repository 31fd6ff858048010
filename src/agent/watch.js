import { getHeapStatistics } from 'node:v8'
import { measureHeadroom } from './memory-limits.js'
import { formatBytes } from './events.js'

/** @import {WatchConfig} from './config.js' */
/** @import {EventSink} from './events.js' */

/**
 * Why watch mode started a series; written into the series file and every sidecar of the series
 * (`series.trigger`), and read back by the diff report.
 * @typedef {object} WatchTrigger
 * @property {'watch'} kind
 * @property {'growth' | 'time-to-limit' | 'fraction'} reason
 * @property {string} summary         the reason in words, as logged
 * @property {number} bytesPerHour    Theil-Sen slope of the windows' floors (0 when too few windows)
 * @property {number} windows         windows with a floor that the slope was fitted over
 * @property {number} windowMs
 * @property {number} spanMs          from the first of those windows' ends to the last's
 * @property {number} heapAfterGc     the last window's floor, bytes
 * @property {WatchLimit | null} limit  the limit reached first at `bytesPerHour`, if one is known
 */

/**
 * @typedef {object} WatchLimit
 * @property {'heap' | 'memory'} kind  V8's heap size limit, or a limit on the process's memory
 * @property {number} bytes
 * @property {string} source           `heap_size_limit`, or what limits memory (`cgroup v2 limit`, ...)
 * @property {number | null} minutesToLimit  at `bytesPerHour`; null when the heap does not grow
 * @property {number} fraction         how much of it is used now (0-1)
 */

/**
 * @typedef {object} Trend
 * @property {number} bytesPerHour  Theil-Sen slope
 * @property {number} growthBytes   the slope over the span from the first window to the last
 * @property {number} noiseBytes    median distance of the windows from the fitted line
 * @property {boolean} envelopeRising  the least floor of each third of the windows is above the one before
 * @property {number} recentBytesPerHour  Theil-Sen slope of the later half of the windows
 * @property {boolean} steady       growing, rising in every third, still growing at half the rate or
 *   more in the later half, and by more than four times the noise
 */

const HOUR_MS = 3_600_000

/**
 * @param {number[]} values  sorted in place
 * @returns {number}
 */
function median (values) {
  values.sort((a, b) => a - b)
  const mid = values.length >> 1
  return values.length === 0 ? 0 : values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2
}

/**
 * Fits the trend of the heap's floor over windows. The slope is Theil-Sen's (H. Theil 1950;
 * P. K. Sen, "Estimates of the regression coefficient based on Kendall's tau", JASA 63, 1968):
 * the median of the slopes between every pair of windows, which ignores up to 29 % of wild windows.
 * A slope alone still calls a sawtooth, a one-time jump or a cache that filled early a trend (most
 * pairs straddle the jump), so the fit is only `steady` when, besides, the lower envelope rose
 * through the whole span (the least floor of each third of the windows above the third before: a
 * jump leaves two thirds level), the later half of the windows still grows at half the rate or more
 * (a cache that filled and stopped does not), and the growth over the span is more than four times
 * the windows' median distance from the line (a sawtooth's floors scatter as far as they climb).
 * A leak passes all of these; what a busy service swings by it must outgrow.
 * @param {ArrayLike<number>} floors  heap used after GC, one per window, oldest first
 * @param {ArrayLike<number>} times   when each window ended, ms
 * @returns {Trend}
 */
export function fitTrend (floors, times) {
  const n = floors.length
  const perMs = theilSen(floors, times, 0)
  const recentPerMs = theilSen(floors, times, Math.floor(n / 2))
  const residuals = []
  for (let i = 0; i < n; i++) residuals.push(floors[i] - perMs * times[i])
  const intercept = median(residuals.slice())
  for (let i = 0; i < n; i++) residuals[i] = Math.abs(residuals[i] - intercept)
  const noiseBytes = median(residuals)
  const growthBytes = n > 1 ? perMs * (times[n - 1] - times[0]) : 0
  let envelopeRising = n >= 3
  let previous = -Infinity
  for (let third = 0; third < 3 && envelopeRising; third++) {
    let least = Infinity
    for (let i = Math.floor(third * n / 3); i < Math.floor((third + 1) * n / 3); i++) least = Math.min(least, floors[i])
    envelopeRising = least > previous
    previous = least
  }
  return {
    bytesPerHour: perMs * HOUR_MS,
    growthBytes,
    noiseBytes,
    envelopeRising,
    recentBytesPerHour: recentPerMs * HOUR_MS,
    steady: perMs > 0 && envelopeRising && recentPerMs >= perMs / 2 && growthBytes > 4 * noiseBytes
  }
}

/**
 * The median of the slopes between every pair of points from `from` on.
 * @param {ArrayLike<number>} values
 * @param {ArrayLike<number>} times
 * @param {number} from
 * @returns {number}
 */
function theilSen (values, times, from) {
  const slopes = []
  for (let i = from; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      const dt = times[j] - times[i]
      if (dt > 0) slopes.push((values[j] - values[i]) / dt)
    }
  }
  return median(slopes)
}

/**
 * A span of time the way the trigger line says it: 45 s, 25 min, 2.5 h.
 * @param {number} ms
 * @returns {string}
 */
export function formatSpan (ms) {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`
  if (ms < 2 * HOUR_MS) return `${Math.round(ms / 60_000)} min`
  return `${Math.round(ms / HOUR_MS * 10) / 10} h`
}

/**
 * The trigger in one line: `heap after GC grew 14.0 MiB/h for 5 h; heap limit in ~2 h`.
 * @param {Omit<WatchTrigger, 'summary'>} trigger
 * @returns {string}
 */
export function describeTrigger ({ reason, bytesPerHour, spanMs, heapAfterGc, limit }) {
  const limitName = limit === null ? '' : limit.kind === 'heap' ? `the ${formatBytes(limit.bytes)} heap limit` : `the ${formatBytes(limit.bytes)} memory limit`
  if (reason === 'fraction' && limit !== null) {
    return `heap after GC is ${formatBytes(heapAfterGc)}, ${Math.round(limit.fraction * 100)} % of ${limitName}`
  }
  const growth = `heap after GC grew ${formatBytes(bytesPerHour)}/h for ${formatSpan(spanMs)}`
  if (limit === null || limit.minutesToLimit === null) return growth
  return `${growth}; ${limitName} in ~${formatSpan(limit.minutesToLimit * 60_000)}`
}

/**
 * What watch mode waits for, for the ready line: `watching the heap: a series starts by itself when
 * the heap after GC grows 16.0 MiB/h for 1 h or would reach a limit within 30 min`.
 * @param {WatchConfig} watch
 * @returns {string}
 */
export function describeWatch ({ minRateBytesPerHour, windows, windowMs, timeToLimitMs, limitFraction }) {
  const nearLimit = timeToLimitMs > 0 ? ` or would reach a limit within ${formatSpan(timeToLimitMs)}` : ''
  const share = limitFraction !== null ? ` or passes ${Math.round(limitFraction * 100)} % of a limit` : ''
  return `watching the heap: a series starts by itself when the heap after GC grows ${formatBytes(minRateBytesPerHour)}/h for ${formatSpan(windows * windowMs)}${nearLimit}${share}`
}

/**
 * @typedef {object} WatchHooks
 * @property {EventSink} emit
 * @property {() => boolean} busy  a series is being taken (a signal's, or ours)
 * @property {() => Promise<string | null>} preflight  why a series would be refused now, or null
 * @property {(trigger: WatchTrigger) => Promise<unknown>} startSeries  starts a series like a signal does
 * @property {number | null} memoryLimitBytes  the agent's memoryLimitBytes setting
 */

/** Timer ticks per window: each releases the canary if it is held; the last one closes the window. */
const TICKS_PER_WINDOW = 4

/**
 * Watch mode: follows the heap's floor (the least heap used after a major GC in each window) and
 * starts a series when it keeps growing, would reach a limit soon, or passed a share of a limit.
 *
 * How it sees a major GC: a canary, an empty object registered with a FinalizationRegistry, is
 * held strongly for a quarter of a window (long enough to be promoted to the old generation in a
 * process that allocates at all) and then only weakly. Only a major GC collects an old object, so
 * its cleanup callback means one just ran: heap used is read then (v8.getHeapStatistics()) and a
 * new canary planted. In a process so quiet that no scavenge promoted the canary, a scavenge
 * collects it and the reading comes after a minor GC, a little above the floor.
 * A PerformanceObserver on 'gc' entries would see every GC, but Node then makes an entry for every
 * minor GC too, which made an allocation loop take 40-85 % more CPU time (bench/agent-watch-gc.js);
 * the canary costs one object and one callback per major GC.
 *
 * An unref'd timer ticks four times a window. Nothing runs on the host's own code paths, and
 * nothing keeps the process alive. bench/agent-watch.js measures the cost.
 */
export class HeapWatch {
  #config
  #hooks
  /** @type {FinalizationRegistry<number> | null} */
  #registry = null
  /** @type {object | null} the canary while it is held strongly */
  #canary = null
  /** @type {NodeJS.Timeout | null} */
  #timer = null
  #ticks = 0
  /** least heap used after a major GC in the current window; Infinity until one */
  #windowMin = Infinity
  /** floors of the last `windows` windows that saw a major GC, and when those windows ended */
  #floors = /** @type {number[]} */ ([])
  #times = /** @type {number[]} */ ([])
  #heapLimit = getHeapStatistics().heap_size_limit
  #lastStart = -Infinity
  #evaluating = false
  #refusalSaid = false
  #stopped = false
  /** counters for the benchmark and the tests */
  stats = { majorGcs: 0, windows: 0, triggers: 0, refusals: 0 }

  /**
   * @param {WatchConfig} config
   * @param {WatchHooks} hooks
   */
  constructor (config, hooks) {
    this.#config = config
    this.#hooks = hooks
  }

  /**
   * Starts watching.
   * @returns {this}
   */
  start () {
    this.#registry = new FinalizationRegistry(() => {
      try {
        if (this.#stopped) return
        this.#sampleAfterMajorGc()
        this.#plant()
      } catch {}
    })
    this.#plant()
    this.#timer = setInterval(() => {
      try {
        this.#canary = null
        if (++this.#ticks % TICKS_PER_WINDOW === 0) this.#closeWindow()
      } catch {}
    }, Math.max(1, Math.round(this.#config.windowMs / TICKS_PER_WINDOW)))
    this.#timer.unref()
    return this
  }

  /** Stops watching; a series already started runs on. */
  stop () {
    this.#stopped = true
    this.#canary = null
    this.#registry = null
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
  }

  #plant () {
    const canary = {}
    this.#registry?.register(canary, 0)
    this.#canary = canary
  }

  #sampleAfterMajorGc () {
    this.stats.majorGcs++
    // Read when the cleanup task runs, a moment after the GC: the heap may have grown by what was
    // allocated since, never shrunk below the true floor.
    const used = getHeapStatistics().used_heap_size
    if (used < this.#windowMin) this.#windowMin = used
  }

  #closeWindow () {
    this.stats.windows++
    const floor = this.#windowMin
    this.#windowMin = Infinity
    // A window without a major GC has no floor: heap used between major GCs includes garbage that
    // is waiting for one, and it climbs in a service that does not leak at all.
    if (floor === Infinity) return
    this.#floors.push(floor)
    this.#times.push(performance.now())
    if (this.#floors.length > this.#config.windows) {
      this.#floors.shift()
      this.#times.shift()
    }
    if (this.#evaluating || this.#stopped) return
    this.#evaluating = true
    this.#evaluate().catch(() => {}).finally(() => { this.#evaluating = false })
  }

  async #evaluate () {
    const { windows, windowMs, minRateBytesPerHour, timeToLimitMs, limitFraction, cooldownMs } = this.#config
    if (this.#hooks.busy() || performance.now() - this.#lastStart < cooldownMs) return
    const floors = this.#floors
    const n = floors.length
    const heapAfterGc = floors[n - 1]
    const trend = n >= 3 ? fitTrend(floors, this.#times) : null
    const growing = trend !== null && trend.steady && trend.bytesPerHour > 0
    const bytesPerHour = growing ? trend.bytesPerHour : 0
    /** @type {WatchTrigger['reason'] | null} */
    let reason = growing && n >= windows && bytesPerHour >= minRateBytesPerHour ? 'growth' : null
    /** @type {WatchLimit | null} */
    let limit = null
    if (growing || limitFraction !== null) {
      limit = await this.#nearestLimit(heapAfterGc, bytesPerHour)
      const minutesToLimit = limit?.minutesToLimit ?? null
      if (reason === null && timeToLimitMs > 0 && minutesToLimit !== null && minutesToLimit * 60_000 <= timeToLimitMs) reason = 'time-to-limit'
      if (reason === null && limitFraction !== null && limit !== null && limit.fraction >= limitFraction) reason = 'fraction'
    }
    if (reason === null || this.#stopped || this.#hooks.busy()) return
    const fields = { kind: /** @type {const} */ ('watch'), reason, bytesPerHour, windows: n, windowMs, spanMs: this.#times[n - 1] - this.#times[0], heapAfterGc, limit }
    /** @type {WatchTrigger} */
    const trigger = { ...fields, summary: describeTrigger(fields) }
    const refusal = await this.#hooks.preflight()
    if (this.#stopped || this.#hooks.busy()) return
    if (refusal !== null) {
      this.stats.refusals++
      // Said once: the heap keeps growing, so the next windows would only repeat it.
      if (!this.#refusalSaid) {
        this.#refusalSaid = true
        this.#hooks.emit({ type: 'refused', message: `watch: ${trigger.summary}, but no series is started: ${refusal}. Said once; watch mode keeps checking quietly`, trigger })
      }
      return
    }
    this.#refusalSaid = false
    this.#lastStart = performance.now()
    this.stats.triggers++
    this.#hooks.emit({ type: 'watch-trigger', message: `watch: ${trigger.summary}; starting a series`, trigger })
    await this.#hooks.startSeries(trigger).catch(() => {})
  }

  /**
   * The limit the heap reaches first at `bytesPerHour`: V8's heap limit, or a limit on the
   * process's memory (cgroup, process.constrainedMemory(), memoryLimitBytes), RSS growing at least
   * as fast as the heap. With no growth, the one most used.
   * @param {number} heapAfterGc
   * @param {number} bytesPerHour
   * @returns {Promise<WatchLimit | null>}
   */
  async #nearestLimit (heapAfterGc, bytesPerHour) {
    const minutes = (/** @type {number} */ left) => (bytesPerHour > 0 ? Math.max(0, left) / bytesPerHour * 60 : null)
    /** @type {WatchLimit[]} */
    const limits = [{ kind: 'heap', bytes: this.#heapLimit, source: 'heap_size_limit', minutesToLimit: minutes(this.#heapLimit - heapAfterGc), fraction: heapAfterGc / this.#heapLimit }]
    const rss = process.memoryUsage.rss()
    const headroom = await measureHeadroom({ memoryLimitBytes: this.#hooks.memoryLimitBytes, rssBytes: rss })
    if (headroom.limitBytes !== null) {
      limits.push({ kind: 'memory', bytes: headroom.limitBytes, source: headroom.limitSource ?? 'unknown', minutesToLimit: minutes(headroom.availableBytes), fraction: Math.min(1, rss / headroom.limitBytes) })
    }
    limits.sort((a, b) => (a.minutesToLimit ?? Infinity) - (b.minutesToLimit ?? Infinity) || b.fraction - a.fraction)
    return limits[0]
  }
}
