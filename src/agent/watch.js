import { getHeapStatistics } from 'node:v8'
import { measureHeadroom } from './memory-limits.js'
/** @import {Headroom} from './memory-limits.js' */
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
 * @property {'heap' | 'rss'} [measure]  what grew: the heap after GC (V8's heap limit), or the
 *   process's RSS (the memory limit: a container's, or memoryLimitBytes); absent means the heap
 * @property {number} [rss]            the last floor of RSS, bytes (with measure 'rss')
 * @property {number} [seriesIntervalMs]  the interval the series was started with, when the time
 *   left was too short for the configured one
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
export function describeTrigger ({ reason, bytesPerHour, spanMs, heapAfterGc, limit, measure = 'heap', rss }) {
  const limitName = limit === null ? '' : limit.kind === 'heap' ? `the ${formatBytes(limit.bytes)} heap limit` : `the ${formatBytes(limit.bytes)} memory limit`
  const what = measure === 'rss' ? 'RSS' : 'heap after GC'
  if (reason === 'fraction' && limit !== null) {
    return `${what} is ${formatBytes(measure === 'rss' ? rss ?? 0 : heapAfterGc)}, ${Math.round(limit.fraction * 100)} % of ${limitName}`
  }
  const growth = `${what} grew ${formatBytes(bytesPerHour)}/h for ${formatSpan(spanMs)}`
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
 * @property {boolean} [watchRss]  also watch the process's RSS against the memory limit (the main
 *   thread's agent does; RSS is the whole process, so one thread watching it is enough)
 * @property {number} [seriesSpanMs]  how long a series takes at the configured interval: a series
 *   started with less time left before the limit gets a shorter interval
 * @property {number} [seriesCount]
 */

/**
 * Timer ticks per window: each releases the canary if it is held and closes a slot (a tenth of a
 * window); the last one closes the window. Slots are what a leak that reaches a limit within
 * minutes is judged on (fastTrigger).
 */
const TICKS_PER_WINDOW = 10
/** Slots kept: three windows' worth, the longest span the adaptive check looks at. */
const MAX_SLOTS = 3 * TICKS_PER_WINDOW
/** The fewest slots a trend is fitted over: a third and a later half need a few points each. */
const MIN_SLOTS = 4
/** The span over which growth was seen must be at least this share of the time it leaves to the limit. */
const SPAN_PER_TIME_LEFT = 1 / 3

/**
 * The adaptive time-to-limit check, over slots (tenths of a window) rather than windows: the
 * nearer the limit at the measured rate, the shorter the span of steady growth it needs. It fits
 * the trend (fitTrend: the same rules that reject a jump, a cache that levels off and a sawtooth)
 * over the last 4, 6, 9, ... slots and triggers on the first span that is steady, reaches the
 * limit within `timeToLimitMs`, and is at least a third of the time left. A leak that reaches a
 * limit in ten minutes is seen after three or four; one that takes hours still needs three windows.
 * @param {number[]} floors  per slot, oldest first
 * @param {number[]} times   when each slot closed, ms
 * @param {{leftBytes: number, timeToLimitMs: number, windowMs: number}} limit  `leftBytes`: what
 *   is left before the limit from the last floor
 * @returns {{bytesPerHour: number, spanMs: number, minutesToLimit: number, slots: number} | null}
 */
export function fastTrigger (floors, times, { leftBytes, timeToLimitMs, windowMs }) {
  const n = floors.length
  for (let m = MIN_SLOTS; m <= n; m = Math.max(m + 1, Math.round(m * 1.5))) {
    const from = n - m
    const spanMs = times[n - 1] - times[from]
    if (spanMs > 3 * windowMs) break
    const trend = fitTrend(floors.slice(from), times.slice(from))
    if (!trend.steady || !(trend.bytesPerHour > 0)) continue
    const minutesToLimit = Math.max(0, leftBytes) / trend.bytesPerHour * 60
    if (minutesToLimit * 60_000 <= timeToLimitMs && spanMs >= SPAN_PER_TIME_LEFT * minutesToLimit * 60_000) {
      return { bytesPerHour: trend.bytesPerHour, spanMs, minutesToLimit, slots: m }
    }
  }
  return null
}

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
 * An unref'd timer ticks ten times a window. Nothing runs on the host's own code paths, and
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
  /** least heap used after a major GC in the current window and slot; Infinity until one */
  #windowMin = Infinity
  #slotMin = Infinity
  /** least RSS read in the current window and slot (at major GCs and ticks) */
  #windowRss = Infinity
  #slotRss = Infinity
  /** floors of the last `windows` windows that saw a major GC, their RSS floors, and when they ended */
  #floors = /** @type {number[]} */ ([])
  #rssFloors = /** @type {number[]} */ ([])
  #times = /** @type {number[]} */ ([])
  /** the same per slot (a tenth of a window), the last MAX_SLOTS */
  #slotFloors = /** @type {number[]} */ ([])
  #slotRssFloors = /** @type {number[]} */ ([])
  #slotTimes = /** @type {number[]} */ ([])
  #heapLimit = getHeapStatistics().heap_size_limit
  #lastStart = -Infinity
  #evaluating = false
  #refusalSaid = false
  #stopped = false
  /** counters for the benchmark and the tests */
  stats = { majorGcs: 0, windows: 0, slots: 0, triggers: 0, refusals: 0 }

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
        this.#sampleRss()
        this.#closeSlot()
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
    if (used < this.#slotMin) this.#slotMin = used
    this.#sampleRss()
  }

  #sampleRss () {
    if (!this.#hooks.watchRss) return
    const rss = process.memoryUsage.rss()
    if (rss < this.#windowRss) this.#windowRss = rss
    if (rss < this.#slotRss) this.#slotRss = rss
  }

  #closeSlot () {
    this.stats.slots++
    const floor = this.#slotMin
    const rss = this.#slotRss
    this.#slotMin = Infinity
    this.#slotRss = Infinity
    if (floor === Infinity) return
    this.#slotFloors.push(floor)
    this.#slotRssFloors.push(rss)
    this.#slotTimes.push(performance.now())
    if (this.#slotFloors.length > MAX_SLOTS) {
      this.#slotFloors.shift()
      this.#slotRssFloors.shift()
      this.#slotTimes.shift()
    }
    // Every window's last slot is judged with the window.
    if ((this.#ticks + 1) % TICKS_PER_WINDOW === 0 || this.#config.timeToLimitMs <= 0) return
    this.#schedule(() => this.#evaluateFast())
  }

  #closeWindow () {
    this.stats.windows++
    const floor = this.#windowMin
    const rss = this.#windowRss
    this.#windowMin = Infinity
    this.#windowRss = Infinity
    // A window without a major GC has no floor: heap used between major GCs includes garbage that
    // is waiting for one, and it climbs in a service that does not leak at all.
    if (floor === Infinity) return
    this.#floors.push(floor)
    this.#rssFloors.push(rss)
    this.#times.push(performance.now())
    if (this.#floors.length > this.#config.windows) {
      this.#floors.shift()
      this.#rssFloors.shift()
      this.#times.shift()
    }
    this.#schedule(async () => {
      await this.#evaluate()
      if (this.#config.timeToLimitMs > 0) await this.#evaluateFast()
    })
  }

  /** @param {() => Promise<void>} evaluation */
  #schedule (evaluation) {
    if (this.#evaluating || this.#stopped) return
    this.#evaluating = true
    evaluation().catch(() => {}).finally(() => { this.#evaluating = false })
  }

  /** Whether a series may start now: none running, and the cooldown over. */
  #mayStart () {
    return !this.#hooks.busy() && performance.now() - this.#lastStart >= this.#config.cooldownMs
  }

  /** The windows' judgement: steady growth for all of them, a limit near at a steady rate, or a share of a limit. */
  async #evaluate () {
    const { windows, windowMs, minRateBytesPerHour, timeToLimitMs, limitFraction } = this.#config
    if (!this.#mayStart()) return
    const n = this.#floors.length
    const memory = await this.#memoryLimit()
    for (const measure of /** @type {const} */ (['heap', 'rss'])) {
      if (measure === 'rss' && (memory === null || !this.#hooks.watchRss)) continue
      const floors = measure === 'heap' ? this.#floors : this.#rssFloors
      const last = floors[n - 1]
      const trend = n >= 3 ? fitTrend(floors, this.#times) : null
      const growing = trend !== null && trend.steady && trend.bytesPerHour > 0
      const bytesPerHour = growing ? trend.bytesPerHour : 0
      /** @type {WatchTrigger['reason'] | null} */
      let reason = growing && n >= windows && bytesPerHour >= minRateBytesPerHour ? 'growth' : null
      /** @type {WatchLimit | null} */
      let limit = null
      if (growing || limitFraction !== null) {
        limit = this.#limitAt(measure, memory, last, bytesPerHour)
        const minutesToLimit = limit?.minutesToLimit ?? null
        if (reason === null && timeToLimitMs > 0 && minutesToLimit !== null && minutesToLimit * 60_000 <= timeToLimitMs) reason = 'time-to-limit'
        if (reason === null && limitFraction !== null && limit !== null && limit.fraction >= limitFraction) reason = 'fraction'
      }
      if (reason === null) continue
      await this.#trigger({ kind: 'watch', reason, bytesPerHour, windows: n, windowMs, spanMs: this.#times[n - 1] - this.#times[0], heapAfterGc: this.#floors[n - 1], limit, ...(measure === 'rss' ? { measure, rss: last } : {}) })
      return
    }
  }

  /** The slots' judgement: a limit near enough that waiting for three windows would be too late (fastTrigger). */
  async #evaluateFast () {
    const { windowMs, timeToLimitMs } = this.#config
    if (!this.#mayStart() || this.#slotFloors.length < 3) return
    const memory = await this.#memoryLimit()
    for (const measure of /** @type {const} */ (['heap', 'rss'])) {
      if (measure === 'rss' && (memory === null || !this.#hooks.watchRss)) continue
      const floors = measure === 'heap' ? this.#slotFloors : this.#slotRssFloors
      const last = floors[floors.length - 1]
      // The heap's growth counts against the memory limit too (RSS grows at least as fast), so it
      // is judged against the nearer of the two.
      const leftBytes = measure === 'heap' ? Math.min(this.#heapLimit - last, memory?.availableBytes ?? Infinity) : /** @type {Headroom} */ (memory).availableBytes
      const found = fastTrigger(floors, this.#slotTimes, { leftBytes, timeToLimitMs, windowMs })
      if (found === null) continue
      const limit = this.#limitAt(measure, memory, last, found.bytesPerHour)
      await this.#trigger({ kind: 'watch', reason: 'time-to-limit', bytesPerHour: found.bytesPerHour, windows: found.slots, windowMs: windowMs / TICKS_PER_WINDOW, spanMs: found.spanMs, heapAfterGc: this.#slotFloors[this.#slotFloors.length - 1], limit, ...(measure === 'rss' ? { measure, rss: last } : {}) })
      return
    }
  }

  /**
   * Starts a series for a trigger, unless one is running, the agent stopped, or the safety checks
   * refuse it (said once while the refusal lasts).
   * @param {Omit<WatchTrigger, 'summary'>} fields
   */
  async #trigger (fields) {
    if (this.#stopped || !this.#mayStart()) return
    const { seriesSpanMs = 0, seriesCount = 1 } = this.#hooks
    const minutesLeft = fields.limit?.minutesToLimit ?? null
    // The series must be on disk well before the limit: within half the time left.
    if (minutesLeft !== null && seriesCount > 1 && seriesSpanMs > minutesLeft * 60_000 / 2) {
      fields = { ...fields, seriesIntervalMs: Math.max(1000, Math.floor(minutesLeft * 60_000 / 2 / (seriesCount - 1))) }
    }
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
    const faster = trigger.seriesIntervalMs === undefined ? '' : ` (${Math.round(trigger.seriesIntervalMs / 100) / 10} s apart, to finish well before the limit)`
    this.#hooks.emit({ type: 'watch-trigger', message: `watch: ${trigger.summary}; starting a series${faster}`, trigger })
    await this.#hooks.startSeries(trigger).catch(() => {})
  }

  /** @returns {Promise<Headroom | null>} the memory limit and what is left of it, or null without one */
  async #memoryLimit () {
    const headroom = await measureHeadroom({ memoryLimitBytes: this.#hooks.memoryLimitBytes, rssBytes: process.memoryUsage.rss() })
    return headroom.limitBytes === null ? null : headroom
  }

  /**
   * The limit a measure reaches first at `bytesPerHour`: for the heap, V8's heap limit or the
   * memory limit (RSS growing at least as fast as the heap), whichever is nearer; for RSS, the
   * memory limit. With no growth, the one most used.
   * @param {'heap' | 'rss'} measure
   * @param {Headroom | null} memory
   * @param {number} floor  the measure's last floor
   * @param {number} bytesPerHour
   * @returns {WatchLimit}
   */
  #limitAt (measure, memory, floor, bytesPerHour) {
    if (measure === 'rss') return this.#memoryLimitAt(/** @type {Headroom} */ (memory), floor, bytesPerHour)
    const limits = [this.#heapLimitAt(floor, bytesPerHour)]
    if (memory !== null) limits.push(this.#memoryLimitAt(memory, process.memoryUsage.rss(), bytesPerHour))
    limits.sort((a, b) => (a.minutesToLimit ?? Infinity) - (b.minutesToLimit ?? Infinity) || b.fraction - a.fraction)
    return limits[0]
  }

  /**
   * @param {number} heapAfterGc
   * @param {number} bytesPerHour
   * @returns {WatchLimit}
   */
  #heapLimitAt (heapAfterGc, bytesPerHour) {
    return { kind: 'heap', bytes: this.#heapLimit, source: 'heap_size_limit', minutesToLimit: minutesAt(this.#heapLimit - heapAfterGc, bytesPerHour), fraction: heapAfterGc / this.#heapLimit }
  }

  /**
   * @param {Headroom} headroom
   * @param {number} rss
   * @param {number} bytesPerHour
   * @returns {WatchLimit}
   */
  #memoryLimitAt (headroom, rss, bytesPerHour) {
    const bytes = /** @type {number} */ (headroom.limitBytes)
    return { kind: 'memory', bytes, source: headroom.limitSource ?? 'unknown', minutesToLimit: minutesAt(headroom.availableBytes, bytesPerHour), fraction: Math.min(1, rss / bytes) }
  }
}

/**
 * @param {number} left  bytes
 * @param {number} bytesPerHour
 * @returns {number | null}
 */
function minutesAt (left, bytesPerHour) {
  return bytesPerHour > 0 ? Math.max(0, left) / bytesPerHour * 60 : null
}
