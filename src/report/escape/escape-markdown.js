// Markdown for a pull-request comment or a GitHub step summary (GitHub Flavored Markdown, which also
// renders inline HTML). A name from the heap must read as the name: not bold, a link, an image, a
// table cell boundary, an HTML element or a mention. Control characters are escapeText's job and
// are gone before text gets here (a newline would end a table row or a list item).

// Characters that start or end inline syntax: emphasis, code, links and images, tables,
// strikethrough, autolinks, mentions; `<`, `>` and `&` become entities so that no HTML is formed.
const INLINE = /[\\`*_[\]|~@#!<>&]/g
/** @type {Record<string, string>} */
const ENTITIES = { '<': '&lt;', '>': '&gt;', '&': '&amp;' }

/**
 * `text` for running Markdown text (a paragraph, a list item, a table cell).
 * @param {string} text
 * @returns {string}
 */
export function markdownText (text) {
  return text.replace(INLINE, (c) => ENTITIES[c] ?? `\\${c}`)
}

/**
 * `text` as a code span: delimited by more backticks than it holds in a row (CommonMark 6.1), so
 * that no backtick in it ends the span; nothing inside a code span is markup.
 * @param {string} text
 * @param {{cell?: boolean}} [options] cell: the span is in a table cell, where GFM splits at every
 *   unescaped `|`, even inside code
 * @returns {string}
 */
export function markdownCode (text, { cell = false } = {}) {
  const body = cell ? text.replaceAll('|', '\\|') : text
  const fence = '`'.repeat(longestRun(body, '`') + 1)
  const pad = body.startsWith('`') || body.endsWith('`') || body === '' ? ' ' : ''
  return `${fence}${pad}${body}${pad}${fence}`
}

/**
 * A fenced code block whose fence no line of `code` can close (CommonMark 4.5).
 * @param {string} code
 * @param {string} [language]
 * @returns {string[]} lines
 */
export function markdownFence (code, language = '') {
  const fence = '`'.repeat(Math.max(3, longestRun(code, '`') + 1))
  return [fence + language, ...code.split('\n'), fence]
}

/** @param {string} text @param {string} c */
function longestRun (text, c) {
  let longest = 0
  let run = 0
  for (const char of text) {
    run = char === c ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest
}
