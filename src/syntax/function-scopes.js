// The functions of a script as nested spans, sorted by where V8 starts them: which function is
// around a position, which one starts at it, and where the code that starts there ends.
/** @import {Node} from 'acorn' */

/** The scope of a script's top level: no function around. */
export const PROGRAM = -1

export class FunctionScopes {
  /** @type {Int32Array} by V8 start, outer first on a tie */
  #starts
  /** @type {Int32Array} */
  #ends
  /** @type {Int32Array} the innermost function around each, PROGRAM for none */
  #parents
  /** @type {Map<number, Node>} classes by their start (V8 starts a class without a constructor there) */
  #classes
  #textLength

  /**
   * @param {Node[]} functions  in any order
   * @param {number[]} starts   where V8 starts each of them
   * @param {Map<number, Node>} classes  by their start
   * @param {number} textLength
   */
  constructor (functions, starts, classes, textLength) {
    const order = functions.map((_, i) => i).sort((a, b) => starts[a] - starts[b] || functions[b].end - functions[a].end)
    this.#starts = Int32Array.from(order, (i) => starts[i])
    this.#ends = Int32Array.from(order, (i) => functions[i].end)
    this.#parents = new Int32Array(order.length)
    this.#classes = classes
    this.#textLength = textLength
    /** @type {number[]} */
    const open = []
    for (let f = 0; f < order.length; f++) {
      while (open.length > 0 && this.#ends[open[open.length - 1]] <= this.#starts[f]) open.pop()
      this.#parents[f] = open.length === 0 ? PROGRAM : open[open.length - 1]
      open.push(f)
    }
  }

  /** How many functions the text has. */
  get count () {
    return this.#starts.length
  }

  /**
   * @param {number} f
   * @returns {{start: number, end: number}}
   */
  span (f) {
    return { start: this.#starts[f], end: this.#ends[f] }
  }

  /**
   * The innermost function whose span (V8's start to its end) holds `offset`, or PROGRAM.
   * @param {number} offset
   */
  scopeAt (offset) {
    let low = 0
    let high = this.#starts.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#starts[middle] <= offset) low = middle + 1
      else high = middle
    }
    let f = low - 1
    while (f >= 0 && this.#ends[f] <= offset) f = this.#parents[f]
    return f
  }

  /**
   * The function V8 starts at exactly `offset` (the outermost, when an arrow's body is another
   * arrow that starts there too), or -1.
   * @param {number} offset
   */
  functionAt (offset) {
    let f = this.scopeAt(offset)
    if (f < 0 || this.#starts[f] !== offset) return -1
    while (this.#parents[f] >= 0 && this.#starts[this.#parents[f]] === offset) f = this.#parents[f]
    return f
  }

  /**
   * @param {number} f
   */
  parentOf (f) {
    return f < 0 ? PROGRAM : this.#parents[f]
  }

  /**
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
   * Where the code that V8 starts at `offset` ends (ScriptSyntax#codeEnd).
   * @param {number} offset
   */
  codeEnd (offset) {
    const f = this.functionAt(offset)
    if (f >= 0) return this.#ends[f]
    const type = this.#classes.get(offset)
    if (type !== undefined) return type.end
    const around = this.scopeAt(offset)
    return around >= 0 ? this.#ends[around] : this.#textLength
  }
}
