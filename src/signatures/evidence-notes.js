// Short phrases for a finding's `evidence.notes`: the facts behind a finding that a person needs
// and the counts do not say ("captures res (1.2 MB), req (0.8 MB)", "650 intervals of 30 s"). Cards
// print each note on a line of its own, so a new signature needs no renderer change. Signatures sit
// below the report layer, so the byte formatting the cards use is repeated here in small.

import { formatCount } from '../units.js'

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB']

/**
 * Bytes in SI units as the cards print them, rounded for a phrase: 1.2 MB.
 * @param {number} bytes
 */
export function bytesText (bytes) {
  let value = Math.max(0, bytes)
  let unit = 0
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`
}

/**
 * A count with thousands separators: 12,345.
 * @param {number} count
 */
export function countText (count) {
  return formatCount(count)
}

/**
 * A delay for people: 500 ms, 30 s, 5 min, 2 h.
 * @param {number} ms
 */
export function durationText (ms) {
  if (ms < 1000 || ms % 1000 !== 0) return `${countText(ms)} ms`
  const s = ms / 1000
  if (s < 60 || s % 60 !== 0) return `${countText(s)} s`
  const min = s / 60
  return min < 60 || min % 60 !== 0 ? `${countText(min)} min` : `${countText(min / 60)} h`
}

/**
 * Named things with their bytes, largest first: `res (1.2 MB), req (812 kB)`.
 * @param {Array<{name: string, bytes: number}>} items
 */
export function namedBytes (items) {
  return items.map(({ name, bytes }) => `${name} (${bytesText(bytes)})`).join(', ')
}

/**
 * Named things with their counts: `Promise ×1,200, Timeout ×3`.
 * @param {Array<{name: string, count: number}>} items
 */
export function namedCounts (items) {
  return items.map(({ name, count }) => `${name} ×${countText(count)}`).join(', ')
}

/**
 * The notes that apply: a matcher lists candidate phrases with `condition && phrase`.
 * @param {Array<string | false | null | undefined | 0 | ''>} notes
 * @returns {string[]}
 */
export function notesOf (notes) {
  /** @type {string[]} */
  const kept = []
  for (const note of notes) if (typeof note === 'string' && note !== '') kept.push(note)
  return kept
}
