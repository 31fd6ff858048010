// Sizes and counts as every report prints them; below the layers, so that the diff's verdict
// reasons read like the rest of the report.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB']

/**
 * Bytes in SI units, as DevTools and `ls -h --si` print them: 1.2 MB.
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
  const text = Math.abs(count).toLocaleString('en-US')
  return (count < 0 ? '-' : sign && count > 0 ? '+' : '') + text
}
