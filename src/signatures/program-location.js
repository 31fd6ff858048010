// Source locations the matchers weigh: whether one is the program's, the key closures of one
// function share, and the location most of some code comes from.

/** @import {SourceLocation} from './finding.js' */

/**
 * Whether a location is in the program (or its dependencies) rather than in Node's own modules.
 * @param {SourceLocation | null} location
 * @returns {location is SourceLocation}
 */
export function isProgramLocation (location) {
  return location !== null && !location.file.startsWith('node:')
}

/**
 * The key closures of one function share across snapshots of one process.
 * @param {SourceLocation} location
 */
export function locationKey (location) {
  return `${location.file}:${location.line}:${location.column}`
}

/**
 * The location most of the given code comes from: the tally behind "N of the new listeners come
 * from this function".
 * @param {Iterable<{location: SourceLocation, count: number}>} located  one entry per located item
 * @returns {{location: SourceLocation, count: number, total: number} | null}  total: all counts
 */
export function mostCommonLocation (located) {
  /** @type {Map<string, {location: SourceLocation, count: number}>} few entries: one per source location */
  const byKey = new Map()
  let total = 0
  for (const { location, count } of located) {
    total += count
    const key = locationKey(location)
    const tally = byKey.get(key)
    if (tally) tally.count += count
    else byKey.set(key, { location, count })
  }
  let best = null
  for (const tally of byKey.values()) if (best === null || tally.count > best.count) best = tally
  return best === null ? null : { ...best, total }
}
