import { getHeapStatistics } from 'node:v8'
import { heapLimit } from './heap-limit.js'
import { measureHeadroom } from './memory-limits.js'
import { fastTrigger, judgeWindows, nearestLimit } from './watch-rules.js'
import { describeTrigger } from './watch-words.js'
/** @import {WatchConfig} from './config.js' */
/** @import {EventSink} from './events.js' */
/** @import {Headroom} from './memory-limits.js' */
/** @import {WatchLimit} from './watch-rules.js' */

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
  #heapLimit = heapLimit()
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

  /** The windows' judgement (judgeWindows), for the heap and then for RSS. */
  async #evaluate () {
    const { windowMs } = this.#config
    if (!this.#mayStart()) return
    const n = this.#floors.length
    const memory = await this.#memoryLimit()
    for (const measure of /** @type {const} */ (['heap', 'rss'])) {
      if (measure === 'rss' && (memory === null || !this.#hooks.watchRss)) continue
      const floors = measure === 'heap' ? this.#floors : this.#rssFloors
      const last = floors[n - 1]
      const found = judgeWindows(floors, this.#times, this.#config, (bytesPerHour) => nearestLimit(measure, memory, last, bytesPerHour, this.#heapLimit))
      if (found === null) continue
      const { reason, bytesPerHour, limit } = found
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
      const leftBytes = measure === 'heap' ? Math.min(this.#heapLimit.giveUpBytes - last, memory?.availableBytes ?? Infinity) : /** @type {Headroom} */ (memory).availableBytes
      const found = fastTrigger(floors, this.#slotTimes, { leftBytes, timeToLimitMs, windowMs })
      if (found === null) continue
      const limit = nearestLimit(measure, memory, last, found.bytesPerHour, this.#heapLimit)
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
}
