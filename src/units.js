// The units people read and write: sizes and durations, parsed and printed one way in the CLI,
// the agent (its environment variables), the API (assertNoLeak's sizes) and every report. A leaf
// module below every layer, node-free, so that the agent may import it too.
//
// Sizes: kB, MB, GB, TB are powers of 1000 and KiB, MiB, GiB, TiB powers of 1024 (IEC 80000-13;
// case does not matter); B or no unit is bytes. Single letters (`512m`, `2g`) are refused: Docker
// and the JVM read them as powers of 1024, `ls -h --si` as powers of 1000, so either reading would
// surprise someone. Sizes are printed in SI units (1.2 MB), as Chrome DevTools prints them, so
// that a report's numbers match what the same snapshot shows there.

const SIZE_UNITS = new Map([
  ['', 1], ['b', 1],
  ['kb', 1e3], ['mb', 1e6], ['gb', 1e9], ['tb', 1e12],
  ['kib', 2 ** 10], ['mib', 2 ** 20], ['gib', 2 ** 30], ['tib', 2 ** 40]
])

/** What a size looks like, for messages: `--max-growth expects ${SIZE_EXAMPLES}, got ...`. */
export const SIZE_EXAMPLES = 'a size such as 65536, 64kB, \'2 MB\' or 1MiB'

/**
 * Reads a size: `65536` (bytes), `64kB`, `2 MB`, `1.5GiB`, or a number of bytes >= 0.
 * @param {string | number} text
 * @returns {number | undefined} whole bytes, or undefined when `text` is not a size
 */
export function parseSize (text) {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? Math.round(text) : undefined
  if (typeof text !== 'string') return undefined
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i.exec(text)
  const factor = match ? SIZE_UNITS.get(match[2].toLowerCase()) : undefined
  if (match === null || factor === undefined) return undefined
  const bytes = Math.round(Number(match[1]) * factor)
  return Number.isSafeInteger(bytes) ? bytes : undefined
}

const DURATION_UNITS = new Map([['ms', 1], ['s', 1000], ['m', 60_000], ['min', 60_000], ['h', 3_600_000], ['d', 86_400_000]])

/**
 * Reads a duration: `500ms`, `60s`, `2m` or `2min`, `1.5h`, `1d`, or a bare number of seconds.
 * @param {string} text
 * @returns {number | undefined} whole milliseconds, or undefined when `text` is not a duration
 */
export function parseDuration (text) {
  if (typeof text !== 'string') return undefined
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i.exec(text)
  const factor = match ? DURATION_UNITS.get((match[2] || 's').toLowerCase()) : undefined
  if (match === null || factor === undefined) return undefined
  return Math.round(Number(match[1]) * factor)
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB']

/**
 * Bytes in SI units, as DevTools and `ls -h --si` print them: 1.2 MB, three significant digits.
 * @param {number} bytes
 * @param {{sign?: boolean}} [options] sign: prefix + for positive values
 */
export function formatBytes (bytes, { sign = false } = {}) {
  const negative = bytes < 0
  let value = Math.abs(bytes)
  let unit = 0
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  const text = unit === 0 ? `${value} ${UNITS[0]}` : `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ${UNITS[unit]}`
  return (negative ? '-' : sign && bytes > 0 ? '+' : '') + text
}

/**
 * A count with thousands separators: 12,345.
 * @param {number} count
 * @param {{sign?: boolean}} [options]
 */
export function formatCount (count, { sign = false } = {}) {
  const text = groupDigits(Math.abs(count))
  return (count < 0 ? '-' : sign && count > 0 ? '+' : '') + text
}

/**
 * A number as `toLocaleString('en-US')` writes it (digits in groups of three, at most three
 * decimals), without Intl: its first use loads ICU's data, about 30 ms of CPU in every process and
 * thread that prints a count.
 * @param {number} n  >= 0
 */
function groupDigits (n) {
  if (!Number.isFinite(n) || n >= 1e21) return n.toLocaleString('en-US')
  const [whole, fraction] = String(Number.isInteger(n) ? n : Math.round(n * 1000) / 1000).split('.')
  return whole.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction === undefined ? '' : `.${fraction}`)
}

/**
 * A duration for people, to two units at most: `400 ms`, `45 s`, `12 min`, `3 h 10 min`,
 * `4 days 6 h`, rounded to the second (from half a second, which would read `0 s`), the minute,
 * then the hour.
 * @param {number} ms
 */
export function formatDuration (ms) {
  if (ms < 500) return `${Math.round(ms)} ms`
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.round(ms / 60_000)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
  const days = Math.floor(hours / 24)
  return hours % 24 === 0 ? `${days} days` : `${days} days ${hours % 24} h`
}
