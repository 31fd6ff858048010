// When watch mode starts a series: the windows' rule (steady growth through every window, a limit
// near at a steady rate, a share of a limit passed), the slots' rule for a limit minutes away, and
// which limit a measure reaches first.
import { fitTrend } from './heap-trend.js'
/** @import {WatchConfig} from './config.js' */
/** @import {Headroom} from './memory-limits.js' */
/** @import {HeapLimit} from './heap-limit.js' */

/**
 * @typedef {object} WatchLimit
 * @property {'heap' | 'memory'} kind  V8's heap limit (its old generation's), or a limit on the process's memory
 * @property {number} bytes
 * @property {string} source           `old generation`, or what limits memory (`cgroup v2 limit`, ...)
 * @property {number | null} minutesToLimit  at `bytesPerHour`; null when the heap does not grow. For the
 *   heap, the time to where V8 may give up (heap-limit.js), before the limit itself
 * @property {number} fraction         how much of it is used now (0-1)
 */

/**
 * The windows' rule, for one measure (the heap's floors, or RSS's): `growth` when the floor grew
 * steadily (fitTrend) through all `windows` windows at `minRateBytesPerHour` or more;
 * `time-to-limit` when, growing steadily, it would reach a limit within `timeToLimitMs`;
 * `fraction` when it passed `limitFraction` of a limit. Null when none holds.
 * @param {number[]} floors  per window, oldest first
 * @param {number[]} times   when each window ended, ms
 * @param {WatchConfig} config
 * @param {(bytesPerHour: number) => WatchLimit} limitAt  the limit the measure reaches first at a rate
 * @returns {{reason: 'growth' | 'time-to-limit' | 'fraction', bytesPerHour: number, limit: WatchLimit | null} | null}
 */
export function judgeWindows (floors, times, { windows, minRateBytesPerHour, timeToLimitMs, limitFraction }, limitAt) {
  const n = floors.length
  const trend = n >= 3 ? fitTrend(floors, times) : null
  const growing = trend !== null && trend.steady && trend.bytesPerHour > 0
  const bytesPerHour = growing ? trend.bytesPerHour : 0
  /** @type {'growth' | 'time-to-limit' | 'fraction' | null} */
  let reason = growing && n >= windows && bytesPerHour >= minRateBytesPerHour ? 'growth' : null
  /** @type {WatchLimit | null} */
  let limit = null
  if (growing || limitFraction !== null) {
    limit = limitAt(bytesPerHour)
    const minutesToLimit = limit?.minutesToLimit ?? null
    if (reason === null && timeToLimitMs > 0 && minutesToLimit !== null && minutesToLimit * 60_000 <= timeToLimitMs) reason = 'time-to-limit'
    if (reason === null && limitFraction !== null && limit !== null && limit.fraction >= limitFraction) reason = 'fraction'
  }
  return reason === null ? null : { reason, bytesPerHour, limit }
}

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
 * The limit a measure reaches first at `bytesPerHour`: for the heap, V8's heap limit or the
 * memory limit (RSS growing at least as fast as the heap), whichever is nearer; for RSS, the
 * memory limit. With no growth, the one most used.
 * @param {'heap' | 'rss'} measure
 * @param {Headroom | null} memory  the memory limit and what is left of it (not null for RSS)
 * @param {number} floor  the measure's last floor
 * @param {number} bytesPerHour
 * @param {HeapLimit} heapLimit  the old generation's (heap-limit.js)
 * @returns {WatchLimit}
 */
export function nearestLimit (measure, memory, floor, bytesPerHour, heapLimit) {
  if (measure === 'rss') return memoryLimitAt(/** @type {Headroom} */ (memory), floor, bytesPerHour)
  const limits = [heapLimitAt(heapLimit, floor, bytesPerHour)]
  if (memory !== null) limits.push(memoryLimitAt(memory, process.memoryUsage.rss(), bytesPerHour))
  limits.sort((a, b) => (a.minutesToLimit ?? Infinity) - (b.minutesToLimit ?? Infinity) || b.fraction - a.fraction)
  return limits[0]
}

/**
 * @param {HeapLimit} heapLimit
 * @param {number} heapAfterGc
 * @param {number} bytesPerHour
 * @returns {WatchLimit}
 */
function heapLimitAt ({ bytes, giveUpBytes }, heapAfterGc, bytesPerHour) {
  return { kind: 'heap', bytes, source: 'old generation', minutesToLimit: minutesAt(giveUpBytes - heapAfterGc, bytesPerHour), fraction: heapAfterGc / bytes }
}

/**
 * @param {Headroom} headroom
 * @param {number} rss
 * @param {number} bytesPerHour
 * @returns {WatchLimit}
 */
function memoryLimitAt (headroom, rss, bytesPerHour) {
  const bytes = /** @type {number} */ (headroom.limitBytes)
  return { kind: 'memory', bytes, source: headroom.limitSource ?? 'unknown', minutesToLimit: minutesAt(headroom.availableBytes, bytesPerHour), fraction: Math.min(1, rss / bytes) }
}

/**
 * @param {number} left  bytes
 * @param {number} bytesPerHour
 * @returns {number | null}
 */
function minutesAt (left, bytesPerHour) {
  return bytesPerHour > 0 ? Math.max(0, left) / bytesPerHour * 60 : null
}
