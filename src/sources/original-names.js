// The names people wrote, for the names a minifier gave: a source map's `names` say which original
// identifier a segment of the generated code stands for. A minifier reuses short names in every
// scope (`t` is `request` in one function and `address` in the next), so a name is taken only for
// one binding, from the named segments of its token in the scope that declares it, and only when
// they all agree. Scopes are the functions of the generated code, from its syntax tree (the one
// parse of the script, src/syntax/):
//
//   program ─┬─ function h(t,e){ let s=a.get(t.url) ... o.on("u",c=>{...}) }
//            │            ^ span of h: its parameters' `(` to its body's `}`   ^ span of c=>{...}
//            └─ var a=new Map   (a token `a` outside every function: a module-scope binding)
//
// A variable of a function's Context is declared in that function (its bindings, in its blocks
// too); V8's location records give where the closures that share the Context
// start, so the function around them is the one the Context belongs to. Anything less sure
// (segments that disagree, no segment, a Context whose function is not certain) keeps the
// generated name: a wrong name is worse than a short one.

import { decodedMappings } from '@jridgewell/trace-mapping'
import { PROGRAM, scriptSyntax } from '../syntax/script-syntax.js'
import { lineStarts } from '../syntax/text-positions.js'
/** @import {TraceMap} from '@jridgewell/trace-mapping' */
/** @import {ScriptSyntax} from '../syntax/script-syntax.js' */

export { PROGRAM }

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
/** How far from a function's start (in characters) the segment that names it may be. */
const NAME_REACH = 128

/**
 * @typedef {object} NamedSegment
 * @property {number} offset  where the token starts in the generated text
 * @property {number} scope   the function whose own span holds it (PROGRAM: none)
 * @property {string} name    the original name
 */

export class ScriptNames {
  #text
  /** @type {ScriptSyntax | null} parsed at the first question: many scripts' names are never asked for */
  #parsed = null
  /** @type {Map<string, NamedSegment[]>} per generated token asked for */
  #segments = new Map()
  /** @type {readonly (readonly number[])[][]} the map's decoded segments, per generated line */
  #lines = []
  /** @type {readonly string[]} */
  #names = []
  /** @type {boolean[]} per name, whether it is an identifier */
  #usable = []

  /**
   * @param {string} text the generated code
   */
  constructor (text) {
    this.#text = text
  }

  get #syntax () {
    if (this.#parsed === null) this.#parsed = scriptSyntax(this.#text)
    return this.#parsed
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
    const names = new ScriptNames(text)
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
    const syntax = this.#syntax
    const { text, lineStarts } = syntax
    const first = token.charCodeAt(0)
    for (let line = 0; line < this.#lines.length; line++) {
      const start = lineStarts[line]
      for (const segment of this.#lines[line]) {
        if (segment.length !== 5 || this.#usable[segment[4]] !== true) continue
        const offset = start + segment[0]
        if (text.charCodeAt(offset) !== first || syntax.nameAt(offset) !== token) continue
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
    return this.#syntax.offsetOf(line, column)
  }

  /**
   * The innermost function whose span holds `offset` (a function's own start is in it), or PROGRAM.
   * @param {number} offset
   */
  scopeAt (offset) {
    return this.#syntax.scopeAt(offset)
  }

  /**
   * The function that starts exactly at `offset` (where V8 starts a closure's function), or -1.
   * @param {number} offset
   */
  functionAt (offset) {
    return this.#syntax.functionAt(offset)
  }

  /**
   * The scope a function is declared in.
   * @param {number} span
   */
  parentOf (span) {
    return this.#syntax.parentOf(span)
  }

  /**
   * The innermost scope around both.
   * @param {number} a
   * @param {number} b
   */
  commonScope (a, b) {
    return this.#syntax.commonScope(a, b)
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
   * Whether `scope` declares every name (ScriptSyntax#bindings).
   * @param {string[]} tokens
   * @param {number} scope
   */
  declaresAll (tokens, scope) {
    const own = this.#syntax.bindings(scope)
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
    const around = this.#syntax.parentOf(own)
    let nearest = null
    for (const segment of list) {
      if (segment.offset >= offset || offset - segment.offset > NAME_REACH || segment.scope !== around) continue
      if (nearest === null || segment.offset > nearest.offset) nearest = segment
    }
    return nearest === null ? null : nearest.name
  }
}
