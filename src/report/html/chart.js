// The heap over the series, as the page draws it (inline SVG): heap used and RSS from the agent's
// sidecars against time, the snapshots' retained totals, and the growth projected to the heap or
// memory limit. Without sidecars the x axis is the snapshot number and only the totals are drawn.
// Axes and labels are worked out here, so the page only maps numbers to pixels.
import { formatBytes, formatDuration } from '../format.js'
/** @import {DiffReport} from '../report-model.js' */

/**
 * @typedef {object} ChartSeries
 * @property {string} key     `heapUsed`, `rss`, `rssProgram` (RSS less what the writes left) or `retained`
 * @property {string} label
 * @property {Array<{x: number, y: number, label: string}>} points
 */

/**
 * One chart: its series on one byte axis, the projection of the rate from the series the limit
 * applies to, and that limit when it is near enough to draw.
 * @typedef {object} ChartView
 * @property {number} yMin
 * @property {number} yMax
 * @property {Array<{value: number, label: string}>} yTicks
 * @property {ChartSeries[]} series
 * @property {{x1: number, y1: number, x2: number, y2: number, series: string} | null} projection
 * @property {{y: number, label: string} | null} limit
 */

/**
 * The charts of a series (one, or two when RSS dwarfs the heap), sharing one x axis.
 * @typedef {object} ChartsView
 * @property {'time' | 'steps'} mode
 * @property {string} xLabel
 * @property {number} xMin
 * @property {number} xMax
 * @property {Array<{value: number, label: string}>} xTicks
 * @property {ChartView[]} charts
 * @property {string[]} notes  what the charts cannot show (no sidecars, no known limit)
 */

/** Beyond this multiple of the largest value drawn, a limit is stated in words, not drawn. */
const LIMIT_IN_VIEW = 3
/** The projection is drawn over at most this multiple of the series' span. */
const PROJECTION_SPANS = 3
/** RSS above this multiple of the largest heap value is drawn in a chart of its own. */
const SCALE_APART = 3
const TIME_STEPS_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800]

/**
 * @param {DiffReport} report
 * @returns {ChartsView}
 */
export function buildChart (report) {
  const { snapshots, rate } = report
  const timed = snapshots.every((s) => s.takenAtSource === 'sidecar' && s.takenAt !== null)
  const start = timed ? Date.parse(/** @type {string} */ (snapshots[0].takenAt)) : 0
  const xs = snapshots.map((s, i) => (timed ? (Date.parse(/** @type {string} */ (s.takenAt)) - start) / 60_000 : i + 1))
  /** @type {ChartSeries[]} */
  const series = []
  const add = (/** @type {string} */ key, /** @type {string} */ label, /** @type {Array<number | null>} */ values) => {
    if (values.every((v) => v !== null)) {
      series.push({ key, label, points: values.map((y, i) => ({ x: xs[i], y: /** @type {number} */ (y), label: formatBytes(/** @type {number} */ (y)) })) })
    }
  }
  if (timed) {
    add('heapUsed', 'Heap used', snapshots.map((s) => s.heapUsed))
    add('rss', 'RSS', snapshots.map((s) => s.rss))
    // What each snapshot write left in the process is the write's, not the program's: RSS less
    // the writes before each point (diff/memory-split.js).
    const around = report.memory?.snapshots.map((s) => s.process) ?? []
    if (around.length === snapshots.length && around.every((p) => p !== null) && around.some((p, i) => i < around.length - 1 && (p?.writeRss ?? 0) > 0)) {
      let left = 0
      add('rssProgram', 'RSS less what the snapshot writes left', around.map((p, i) => {
        const rss = /** @type {number} */ (p?.rss) - left
        left += p?.writeRss ?? 0
        return i === 0 ? /** @type {number} */ (p?.rss) : rss
      }))
    }
  }
  add('retained', 'Retained (snapshot total)', snapshots.map((s) => s.totalSize))

  const notes = []
  if (!timed) notes.push('No agent sidecars: the snapshots\' totals per step (the agent\'s sidecars add heap used, RSS, time and the limit).')
  const lastX = xs[xs.length - 1]
  const span = lastX - xs[0]
  const largest = (/** @type {ChartSeries[]} */ list) => Math.max(...list.flatMap((s) => s.points.map((p) => p.y)))
  // RSS many times the heap would flatten the heap's lines: then it gets a chart of its own.
  const rss = series.filter((s) => s.key === 'rss' || s.key === 'rssProgram')
  const heap = series.filter((s) => s.key !== 'rss' && s.key !== 'rssProgram')
  const groups = rss.length > 0 && largest(rss) > SCALE_APART * largest(heap) ? [heap, rss] : [series]
  let xMax = timed ? lastX : Math.max(lastX, 2)
  // Nothing leaks: no line towards a limit (the text has no time to it either).
  const projected = timed && rate !== null && rate.bytesPerMinute > 0 && span > 0 && report.verdict !== 'clean'
  // A rise drawn from a point the line just fell to would bend it back up by the rate of another
  // series (the totals): the projection then says in words what it cannot draw.
  const fell = projected && falls(series, usedSeries(rate))
  if (fell) notes.push(`${series.find((s) => s.key === usedSeries(rate))?.label} fell in the last step, so the growth rate is not drawn on from it.`)
  const drawn = groups.map((group) => {
    let top = largest(group)
    /** @type {ChartView['projection']} */
    let projection = null
    /** @type {ChartView['limit']} */
    let limit = null
    if (projected) {
      const used = usedSeries(rate)
      const from = group.find((s) => s.key === used)?.points.at(-1)
      if (from && !falls(group, used)) {
        let until = lastX + PROJECTION_SPANS * span
        if (rate.limit && rate.limit.bytes <= LIMIT_IN_VIEW * top) {
          limit = { y: rate.limit.bytes, label: `${rate.limit.kind === 'heap' ? 'heap limit' : `memory limit (${rate.limit.source})`} ${formatBytes(rate.limit.bytes)}` }
          until = Math.min(until, lastX + rate.limit.minutesToLimit)
          top = Math.max(top, rate.limit.bytes)
        }
        // Each limit is reached at its own pace: the JS heap's, or RSS's (diff/growth-rate.js).
        const perMinute = rate.limit?.bytesPerMinute ?? rate.bytesPerMinute
        projection = { x1: from.x, y1: from.y, x2: until, y2: from.y + perMinute * (until - from.x), series: used }
        xMax = Math.max(xMax, until)
        top = Math.max(top, projection.y2)
      }
    }
    return { group, top, projection, limit }
  })
  if (projected && !rate?.limit) notes.push('No heap or memory limit is known, so there is no time to the limit.')
  const writes = report.memory?.growth.writeRss
  if (timed && writes) notes.push(`The snapshot writes themselves left ${formatBytes(writes)} of RSS in the process: that is not the program's growth.`)
  const charts = drawn.map(({ group, top, projection, limit }) => {
    let bottom = Math.min(...group.flatMap((s) => s.points.map((p) => p.y)))
    // From zero unless that flattens the series: then from a round value below the smallest.
    const fromZero = bottom < top / 2
    const yStep = niceStep((top - (fromZero ? 0 : bottom)) / 4 || top / 4 || 1)
    bottom = fromZero ? 0 : Math.floor(bottom / yStep) * yStep
    const yMax = Math.ceil(top / yStep) * yStep || yStep
    /** @type {ChartView['yTicks']} */
    const yTicks = []
    for (let v = bottom; v <= yMax + yStep / 2; v += yStep) yTicks.push({ value: v, label: formatBytes(v) })
    return { series: group, projection, limit, yMin: bottom, yMax, yTicks }
  })
  return {
    mode: timed ? 'time' : 'steps',
    xLabel: timed ? 'time since the first snapshot' : 'snapshot',
    xMin: timed ? 0 : 1,
    xMax,
    xTicks: timed ? timeTicks(xMax) : xs.map((x) => ({ value: x, label: `#${x}` })),
    charts,
    notes
  }
}

/**
 * The series the projection continues: the one the limit is measured on, else the totals.
 * @param {DiffReport['rate']} rate
 */
function usedSeries (rate) {
  return rate?.limit ? (rate.limit.kind === 'heap' ? 'heapUsed' : 'rss') : 'retained'
}

/**
 * Whether series `key` of these ends lower than the point before.
 * @param {ChartSeries[]} series
 * @param {string} key
 */
function falls (series, key) {
  const points = series.find((s) => s.key === key)?.points ?? []
  return points.length >= 2 && points[points.length - 1].y < points[points.length - 2].y
}

/**
 * A round step (1, 2 or 5 times a power of ten) near `raw`, for byte axes.
 * @param {number} raw
 */
function niceStep (raw) {
  const power = 10 ** Math.floor(Math.log10(raw))
  const scaled = raw / power
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power
}

/**
 * Ticks on a time axis in minutes, at a round number of seconds, minutes or hours, six at most.
 * @param {number} max minutes
 */
function timeTicks (max) {
  const seconds = max * 60
  const step = TIME_STEPS_SECONDS.find((s) => seconds / s <= 6) ?? TIME_STEPS_SECONDS[TIME_STEPS_SECONDS.length - 1]
  const ticks = []
  for (let s = 0; s <= seconds + 1e-9; s += step) ticks.push({ value: s / 60, label: s === 0 ? '0' : `+${formatDuration(s * 1000)}` })
  return ticks
}
