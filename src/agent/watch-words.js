// Watch mode in words: the ready line's promise and the line that says why a series started.
import { formatBytes } from './events.js'
/** @import {WatchConfig} from './config.js' */
/** @import {WatchTrigger} from './watch.js' */

const HOUR_MS = 3_600_000

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
