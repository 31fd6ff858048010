// The snapshot's `strings` section, kept as the file's own bytes and decoded on demand.
//
// A real snapshot holds millions of strings; as JS strings they would cost ~40 B each on the JS heap
// and stress the GC, while the analysis needs only the few thousand that name classes, properties
// and variables. So the parser appends each string's JSON-escaped body (the bytes between the quotes)
// to one byte buffer and records where it starts:
//
//   bytes:   k e y 0 k e y 1 _ e v e n t s \ u 0 0 e 9 ...
//   starts:  0       4       8               15
//
// String i is bytes[starts[i] .. starts[i + 1]). The file is 7-bit ASCII (V8 escapes everything else
// as \uXXXX), so a body without a backslash is its own latin1 decoding. Files from other writers may
// hold raw UTF-8; the parser flags those and the table decodes them as UTF-8.

const BACKSLASH = 0x5c
// Names (of properties, classes, variables) are short and asked for over and over, once per edge or
// object that bears them: those are decoded once and kept by index, in a Map (an array as long as
// the table would cost 8 bytes per string of a table of millions). Longer strings (source text,
// values) are decoded each time, so that the table keeps no copy of them on the JS heap.
const KEPT_BYTES = 64

export class StringTable {
  /** @type {Buffer} */
  #bytes
  /** @type {Uint32Array} */
  #starts
  #length
  #encoding
  /** @type {Map<string, number> | undefined} */
  #index
  /** @type {{first: Uint32Array, order: Uint32Array} | undefined} */
  #buckets
  /** @type {Map<number, string>} short strings decoded so far, by index */
  #decoded = new Map()

  /**
   * @param {Buffer} bytes concatenated escaped string bodies
   * @param {Uint32Array} starts length + 1 offsets into `bytes`
   * @param {number} length number of strings
   * @param {boolean} [utf8] bodies contain raw non-ASCII bytes
   */
  constructor (bytes, starts, length, utf8 = false) {
    this.#bytes = bytes
    this.#starts = starts
    this.#length = length
    this.#encoding = /** @type {BufferEncoding} */ (utf8 ? 'utf8' : 'latin1')
  }

  /**
   * The table's raw parts, to send it to another thread (the buffers can go in a transfer list).
   * @returns {{bytes: Buffer, starts: Uint32Array, length: number, utf8: boolean}}
   */
  toParts () {
    return { bytes: this.#bytes, starts: this.#starts, length: this.#length, utf8: this.#encoding === 'utf8' }
  }

  /**
   * Rebuilds a table from `toParts()` (after a structured clone, `bytes` arrives as a Uint8Array).
   * @param {{bytes: Uint8Array, starts: Uint32Array, length: number, utf8: boolean}} parts
   */
  static fromParts ({ bytes, starts, length, utf8 }) {
    return new StringTable(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), starts, length, utf8)
  }

  /** Number of strings. */
  get length () {
    return this.#length
  }

  /** Bytes held by the table (for memory accounting). */
  get byteLength () {
    return this.#bytes.byteLength + this.#starts.byteLength
  }

  /**
   * The string at `index`, decoded.
   * @param {number} index
   * @returns {string}
   */
  get (index) {
    if (!(index >= 0 && index < this.#length)) return ''
    const start = this.#starts[index]
    const end = this.#starts[index + 1]
    const short = end - start <= KEPT_BYTES
    if (short) {
      const known = this.#decoded.get(index)
      if (known !== undefined) return known
    }
    const bytes = this.#bytes
    let escaped = false
    for (let i = start; i < end; i++) {
      if (bytes[i] === BACKSLASH) { escaped = true; break }
    }
    const raw = bytes.toString(this.#encoding, start, end)
    const text = escaped ? JSON.parse('"' + raw + '"') : raw
    if (short) this.#decoded.set(index, text)
    return text
  }

  /**
   * The number string `index` spells in decimal digits (a hash table's slot names an internal edge
   * by), -1 when it is not one: read from the bytes, without decoding the string.
   * @param {number} index
   * @returns {number}
   */
  digits (index) {
    if (!(index >= 0 && index < this.#length)) return -1
    const start = this.#starts[index]
    const end = this.#starts[index + 1]
    // Nine digits stay below 2^31; longer ones are not slot numbers.
    if (end === start || end - start > 9) return -1
    const bytes = this.#bytes
    let value = 0
    for (let i = start; i < end; i++) {
      const digit = bytes[i] - 0x30
      if (digit < 0 || digit > 9) return -1
      value = value * 10 + digit
    }
    return value
  }

  /**
   * Whether string `index` has the same text as string `otherIndex` of `other`. The bodies are
   * compared as written, without decoding them; only bodies that differ and hold an escape (one
   * text can be written escaped or not) are decoded to tell.
   * @param {number} index
   * @param {StringTable} other
   * @param {number} otherIndex
   */
  sameText (index, other, otherIndex) {
    const decoded = () => this.get(index) === other.get(otherIndex)
    if (this.#encoding !== other.#encoding) return decoded()
    if (!(index >= 0 && index < this.#length) || !(otherIndex >= 0 && otherIndex < other.#length)) return decoded()
    const start = this.#starts[index]
    const end = this.#starts[index + 1]
    const otherStart = other.#starts[otherIndex]
    const otherEnd = other.#starts[otherIndex + 1]
    if (end - start === otherEnd - otherStart && sameBytes(this.#bytes, start, other.#bytes, otherStart, end - start)) return true
    return hasEscape(this.#bytes, start, end) || hasEscape(other.#bytes, otherStart, otherEnd) ? decoded() : false
  }

  /**
   * Length of the escaped body of string `index`, in bytes (an upper bound of its length in chars).
   * @param {number} index
   */
  rawLength (index) {
    return this.#starts[index + 1] - this.#starts[index]
  }

  /**
   * Index of the first string equal to `value`, or -1. Meant for the well-known names the analysis
   * and the signatures ask for (`_events`, `table`, `context`), a few dozen per report; answers are
   * kept. A name the snapshot lacks would cost a scan of every string, so the first question builds
   * an index of the bodies by a hash of their length and a few of their bytes (two passes, 4 bytes
   * per string) and each question compares only the bodies that hash alike.
   * @param {string} value
   * @returns {number}
   */
  indexOf (value) {
    this.#index ??= new Map()
    const cached = this.#index.get(value)
    if (cached !== undefined) return cached
    let found = -1
    if (/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(value)) {
      // Printable ASCII without a quote or a backslash is its own escaped body.
      const needle = Buffer.from(value, 'latin1')
      const buckets = (this.#buckets ??= bucketBodies(this.#bytes, this.#starts, this.#length))
      const key = bodyKey(needle, 0, needle.length)
      const bytes = this.#bytes
      const starts = this.#starts
      const n = needle.length
      for (let k = buckets.first[key]; k < buckets.first[key + 1]; k++) {
        const i = buckets.order[k]
        const start = starts[i]
        if (starts[i + 1] - start === n && bytes.compare(needle, 0, n, start, start + n) === 0) {
          found = i
          break
        }
      }
    } else {
      for (let i = 0; i < this.#length; i++) {
        if (this.get(i) === value) {
          found = i
          break
        }
      }
    }
    this.#index.set(value, found)
    return found
  }
}

const BUCKET_BITS = 16

/**
 * A bucket number from a body's length and its first, middle and last bytes.
 * @param {Uint8Array} bytes
 * @param {number} start
 * @param {number} end
 */
function bodyKey (bytes, start, end) {
  const length = end - start
  if (length === 0) return 0
  const hash = Math.imul(length, 0x9e3779b1) ^ Math.imul(bytes[start], 0x85ebca6b) ^ Math.imul(bytes[(start + end) >>> 1], 0xc2b2ae35) ^ Math.imul(bytes[end - 1], 0x27d4eb2f)
  return (hash ^ (hash >>> BUCKET_BITS)) & ((1 << BUCKET_BITS) - 1)
}

/**
 * The string indexes grouped by bodyKey, ascending within a bucket (so that the first match is the
 * first string): bucket b's are order[first[b] .. first[b + 1]).
 * @param {Buffer} bytes
 * @param {Uint32Array} starts
 * @param {number} length
 * @returns {{first: Uint32Array, order: Uint32Array}}
 */
function bucketBodies (bytes, starts, length) {
  const first = new Uint32Array((1 << BUCKET_BITS) + 1)
  const keys = new Uint16Array(length)
  for (let i = 0; i < length; i++) {
    const key = bodyKey(bytes, starts[i], starts[i + 1])
    keys[i] = key
    first[key + 1]++
  }
  for (let b = 1; b < first.length; b++) first[b] += first[b - 1]
  const next = first.slice(0, -1)
  const order = new Uint32Array(length)
  for (let i = 0; i < length; i++) order[next[keys[i]]++] = i
  return { first, order }
}

/**
 * @param {Buffer} a
 * @param {number} aStart
 * @param {Buffer} b
 * @param {number} bStart
 * @param {number} length
 */
function sameBytes (a, aStart, b, bStart, length) {
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false
  return true
}

/**
 * @param {Buffer} bytes
 * @param {number} start
 * @param {number} end
 */
function hasEscape (bytes, start, end) {
  for (let i = start; i < end; i++) if (bytes[i] === BACKSLASH) return true
  return false
}
