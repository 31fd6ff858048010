// Number formatting shared by the text and markdown renderers.

import { cutMiddle } from '../cut-text.js'

export { formatBytes, formatCount } from '../units.js'

/**
 * Pads or cuts `text` to `width` columns. Cut text loses its middle (cutMiddle): two long class
 * names that differ at their end stay apart in a table.
 * @param {string} text
 * @param {number} width
 * @param {'left' | 'right'} [align]
 */
export function fit (text, width, align = 'left') {
  if (text.length > width) return cutMiddle(text, Math.max(1, width))
  return align === 'left' ? text.padEnd(width) : text.padStart(width)
}

const BYTE_UNITS = new Map([
  ['', 1], ['b', 1],
  ['k', 1e3], ['kb', 1e3], ['m', 1e6], ['mb', 1e6], ['g', 1e9], ['gb', 1e9],
  ['kib', 1024], ['mib', 1024 ** 2], ['gib', 1024 ** 3]
])

/**
 * Reads a size the way people write it: `65536`, `64kB`, `2 MB`, `1.5GiB` (SI units are powers of
 * 1000, as formatBytes prints them; KiB, MiB, GiB are powers of 1024). Returns NaN for anything else.
 * @param {string | number} text
 */
export function parseBytes (text) {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? text : NaN
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text)
  const factor = match ? BYTE_UNITS.get(match[2].toLowerCase()) : undefined
  return match && factor !== undefined ? Math.round(Number(match[1]) * factor) : NaN
}

/**
 * A duration for people, to two units at most: `45 s`, `12 min`, `3 h 10 min`, `4 days 6 h`.
 * @param {number} minutes
 */
export function formatDuration (minutes) {
  const seconds = Math.round(minutes * 60)
  if (seconds < 60) return `${seconds} s`
  const whole = Math.round(minutes)
  if (whole < 60) return `${whole} min`
  const hours = Math.floor(whole / 60)
  if (hours < 48) return whole % 60 === 0 ? `${hours} h` : `${hours} h ${whole % 60} min`
  const days = Math.floor(hours / 24)
  return hours % 24 === 0 ? `${days} days` : `${days} days ${hours % 24} h`
}
