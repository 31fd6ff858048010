// The names people wrote, for the names a minifier gave: a source map's `names` say which original
// identifier a segment of the generated code stands for. A minifier reuses short names in every
// scope (`t` is `request` in one function and `address` in the next), so a name is taken only for
// one binding, from the named segments of its token in the scope that declares it, and only when
// they all agree. Scopes are the functions of the generated code, found by a lexical scan (the
// write-site scan's, which blanks strings, comments and regular expressions first):
//
//   program ─┬─ function h(t,e){ let s=a.get(t.url) ... o.on("u",c=>{...}) }
//            │            ^ span of h: its parameters' `(` to its body's `}`   ^ span of c=>{...}
//            └─ var a=new Map   (a token `a` outside every function: a module-scope binding)
//
// A variable of a function's Context is declared in that function's own span, outside the
// functions nested in it; V8's location records give where the closures that share the Context
// start, so the function around them is the one the Context belongs to. Anything less sure
// (segments that disagree, no segment, a Context whose function is not certain) keeps the
// generated name: a wrong name is worse than a short one.

import { decodedMappings } from '@jridgewell/trace-mapping'
import { blankNonCode, isIdentifierCode, isSpace, lineStarts } from '../signatures/write-site-scan.js'
/** @import {TraceMap} from '@jridgewell/trace-mapping' */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
const IDENTIFIER_CHAR = /[\w$]/
/** Words before `(...) {` that start a statement, not a method. */
const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'function', 'return', 'typeof', 'await', 'yield', 'new', 'in', 'of', 'instanceof', 'void', 'delete', 'else', 'do'])
/** How far from a function's start (in characters) the segment that names it may be. */
const NAME_REACH = 128
/** The scope of a module's (or a script's) top level. */
export const PROGRAM = -1

/**
 * @typedef {object} NamedSegment
 * @property {number} offset  where the token starts in the generated text
 * @property {number} scope   the function whose own span holds it (PROGRAM: none)
 * @property {string} name    the original name
 */

export class ScriptNames {
  #code
  #starts
  /** @type {Int32Array} span starts, ascending */
  #spanStarts
  /** @type {Int32Array} */
  #spanEnds
  /** @type {Int32Array} the innermost span around each span, PROGRAM for none */
  #parents
  /** @type {Map<string, NamedSegment[]>} per generated token asked for */
  #segments = new Map()
  /** @type {readonly (readonly number[])[][]} the map's decoded segments, per generated line */
  #lines = []
  /** @type {readonly string[]} */
  #names = []
  /** @type {boolean[]} per name, whether it is an identifier */
  #usable = []
  /** @type {Map<number, Set<string>>} per scope, the identifiers in its own span */
  #tokens = new Map()

  /**
   * @param {string} code blanked
   * @param {number[]} starts line starts
   * @param {Array<[number, number]>} spans
   */
  constructor (code, starts, spans) {
    this.#code = code
    this.#starts = starts
    spans.sort((a, b) => a[0] - b[0] || b[1] - a[1])
    this.#spanStarts = Int32Array.from(spans, ([start]) => start)
    this.#spanEnds = Int32Array.from(spans, ([, end]) => end)
    this.#parents = new Int32Array(spans.length)
    /** @type {number[]} */
    const open = []
    for (let s = 0; s < spans.length; s++) {
      while (open.length > 0 && this.#spanEnds[open[open.length - 1]] <= spans[s][0]) open.pop()
      this.#parents[s] = open.length === 0 ? PROGRAM : open[open.length - 1]
      open.push(s)
    }
  }

  /**
   * The names of a script's map, or null when the map names nothing or the text is not all of
   * the code the map describes (a copy cut at the snapshot's string limit).
   * @param {string} text the generated code, whole
   * @param {TraceMap} map
   * @returns {ScriptNames | null}
   */
  static of (text, map) {
    if (map.names.length === 0) return null
    const lines = decodedMappings(map)
    const starts = lineStarts(text)
    if (lines.length > starts.length) return null
    // Segments are sorted by column on each line: the last one tells whether the line is whole.
    for (let line = 0; line < lines.length; line++) {
      const segments = lines[line]
      if (segments.length === 0) continue
      const lineEnd = line + 1 < starts.length ? starts[line + 1] : text.length
      if (starts[line] + segments[segments.length - 1][0] >= lineEnd) return null
    }
    const code = blankNonCode(text)
    const names = new ScriptNames(code, starts, functionSpans(code))
    names.#lines = lines
    names.#names = map.names
    names.#usable = map.names.map((name) => typeof name === 'string' && IDENTIFIER.test(name))
    return names
  }

  /**
   * The named segments of one generated token, gathered the first time it is asked for: a report
   * asks for a few tokens, a bundle's map has hundreds of thousands of named segments.
   * @param {string} token
   * @returns {NamedSegment[]}
   */
  #segmentsOf (token) {
    let list = this.#segments.get(token)
    if (list !== undefined) return list
    list = []
    const code = this.#code
    const first = token.charCodeAt(0)
    for (let line = 0; line < this.#lines.length; line++) {
      const start = this.#starts[line]
      for (const segment of this.#lines[line]) {
        if (segment.length !== 5 || this.#usable[segment[4]] !== true) continue
        const offset = start + segment[0]
        if (code.charCodeAt(offset) !== first || !code.startsWith(token, offset) || this.#tokenAt(offset) !== token) continue
        list.push({ offset, scope: this.scopeAt(offset), name: this.#names[segment[4]] })
      }
    }
    this.#segments.set(token, list)
    return list
  }

  /**
   * The 0-based offset of a 0-based line and column, or -1 past the text.
   * @param {number} line
   * @param {number} column
   */
  offsetOf (line, column) {
    if (line < 0 || line >= this.#starts.length) return -1
    const offset = this.#starts[line] + column
    return offset < this.#code.length ? offset : -1
  }

  /**
   * The innermost function whose span holds `offset` (a function's own start is in it), or PROGRAM.
   * @param {number} offset
   */
  scopeAt (offset) {
    let low = 0
    let high = this.#spanStarts.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#spanStarts[middle] <= offset) low = middle + 1
      else high = middle
    }
    let s = low - 1
    while (s >= 0 && this.#spanEnds[s] <= offset) s = this.#parents[s]
    return s
  }

  /**
   * The function that starts exactly at `offset` (where V8 starts a closure's function), or -1.
   * @param {number} offset
   */
  functionAt (offset) {
    const s = this.scopeAt(offset)
    return s >= 0 && this.#spanStarts[s] === offset ? s : -1
  }

  /**
   * The scope a function is declared in.
   * @param {number} span
   */
  parentOf (span) {
    return this.#parents[span]
  }

  /**
   * The innermost scope around both.
   * @param {number} a
   * @param {number} b
   */
  commonScope (a, b) {
    const chain = new Set()
    for (let s = a; s !== PROGRAM; s = this.#parents[s]) chain.add(s)
    for (let s = b; s !== PROGRAM; s = this.#parents[s]) if (chain.has(s)) return s
    return PROGRAM
  }

  /**
   * The original name of the binding `token` declares in `scope`'s own span: every named segment
   * of that token there names the same identifier. Null when none does or they disagree.
   * @param {string} token
   * @param {number} scope
   */
  bindingName (token, scope) {
    const list = this.#segmentsOf(token)
    let found = null
    for (const segment of list) {
      if (segment.scope !== scope) continue
      if (found !== null && found !== segment.name) return null
      found = segment.name
    }
    return found
  }

  /**
   * Whether every name occurs as an identifier in `scope`'s own span (its nested functions left out).
   * @param {string[]} tokens
   * @param {number} scope
   */
  declaresAll (tokens, scope) {
    let own = this.#tokens.get(scope)
    if (own === undefined) this.#tokens.set(scope, (own = this.#ownTokens(scope)))
    return tokens.every((token) => own.has(token))
  }

  /**
   * The original name of the function (or class) named `token` whose start V8 records at
   * `offset` (its parameters' `(`; a constructor's, for a class): the nearest named segment of
   * that token before the start, in the scope around the function. A function's name stands
   * just before its parameters (`function h(`, `h=function(`, `class h{constructor(`), never in
   * them: a parameter of the same short name is another binding. Null when none is that near.
   * @param {string} token
   * @param {number} offset
   */
  functionName (token, offset) {
    const own = this.functionAt(offset)
    if (own < 0) return null
    const list = this.#segmentsOf(token)
    const around = this.#parents[own]
    let nearest = null
    for (const segment of list) {
      if (segment.offset >= offset || offset - segment.offset > NAME_REACH || segment.scope !== around) continue
      if (nearest === null || segment.offset > nearest.offset) nearest = segment
    }
    return nearest === null ? null : nearest.name
  }

  /**
   * The identifier at `offset`, when one starts there and is no property name (`x.a`).
   * @param {number} offset
   * @returns {string | null}
   */
  #tokenAt (offset) {
    const code = this.#code
    if (offset > 0 && isIdentifierCode(code.charCodeAt(offset - 1))) return null
    const first = code.charCodeAt(offset)
    if (!isIdentifierCode(first) || (first >= 0x30 && first <= 0x39)) return null
    let end = offset + 1
    while (end < code.length && isIdentifierCode(code.charCodeAt(end))) end++
    let before = offset - 1
    while (before >= 0 && isSpace(code.charCodeAt(before))) before--
    if (before >= 0 && code[before] === '.' && code[before - 1] !== '.') return null
    return code.slice(offset, end)
  }

  /**
   * @param {number} scope
   * @returns {Set<string>}
   */
  #ownTokens (scope) {
    const code = this.#code
    const starts = this.#spanStarts
    const count = starts.length
    const from = scope === PROGRAM ? 0 : starts[scope]
    const to = scope === PROGRAM ? code.length : this.#spanEnds[scope]
    const tokens = new Set()
    let s = scope + 1
    for (let i = from; i < to;) {
      // The next function inside starts at `stop`; its span is skipped, nested ones with it.
      while (s < count && starts[s] < i) s++
      const stop = s < count && starts[s] < to ? starts[s] : to
      for (let k = i; k < stop; k++) {
        if (!IDENTIFIER_CHAR.test(code[k]) || (k > 0 && IDENTIFIER_CHAR.test(code[k - 1]))) continue
        let end = k
        while (end < stop && IDENTIFIER_CHAR.test(code[end])) end++
        tokens.add(code.slice(k, end))
        k = end
      }
      if (stop >= to) break
      i = this.#spanEnds[s]
    }
    return tokens
  }
}

/**
 * The spans of the functions in blanked code, each from where V8 starts it (its parameters' `(`,
 * or an arrow's single parameter) to just past its body: `function` declarations and
 * expressions, methods, getters and setters (`name(...) {`), and arrow functions.
 * @param {string} code blanked
 * @returns {Array<[number, number]>}
 */
export function functionSpans (code) {
  const match = matchBrackets(code)
  /** @type {Map<number, number>} start -> end */
  const spans = new Map()
  const bodyEnd = (/** @type {number} */ close) => {
    const body = skipSpace(code, close + 1)
    return code[body] === '{' && match[body] > body ? match[body] + 1 : -1
  }
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i)
    if (c === OPEN_PAREN && match[i] > i) {
      // `name(...) {`: a function declaration or expression, or a method.
      let before = i - 1
      while (before >= 0 && isSpace(code.charCodeAt(before))) before--
      let wordStart = before
      while (wordStart >= 0 && isIdentifierCode(code.charCodeAt(wordStart))) wordStart--
      const word = code.slice(wordStart + 1, before + 1)
      const named = word !== '' || code[before] === '*' || code[before] === ']'
      if (!named || NOT_METHODS.has(word)) {
        if (!(word === 'function' || code[before] === '*')) continue
      }
      const end = bodyEnd(match[i])
      if (end > 0) spans.set(i, end)
    } else if (c === EQUALS && code.charCodeAt(i + 1) === GREATER) {
      let before = i - 1
      while (before >= 0 && isSpace(code.charCodeAt(before))) before--
      let start
      if (code[before] === ')') {
        start = match[before]
        if (start < 0) continue
      } else {
        start = before
        while (start > 0 && IDENTIFIER_CHAR.test(code[start - 1])) start--
        if (!IDENTIFIER_CHAR.test(code[before] ?? '')) continue
      }
      const body = skipSpace(code, i + 2)
      const end = code[body] === '{' ? (match[body] > body ? match[body] + 1 : -1) : expressionEnd(code, body, match)
      if (end > 0) spans.set(start, end)
    }
  }
  return [...spans]
}

/**
 * For each bracket, the offset of its partner (-1 when unmatched); other offsets hold -1.
 * @param {string} code
 */
function matchBrackets (code) {
  const match = new Int32Array(code.length).fill(-1)
  /** @type {number[]} */
  const open = []
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i)
    if (c === OPEN_PAREN || c === 0x5b || c === 0x7b) open.push(i)
    else if (c === 0x29 || c === 0x5d || c === 0x7d) {
      const at = open.pop()
      if (at === undefined) continue
      match[at] = i
      match[i] = at
    }
  }
  return match
}

/**
 * The end of an arrow's expression body: the first `,` `;` or unmatched closing bracket.
 * @param {string} code
 * @param {number} start
 * @param {Int32Array} match
 */
function expressionEnd (code, start, match) {
  for (let i = start; i < code.length; i++) {
    const c = code[i]
    if ((c === '(' || c === '[' || c === '{') && match[i] > i) i = match[i]
    else if (c === ')' || c === ']' || c === '}' || c === ',' || c === ';') return i
  }
  return code.length
}

/**
 * @param {string} code
 * @param {number} i
 */
function skipSpace (code, i) {
  while (i < code.length && isSpace(code.charCodeAt(i))) i++
  return i
}

const OPEN_PAREN = 0x28
const EQUALS = 0x3d
const GREATER = 0x3e
