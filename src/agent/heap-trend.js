// The trend of the heap's floor over time, fitted so that what a busy service swings by does not
// pass for a leak: the statistics behind watch mode's rules (watch-rules.js).

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
