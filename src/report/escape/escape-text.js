// Text for a terminal or a log: names from the heap (class, property, variable and script names)
// can hold anything a program put in a string, including ANSI escape sequences that recolour,
// retitle or rewrite the reader's terminal, carriage returns that overwrite a line, newlines that
// forge one, and bidirectional overrides that show code in another order ("Trojan Source",
// CVE-2021-42574). Each such character becomes a visible escape (`\u001b`, `\n`), as in a
// JavaScript string literal; every other character is kept. The renderer's own colours are added
// after this, so they stay.

// C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional formatting
// characters (Unicode 15, UAX #9: ALM, LRM, RLM, LRE..RLO, LRI..PDI).
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
/** @type {Record<string, string>} */
const SHORT = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * `text` with every control, line-separating and bidirectional character written as an escape.
 * @param {string} text
 * @returns {string}
 */
export function escapeText (text) {
  return text.replace(UNSAFE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

// Fields whose text has lines of its own: a fix's code snippet. Each line is escaped.
const MULTILINE = new Set(['snippet'])

/**
 * A copy of a plain JSON-like value (a report) with every string in it escaped, keys included: a
 * renderer then need not know which of its strings came from the heap.
 * @template T
 * @param {T} value
 * @param {string} [key] the property that holds `value`
 * @returns {T}
 */
export function escapeStrings (value, key = '') {
  if (typeof value === 'string') {
    return /** @type {T} */ (MULTILINE.has(key) ? value.split('\n').map(escapeText).join('\n') : escapeText(value))
  }
  if (Array.isArray(value)) return /** @type {T} */ (value.map((item) => escapeStrings(item, key)))
  if (value === null || typeof value !== 'object') return value
  /** @type {Record<string, unknown>} */
  const copy = {}
  for (const [name, item] of Object.entries(value)) copy[escapeText(name)] = escapeStrings(item, name)
  return /** @type {T} */ (copy)
}
