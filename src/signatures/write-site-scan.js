// Finds, in a script's text, the statements that add entries to a named collection: calls
// `name.push(` / `.unshift(` / `.set(` / `.add(` / `.splice(`, stores `name[key] = ...` (also
// `??=`, `||=`, `&&=`) and `Object.assign(name, ...)`. A lexical scan, not a parser: comments,
// strings, template literals and regular expressions are blanked first so that text in them is
// never taken for code, and brackets are then balanced on what is left. Shadowed names are not
// told apart from the collection's own: the scan runs over the one script that holds it.

const ADDING_METHODS = new Set(['push', 'unshift', 'set', 'add', 'splice'])
const IDENTIFIER_CHAR = /[\w$]/
/** A `/` after one of these (or at the start) begins a regular expression, not a division. */
const BEFORE_REGEXP = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^'])
const OPENERS = '([{'
const CLOSERS = ')]}'

/**
 * The text with comments and the insides of strings, template literals and regular expressions
 * replaced by spaces (line breaks kept), so offsets, lines and columns stay those of the text.
 * @param {string} text
 * @returns {string}
 */
export function blankNonCode (text) {
  // The scans of one report ask for the same script again and again (each signature, then the
  // names of a bundle): the last one is kept.
  if (text === lastBlanked.text) return lastBlanked.code
  const code = blankText(text)
  lastBlanked = { text, code }
  return code
}

/** @type {{text: string | null, code: string}} */
let lastBlanked = { text: null, code: '' }

/** @param {string} text */
function blankText (text) {
  // Pieces of the text and blanks, joined once: a character array of a bundle of megabytes
  // costs a second. Blanked runs come in ascending order and never overlap.
  /** @type {string[]} */
  const parts = []
  let copied = 0
  const blank = (/** @type {number} */ from, /** @type {number} */ to) => {
    const end = Math.min(to, text.length)
    if (end <= from) return
    const run = text.slice(from, end)
    parts.push(text.slice(copied, from), run.includes('\n') ? run.replace(/[^\n]/g, ' ') : ' '.repeat(run.length))
    copied = end
  }
  let last = ''
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      const end = lineEnd(text, i)
      blank(i, end)
      i = end
    } else if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const close = text.indexOf('*/', i + 2)
      const end = close < 0 ? text.length : close + 2
      blank(i, end)
      i = end
    } else if (c === QUOTE || c === DOUBLE_QUOTE || c === BACKTICK) {
      const quote = text[i]
      const end = quotedEnd(text, i, quote)
      blank(i + 1, end - 1 > i && text[end - 1] === quote ? end - 1 : end)
      last = quote
      i = end
    } else if (c === SLASH && BEFORE_REGEXP.has(last)) {
      const end = regexpEnd(text, i)
      blank(i + 1, end - 1)
      last = '/'
      i = end
    } else {
      if (!isSpace(c)) last = isIdentifierCode(c) ? 'a' : text[i]
      i++
    }
  }
  parts.push(text.slice(copied))
  return parts.join('')
}

const SLASH = 0x2f
const STAR = 0x2a
const QUOTE = 0x27
const DOUBLE_QUOTE = 0x22
const BACKTICK = 0x60

/**
 * `[\w$]` for one UTF-16 code unit.
 * @param {number} c
 */
export function isIdentifierCode (c) {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24
}

/**
 * `\s` for one UTF-16 code unit.
 * @param {number} c
 */
export function isSpace (c) {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && /\s/.test(String.fromCharCode(c)))
}

/**
 * Offsets of the writes to collection `name` in `code` (as blankNonCode returns it): for a
 * variable, where its name starts; for a property (`member`), where the expression holding it
 * starts (`this` in `this.#byUrl.set(`).
 * @param {string} code
 * @param {string} name a variable name, or a property name (`#field` for a private one)
 * @param {boolean} member whether `name` is a property, read as `<object>.name`
 * @returns {number[]} ascending
 */
export function writeOffsets (code, name, member) {
  /** @type {number[]} */
  const offsets = []
  for (const at of occurrences(code, name, member)) {
    if (writesAfter(code, at + name.length)) offsets.push(member ? chainStart(code, at) : at)
  }
  for (const match of code.matchAll(/\bObject\s*\.\s*assign\s*\(\s*([\w$#.?]+)/g)) {
    const target = match[1].replaceAll('?.', '.')
    if (member ? target.endsWith(`.${name}`) : target === name) offsets.push(/** @type {number} */ (match.index))
  }
  return offsets.sort((a, b) => a - b)
}

/**
 * Offsets (ascending) of `name` as a whole identifier: a variable (not a property of something,
 * not part of a longer name) or, with `member`, a property read as `<object>.name`.
 * @param {string} code
 * @param {string} name
 * @param {boolean} member
 */
function * occurrences (code, name, member) {
  for (let at = code.indexOf(name); at >= 0; at = code.indexOf(name, at + 1)) {
    const before = at > 0 ? code[at - 1] : ''
    if (IDENTIFIER_CHAR.test(code[at + name.length] ?? '')) continue
    if (member ? before !== '.' : (IDENTIFIER_CHAR.test(before) || before === '.' || before === '#')) continue
    yield at
  }
}

/**
 * Offsets (ascending) where `name` is used as a value, in blanked code: handed to a call, put in
 * an object (`{ agent }`), read. Its declarations (`const name =`), the assignments to it and
 * object keys spelt like it (`agent: ...`) are not uses.
 * @param {string} code
 * @param {string} name a variable name, or a property name read as `<object>.name`
 * @param {boolean} member
 * @returns {number[]}
 */
export function useOffsets (code, name, member) {
  /** @type {number[]} */
  const offsets = []
  for (const at of occurrences(code, name, member)) {
    if (!member && /\b(?:const|let|var|function|class)\s+$/.test(code.slice(Math.max(0, at - 12), at))) continue
    const next = skipSpace(code, at + name.length)
    if (code[next] === '=' && code[next + 1] !== '=' && code[next + 1] !== '>') continue
    if (code[next] === ':') continue
    offsets.push(member ? chainStart(code, at) : at)
  }
  return offsets
}

/**
 * Whether the text right after a collection's name adds to it: `.push(`, `?.set(`, `[key] =`.
 * @param {string} code
 * @param {number} i just after the name
 */
function writesAfter (code, i) {
  let k = skipSpace(code, i)
  if (code.startsWith('?.', k)) k += 2
  else if (code[k] === '.') k++
  if (code[k] === '[') {
    const close = matchingClose(code, k)
    if (close < 0) return false
    const j = skipSpace(code, close + 1)
    if (code.startsWith('??=', j) || code.startsWith('||=', j) || code.startsWith('&&=', j)) return true
    return code[j] === '=' && code[j + 1] !== '=' && code[j + 1] !== '>'
  }
  k = skipSpace(code, k)
  let end = k
  while (end < code.length && IDENTIFIER_CHAR.test(code[end])) end++
  if (!ADDING_METHODS.has(code.slice(k, end))) return false
  let j = skipSpace(code, end)
  if (code.startsWith('?.', j)) j += 2
  return code[j] === '('
}

/**
 * Where a function starting at `start` (V8's function position: the `(` of its parameters, or a
 * lone arrow parameter) ends, in blanked code; the text's length when it runs past the end.
 * @param {string} code
 * @param {number} start
 */
export function functionEnd (code, start) {
  let p = start
  if (code[p] === '(') {
    const close = matchingClose(code, p)
    if (close < 0) return code.length
    p = close + 1
  } else {
    while (p < code.length && IDENTIFIER_CHAR.test(code[p])) p++
  }
  p = skipSpace(code, p)
  if (code.startsWith('=>', p)) {
    p = skipSpace(code, p + 2)
    if (code[p] !== '{') return expressionEnd(code, p)
  }
  const body = code.indexOf('{', p)
  if (body < 0) return code.length
  const close = matchingClose(code, body)
  return close < 0 ? code.length : close + 1
}

/**
 * How deeply `offset` sits in brackets of any kind: 0 for a statement of the script's top level.
 * @param {string} code blanked
 * @param {number} offset
 */
export function nestingAt (code, offset) {
  let depth = 0
  for (let i = 0; i < offset && i < code.length; i++) {
    if (OPENERS.includes(code[i])) depth++
    else if (CLOSERS.includes(code[i])) depth = Math.max(0, depth - 1)
  }
  return depth
}

/**
 * Offsets at which each line starts.
 * @param {string} text
 * @returns {number[]}
 */
export function lineStarts (text) {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/**
 * The 0-based line and column of an offset.
 * @param {number[]} starts from lineStarts
 * @param {number} offset
 * @returns {{line: number, column: number}}
 */
export function positionOf (starts, offset) {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= offset) lo = mid
    else hi = mid - 1
  }
  return { line: lo, column: offset - starts[lo] }
}

/**
 * The end of an arrow function's expression body: the first `,` `;` or closing bracket outside
 * the brackets opened in it.
 * @param {string} code
 * @param {number} start
 */
function expressionEnd (code, start) {
  let depth = 0
  for (let i = start; i < code.length; i++) {
    const c = code[i]
    if (OPENERS.includes(c)) depth++
    else if (CLOSERS.includes(c)) {
      if (depth === 0) return i
      depth--
    } else if ((c === ',' || c === ';') && depth === 0) return i
  }
  return code.length
}

/**
 * The offset of the bracket that closes the one at `open`, or -1.
 * @param {string} code blanked
 * @param {number} open
 */
function matchingClose (code, open) {
  let depth = 0
  for (let i = open; i < code.length; i++) {
    if (OPENERS.includes(code[i])) depth++
    else if (CLOSERS.includes(code[i]) && --depth === 0) return i
  }
  return -1
}

/**
 * Where the member expression ending in the name at `at` starts: `this` in `this.#cache`.
 * @param {string} code
 * @param {number} at
 */
function chainStart (code, at) {
  let i = at
  while (i > 0 && (IDENTIFIER_CHAR.test(code[i - 1]) || code[i - 1] === '.' || code[i - 1] === '#' || (code[i - 1] === '?' && code[i] === '.'))) i--
  return i
}

/**
 * @param {string} code
 * @param {number} i
 */
function skipSpace (code, i) {
  while (i < code.length && /\s/.test(code[i])) i++
  return i
}

/**
 * @param {string} text
 * @param {number} i
 */
function lineEnd (text, i) {
  const end = text.indexOf('\n', i)
  return end < 0 ? text.length : end
}

/**
 * Just past the closing quote of the string or template literal opened at `start` (the text's
 * end when it is cut off). A template's `${...}` parts are blanked with it: a write inside one is
 * rare enough to miss.
 * @param {string} text
 * @param {number} start
 * @param {string} quote
 */
function quotedEnd (text, start, quote) {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]
    if (c === '\\') i++
    else if (c === quote) return i + 1
    else if (c === '\n' && quote !== '`') return i
  }
  return text.length
}

/**
 * Just past the closing `/` (and flags) of the regular expression at `start`.
 * @param {string} text
 * @param {number} start
 */
function regexpEnd (text, start) {
  let inClass = false
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]
    if (c === '\\') i++
    else if (c === '\n') return i
    else if (c === '[') inClass = true
    else if (c === ']') inClass = false
    else if (c === '/' && !inClass) {
      let end = i + 1
      while (end < text.length && IDENTIFIER_CHAR.test(text[end])) end++
      return end
    }
  }
  return text.length
}
