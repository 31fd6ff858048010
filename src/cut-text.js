// Shortening text for a person without losing what tells two values apart. Below the layers, like
// units.js, so that every layer cuts the same way.
//
// Keys, URLs and paths differ at their end (`…/page.js?v=12` and `…/page.js?v=13`), and their start
// is the checkout's directory, the same for all of them and as long as wherever the code lives: a
// cut that keeps the start shows two different keys as one, and does so only on machines with long
// paths. So the middle goes, and the end keeps twice the room of the start.

/** The mark put where characters were taken out. */
export const CUT_MARK = '…'

/**
 * `text` when it is at most `max` characters long, else its start and its end around `…`, `max`
 * characters in all, two thirds of them from the end. A surrogate pair is never split.
 * @param {string} text
 * @param {number} max at least 1
 * @returns {string}
 */
export function cutMiddle (text, max) {
  if (text.length <= max) return text
  if (max <= 1) return CUT_MARK
  let head = Math.floor((max - 1) / 3)
  let tail = max - 1 - head
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head--
  if (tail > 0 && isLowSurrogate(text.charCodeAt(text.length - tail))) tail--
  return `${text.slice(0, head)}${CUT_MARK}${tail === 0 ? '' : text.slice(-tail)}`
}

/** @param {number} code */
function isHighSurrogate (code) {
  return code >= 0xd800 && code <= 0xdbff
}

/** @param {number} code */
function isLowSurrogate (code) {
  return code >= 0xdc00 && code <= 0xdfff
}

/**
 * V8's default --heap-snapshot-string-limit: the snapshot holds every string value and name cut to
 * this many characters, and says nothing of the cut. A text this long may have lost its end.
 */
export const SNAPSHOT_STRING_LIMIT = 1024

/**
 * Whether a string read from a heap snapshot may be cut at the snapshot's string limit, so that
 * what it ends with (a query, a file name) is not known.
 * @param {string} text
 */
export function mayBeCutBySnapshot (text) {
  return text.length >= SNAPSHOT_STRING_LIMIT
}
