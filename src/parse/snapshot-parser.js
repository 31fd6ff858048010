import { constants } from 'node:buffer'
import { SnapshotFormatError } from '../errors.js'
import { StringTable } from './string-table.js'
import { LARGE_SIZE } from './large-sizes.js'
import {
  readHeader, NODE_TYPE, NODE_NAME, NODE_ID, NODE_SELF_SIZE, NODE_EDGE_COUNT, NODE_DETACHEDNESS,
  EDGE_TYPE, EDGE_NAME, EDGE_TO_NODE, LOCATION_OBJECT, LOCATION_SCRIPT, LOCATION_LINE, LOCATION_COLUMN
} from './snapshot-header.js'
/** @import {SnapshotHeader} from './snapshot-header.js' */
/** @import {SnapshotData} from './snapshot-data.js' */

// A push parser for the heap snapshot JSON, one byte at a time, resumable at any chunk boundary.
// The file is never held as a string: integers go from bytes into typed-array columns, string
// bodies are copied raw into a StringTable. Only the small `snapshot` header goes through JSON.parse.
//
//   { "snapshot": {...}  -> captured, JSON.parse, readHeader -> columns allocated from the counts
//     "nodes":     [...]  -> integer scanner -> #fastNodes (whole rows) | #putNode (row fields routed by meta name)
//     "edges":     [...]  -> integer scanner -> #fastEdges (whole rows) | #putEdge
//     "locations": [...]  -> integer scanner -> #putLocation
//     "strings":   [...]  -> string scanner  -> StringTable bytes + starts
//     anything else       -> skipped (trace_tree is nested JSON)
//   }

const TOP_START = 0
const TOP_FIRST_KEY = 1
const TOP_KEY = 2
const KEY = 3
const COLON = 4
const VALUE = 5
const AFTER_VALUE = 6
const DONE = 7
const CAPTURE = 8
const INTEGERS = 9
const STRINGS = 10
const SKIP_VALUE = 11

// Integer scanner: what may come next.
const INT_FIRST = 0 // a value or ']'
const INT_NEXT = 1 // a value (after ',')
const INT_AFTER = 2 // ',' or ']'

// String scanner.
const STR_FIRST = 0 // '"' or ']'
const STR_NEXT = 1 // '"' (after ',')
const STR_IN = 2
const STR_AFTER = 3 // ',' or ']'

const ARRAY_NODES = 1
const ARRAY_EDGES = 2
const ARRAY_LOCATIONS = 3

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON_CHAR = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

// The fast row loops start a row only this far before the chunk's end, so that a row (at most ~120
// bytes in V8's output) never runs past it; the general path takes the last rows of each chunk.
const FAST_MARGIN = 1024
const MAX_HEADER_BYTES = 1 << 20
const MAX_KEY_BYTES = 1024
// Arrays sized from the file's length stay below this many entries (1 GiB); past it they grow.
const MAX_PRESIZED = 1 << 28
// Buffers stop at this many bytes; a larger column is a typed array of its own (zeroed).
const MAX_BUFFER_BYTES = constants.MAX_LENGTH
const MAX_UINT32 = 0xffffffff
// When nothing bounds the input's length (a stream, a pipe), the header's counts are a claim
// nothing backs yet: a few bytes can claim billions of nodes. The node and edge columns then start
// at most this many rows long (22 and 9 bytes a row) and grow, by doubling, only as the rows
// arrive, so memory follows the data, not the claim. Test heaps never grow. (With a bound, the
// counts were checked against it, and columns sized from them take address space, not memory,
// until the rows arrive.)
const FIRST_NODE_ROWS = 1 << 20
const FIRST_EDGE_ROWS = 1 << 22

// What may follow a backslash in a JSON string, by byte: " \ / b f n r t, or u and 4 hex digits.
const SIMPLE_ESCAPE = 1
const UNICODE_ESCAPE = 2
const ESCAPES = new Uint8Array(256)
for (const c of '"\\/bfnrt') ESCAPES[c.charCodeAt(0)] = SIMPLE_ESCAPE
ESCAPES[0x75] = UNICODE_ESCAPE
const HEX_DIGITS = new Uint8Array(256)
for (const c of '0123456789abcdefABCDEF') HEX_DIGITS[c.charCodeAt(0)] = 1

/** @param {number} c */
const isSpace = (c) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

export class SnapshotParser {
  #label
  #maxBytes
  #exactBytes
  #firstNodeRows
  #firstEdgeRows
  #headerOnly
  // Rows the node and edge columns hold now (the counts, unless the input's length is unknown).
  #nodeCapacity = 0
  #edgeCapacity = 0
  #offset = 0
  #state = TOP_START
  /** @type {Buffer[]} */
  #keyParts = []
  #key = ''
  #keyBytes = 0
  /** @type {Set<string>} */
  #seenKeys = new Set()

  // CAPTURE / SKIP_VALUE
  #depth = 0
  #inString = false
  #escape = false
  /** @type {Buffer[]} */
  #captured = []
  #capturedBytes = 0
  #skipStarted = false

  // INTEGERS
  #array = 0
  #intState = INT_FIRST
  #value = 0
  #inNumber = false
  // Where the current number starts (absolute byte offset), to point errors at it.
  #numberStart = 0
  /** @type {Float64Array} one row's values in the fast loops (node_fields or edge_fields long) */
  #rowValues = new Float64Array(0)
  #arrayStart = 0

  // STRINGS
  #strState = STR_FIRST
  #strBytes = Buffer.alloc(0)
  #strSize = 0
  #strStarts = new Uint32Array(1024)
  #strCount = 0
  #nonAscii = false
  // Hex digits still due after a \u escape.
  #hexLeft = 0

  /** @type {SnapshotHeader | undefined} */
  #header
  // columns
  #nodeTypes = new Uint8Array(0)
  #nodeNames = new Uint32Array(0)
  #nodeIds = new Uint32Array(0)
  #selfSizes = new Uint32Array(0)
  /** @type {number[]} ordinals of the self sizes >= LARGE_SIZE, ascending */
  #largeOrdinals = []
  /** @type {number[]} */
  #largeSizes = []
  #detachedness = new Uint8Array(0)
  #firstEdge = new Uint32Array(1)
  #edgeTypes = new Uint8Array(0)
  #edgeNames = new Uint32Array(0)
  #edgeTargets = new Uint32Array(0)
  #locations = new Uint32Array(0)
  // row cursors
  #field = 0
  #row = 0
  #rowName = 0
  #maxNodeName = -1
  #maxEdgeName = -1

  /**
   * @param {{label?: string, maxBytes?: number, exactBytes?: boolean, firstRows?: number, headerOnly?: boolean}} [options]
   *   maxBytes: the most bytes the input can have (the file size for an uncompressed file, a bound
   *   from the compressed size for gzip), used to reject counts no input of that size holds;
   *   exactBytes: maxBytes is the input's length (default: when it is finite), so the arrays whose
   *   length the header does not give (strings, locations) can be sized from it;
   *   firstRows: how many node and edge rows the columns start with when nothing bounds the length
   *   (the default suits every test heap; a small value makes the columns grow);
   *   headerOnly: stop at the end of the header (`header`), making no columns
   */
  constructor ({ label = '<snapshot>', maxBytes = Infinity, exactBytes = Number.isFinite(maxBytes), firstRows = undefined, headerOnly = false } = {}) {
    this.#label = label
    this.#headerOnly = headerOnly
    this.#maxBytes = maxBytes
    this.#exactBytes = exactBytes
    this.#firstNodeRows = firstRows ?? FIRST_NODE_ROWS
    this.#firstEdgeRows = firstRows ?? FIRST_EDGE_ROWS
  }

  /** Bytes consumed so far. */
  get offset () {
    return this.#offset
  }

  /** The header (`snapshot.meta` and the counts), once the bytes pushed so far hold it. */
  get header () {
    return this.#header
  }

  /**
   * Feeds the next chunk of bytes.
   * @param {Buffer} chunk
   */
  push (chunk) {
    const length = chunk.length
    // A byte order mark, as editors and some Windows tools put before UTF-8 text, is not JSON.
    let i = this.#offset === 0 && length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0
    while (i < length && !(this.#headerOnly && this.#header)) {
      switch (this.#state) {
        case INTEGERS: i = this.#scanIntegers(chunk, i); break
        case STRINGS: i = this.#scanStrings(chunk, i); break
        case CAPTURE:
        case SKIP_VALUE: i = this.#scanValue(chunk, i); break
        default: i = this.#scanStructure(chunk, i)
      }
    }
    this.#offset += length
  }

  /**
   * Ends the input and returns the parsed snapshot.
   * @returns {SnapshotData}
   */
  finish () {
    if (this.#offset === 0) throw this.#fail('empty input (0 bytes): not a heap snapshot', 0)
    if (this.#state !== DONE) {
      throw this.#fail('unexpected end of data: the snapshot is cut short (was the writing process killed, or the copy incomplete?)', this.#offset)
    }
    const header = this.#header
    if (!header) throw this.#fail('not a V8 heap snapshot: no "snapshot" header', this.#offset)
    for (const key of ['nodes', 'edges', 'strings']) {
      if (!this.#seenKeys.has(key)) throw this.#fail(`not a V8 heap snapshot: no "${key}" array`, this.#offset)
    }
    // Views, not copies: the arrays were sized from above and their unused tails never touched, so
    // they hold no memory, while a copy would hold the used part twice until the next GC. (A
    // transfer to another thread moves the whole buffer without copying it.)
    const strings = new StringTable(this.#strBytes.subarray(0, this.#strSize), this.#strStarts.subarray(0, this.#strCount + 1), this.#strCount, this.#nonAscii)
    if (this.#maxNodeName >= strings.length || this.#maxEdgeName >= strings.length) {
      throw this.#fail(`a node or edge name points past the ${strings.length} strings`, this.#offset)
    }
    return {
      meta: header.meta,
      nodeTypeNames: header.nodeTypeNames,
      edgeTypeNames: header.edgeTypeNames,
      nodeCount: header.nodeCount,
      edgeCount: header.edgeCount,
      nodeTypes: this.#nodeTypes,
      nodeNames: this.#nodeNames,
      nodeIds: this.#nodeIds,
      selfSizes: this.#selfSizes,
      largeSelfSizes: { ordinals: Uint32Array.from(this.#largeOrdinals), sizes: Float64Array.from(this.#largeSizes) },
      detachedness: this.#detachedness,
      firstEdge: this.#firstEdge,
      edgeTypes: this.#edgeTypes,
      edgeNames: this.#edgeNames,
      edgeTargets: this.#edgeTargets,
      locations: this.#locations.subarray(0, this.#locationRows * 4),
      locationCount: this.#locationRows,
      strings,
      rootOrdinal: header.rootIndex / header.nodeFieldCount,
      byteLength: this.#offset,
      label: this.#label
    }
  }

  #locationRows = 0

  /**
   * @param {string} message
   * @param {number} offset
   */
  #fail (message, offset) {
    return new SnapshotFormatError(message, { file: this.#label, offset })
  }

  /**
   * The top-level object: keys, colons, commas, and the dispatch of each value.
   * @param {Buffer} buf
   * @param {number} i
   */
  #scanStructure (buf, i) {
    const length = buf.length
    for (; i < length; i++) {
      const c = buf[i]
      const state = this.#state
      if (state === KEY) {
        const end = buf.indexOf(QUOTE, i)
        this.#keyBytes += (end === -1 ? length : end) - i
        // Keys are short words ("nodes", "trace_tree"): a long one is no snapshot, and would be
        // held in memory and quoted in the error message whole.
        if (this.#keyBytes > MAX_KEY_BYTES) throw this.#fail(`not a heap snapshot: a top-level key longer than ${MAX_KEY_BYTES} bytes`, this.#offset + i)
        if (end === -1) {
          this.#keyParts.push(Buffer.from(buf.subarray(i)))
          return length
        }
        this.#keyParts.push(buf.subarray(i, end))
        this.#key = Buffer.concat(this.#keyParts).toString('latin1')
        this.#keyParts = []
        this.#state = COLON
        i = end
        continue
      }
      if (isSpace(c)) continue
      switch (state) {
        case TOP_START:
          // PowerShell's `>` and some editors write UTF-16: a byte order mark FF FE or FE FF, or
          // a NUL after each ASCII character.
          if (c === 0xff || c === 0xfe || (c === OPEN_BRACE && buf[i + 1] === 0) || (c === 0 && buf[i + 1] === OPEN_BRACE)) {
            throw this.#fail('not a heap snapshot: the text is UTF-16, and heap snapshots are UTF-8 (was it saved through PowerShell\'s > or an editor?)', this.#offset + i)
          }
          if (c !== OPEN_BRACE) {
            throw this.#fail(`not a heap snapshot: expected JSON starting with '{', got ${printable(c)}`, this.#offset + i)
          }
          this.#state = TOP_FIRST_KEY
          break
        case TOP_FIRST_KEY:
        case TOP_KEY:
          if (c === QUOTE) {
            this.#state = KEY
            this.#keyBytes = 0
          } else if (c === CLOSE_BRACE && state === TOP_FIRST_KEY) this.#state = DONE
          else throw this.#fail(`invalid JSON: expected a key, got ${printable(c)}`, this.#offset + i)
          break
        case COLON:
          if (c !== COLON_CHAR) throw this.#fail(`invalid JSON: expected ':' after ${JSON.stringify(this.#key)}, got ${printable(c)}`, this.#offset + i)
          this.#state = VALUE
          break
        case VALUE:
          return this.#startValue(buf, i)
        case AFTER_VALUE:
          if (c === COMMA) this.#state = TOP_KEY
          else if (c === CLOSE_BRACE) this.#state = DONE
          else throw this.#fail(`invalid JSON: expected ',' or '}' after the ${JSON.stringify(this.#key)} value, got ${printable(c)}`, this.#offset + i)
          break
        case DONE:
          throw this.#fail(`unexpected data after the end of the snapshot: ${printable(c)}`, this.#offset + i)
      }
    }
    return i
  }

  /**
   * @param {Buffer} buf
   * @param {number} i position of the value's first byte
   */
  #startValue (buf, i) {
    const key = this.#key
    const c = buf[i]
    if (this.#seenKeys.has(key)) throw this.#fail(`${JSON.stringify(key)} appears twice`, this.#offset + i)
    this.#seenKeys.add(key)
    if (key === 'snapshot') {
      if (c !== OPEN_BRACE) throw this.#fail(`expected "snapshot" to be an object, got ${printable(c)}`, this.#offset + i)
      this.#state = CAPTURE
      this.#depth = 0
      this.#skipStarted = false
      return i
    }
    if (key === 'nodes' || key === 'edges' || key === 'locations' || key === 'strings') {
      if (c !== OPEN_BRACKET) throw this.#fail(`expected "${key}" to be an array, got ${printable(c)}`, this.#offset + i)
      if (!this.#header) throw this.#fail(`"${key}" comes before the "snapshot" header`, this.#offset + i)
      this.#field = 0
      this.#row = 0
      this.#arrayStart = this.#offset + i
      // Arrays whose length the header does not give are sized from the bytes left in the file, an
      // upper bound: the pages past what the parser writes are never touched, so they cost address
      // space but no memory. Grown by doubling instead, their discarded copies leave freed blocks
      // that malloc keeps resident (40 to 50 MB while analysing the 1 GB bench file).
      const remaining = this.#exactBytes ? this.#maxBytes - this.#offset - i : Infinity
      if (key === 'strings') {
        this.#state = STRINGS
        this.#strState = STR_FIRST
        this.#strSize = 0
        this.#strCount = 0
        // Each string takes at least 3 bytes: two quotes and a separator.
        if (Number.isFinite(remaining)) this.#strStarts = presized(Math.floor(remaining / 3) + 2, this.#strStarts)
        this.#strStarts[0] = 0
        this.#strBytes = Buffer.allocUnsafeSlow(Number.isFinite(remaining) ? Math.max(remaining, 16) : 1 << 24)
      } else {
        this.#state = INTEGERS
        this.#intState = INT_FIRST
        this.#value = 0
        this.#inNumber = false
        this.#array = key === 'nodes' ? ARRAY_NODES : key === 'edges' ? ARRAY_EDGES : ARRAY_LOCATIONS
        // A location row is 4 values of at least a digit and a separator each.
        if (this.#array === ARRAY_LOCATIONS && Number.isFinite(remaining)) this.#locations = presized(Math.floor(remaining / 8) * 4, this.#locations)
      }
      return i + 1
    }
    this.#state = SKIP_VALUE
    this.#depth = 0
    this.#skipStarted = false
    return i
  }

  /**
   * Walks over one JSON value (object, array, string or literal), keeping its bytes in CAPTURE.
   * @param {Buffer} buf
   * @param {number} i
   */
  #scanValue (buf, i) {
    const length = buf.length
    const start = i
    const capture = this.#state === CAPTURE
    let depth = this.#depth
    let inString = this.#inString
    let escape = this.#escape
    let ended = false
    for (; i < length; i++) {
      const c = buf[i]
      if (inString) {
        if (escape) escape = false
        else if (c === BACKSLASH) escape = true
        else if (c === QUOTE) {
          inString = false
          if (depth === 0) { i++; ended = true; break }
        }
        continue
      }
      if (c === QUOTE) {
        inString = true
        this.#skipStarted = true
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++
        this.#skipStarted = true
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) { ended = true; break }
        depth--
        if (depth === 0) { i++; ended = true; break }
      } else if (c === COMMA && depth === 0) {
        ended = true
        break
      } else if (isSpace(c) && depth === 0 && this.#skipStarted) {
        ended = true
        break
      } else {
        this.#skipStarted = true
      }
    }
    this.#depth = depth
    this.#inString = inString
    this.#escape = escape
    if (capture) {
      this.#capturedBytes += i - start
      if (this.#capturedBytes > MAX_HEADER_BYTES) throw this.#fail('the "snapshot" header is larger than 1 MiB: not a V8 heap snapshot', this.#offset + i)
      this.#captured.push(Buffer.from(buf.subarray(start, i)))
    }
    if (ended) {
      this.#state = AFTER_VALUE
      if (capture) this.#endHeader(this.#offset + i)
    }
    return i
  }

  /** @param {number} offset */
  #endHeader (offset) {
    const text = Buffer.concat(this.#captured).toString('latin1')
    this.#captured = []
    const header = readHeader(text, { label: this.#label, offset })
    const { nodeCount, edgeCount, nodeFieldCount, edgeFieldCount } = header
    // Every value takes at least one digit and one separator.
    const leastBytes = 2 * (nodeCount * nodeFieldCount + edgeCount * edgeFieldCount)
    if (leastBytes > this.#maxBytes) {
      throw this.#fail(`node_count ${nodeCount} and edge_count ${edgeCount} need at least ${leastBytes} bytes, but ${this.#exactBytes ? 'the file has' : 'the compressed file can hold at most'} ${this.#maxBytes}: the snapshot is cut short or its counts are wrong`, offset)
    }
    this.#header = header
    if (this.#headerOnly) return
    this.#rowValues = new Float64Array(Math.max(nodeFieldCount, edgeFieldCount))
    const bounded = Number.isFinite(this.#maxBytes)
    this.#growNodes(bounded ? nodeCount : Math.min(nodeCount, this.#firstNodeRows), offset)
    this.#growEdges(bounded ? edgeCount : Math.min(edgeCount, this.#firstEdgeRows), offset)
  }

  /**
   * Makes the node columns `rows` long, keeping what they hold.
   * @param {number} rows
   * @param {number} offset for the error
   */
  #growNodes (rows, offset) {
    const kept = this.#nodeCapacity
    try {
      this.#nodeTypes = grown(unzeroed(Uint8Array, rows), this.#nodeTypes, kept)
      this.#nodeNames = grown(unzeroed(Uint32Array, rows), this.#nodeNames, kept)
      this.#nodeIds = grown(unzeroed(Uint32Array, rows), this.#nodeIds, kept)
      this.#selfSizes = grown(unzeroed(Uint32Array, rows), this.#selfSizes, kept)
      // Written only where a node has a state (or-ed in): zero elsewhere.
      this.#detachedness = grown(new Uint8Array(rows), this.#detachedness, kept)
      // Each row's end is written; the first start is 0.
      const firstEdge = unzeroed(Uint32Array, rows + 1)
      firstEdge[0] = 0
      this.#firstEdge = grown(firstEdge, this.#firstEdge, kept + 1)
    } catch (error) {
      throw this.#noMemory(error, offset)
    }
    this.#nodeCapacity = rows
  }

  /**
   * Makes the edge columns `rows` long, keeping what they hold.
   * @param {number} rows
   * @param {number} offset for the error
   */
  #growEdges (rows, offset) {
    const kept = this.#edgeCapacity
    try {
      this.#edgeTypes = grown(unzeroed(Uint8Array, rows), this.#edgeTypes, kept)
      this.#edgeNames = grown(unzeroed(Uint32Array, rows), this.#edgeNames, kept)
      this.#edgeTargets = grown(unzeroed(Uint32Array, rows), this.#edgeTargets, kept)
    } catch (error) {
      throw this.#noMemory(error, offset)
    }
    this.#edgeCapacity = rows
  }

  /** @param {unknown} error @param {number} offset */
  #noMemory (error, offset) {
    const { nodeCount, edgeCount } = /** @type {SnapshotHeader} */ (this.#header)
    return new SnapshotFormatError(`cannot allocate ${nodeCount} nodes and ${edgeCount} edges (${/** @type {Error} */ (error).message})`, { file: this.#label, offset, cause: error })
  }

  /**
   * Before a chunk of \`nodes\` or \`edges\` is scanned: columns long enough for every row it can
   * complete (each value takes a digit and a separator, the row in progress counts too).
   * @param {number} bytes the chunk's bytes from the scan position on
   * @param {number} offset
   */
  #reserveRows (bytes, offset) {
    const header = /** @type {SnapshotHeader} */ (this.#header)
    if (this.#array === ARRAY_NODES) {
      if (this.#nodeCapacity === header.nodeCount) return
      const need = Math.min(header.nodeCount, this.#row + Math.ceil(bytes / (2 * header.nodeFieldCount - 1)) + 1)
      if (need > this.#nodeCapacity) this.#growNodes(Math.min(header.nodeCount, Math.max(need, 2 * this.#nodeCapacity)), offset)
    } else if (this.#array === ARRAY_EDGES) {
      if (this.#edgeCapacity === header.edgeCount) return
      const need = Math.min(header.edgeCount, this.#row + Math.ceil(bytes / (2 * header.edgeFieldCount - 1)) + 1)
      if (need > this.#edgeCapacity) this.#growEdges(Math.min(header.edgeCount, Math.max(need, 2 * this.#edgeCapacity)), offset)
    }
  }

  /**
   * The `nodes`, `edges` and `locations` arrays: non-negative decimal integers, straight from bytes
   * into their columns. Whole rows go through a fast loop (#fastNodes, #fastEdges); the bytes it
   * cannot take (a row near the end of the chunk, the closing bracket, anything unusual) go through
   * the general one, a value at a time, which also gives the exact error.
   * @param {Buffer} buf
   * @param {number} i
   */
  #scanIntegers (buf, i) {
    const length = buf.length
    this.#reserveRows(length - i, this.#offset + i)
    const fastEnd = length - FAST_MARGIN
    const array = this.#array
    while (i < length) {
      if (i < fastEnd && this.#field === 0 && !this.#inNumber) {
        if (array === ARRAY_NODES) i = this.#fastNodes(buf, i, fastEnd)
        else if (array === ARRAY_EDGES) i = this.#fastEdges(buf, i, fastEnd)
      }
      let c = buf[i]
      if (c <= 0x39 && c >= 0x30) {
        if (!this.#inNumber) {
          if (this.#intState === INT_AFTER) break
          this.#inNumber = true
          this.#numberStart = this.#offset + i
        }
        let value = this.#value
        do {
          value = value * 10 + (c - 0x30)
          if (++i === length) break
          c = buf[i]
        } while (c <= 0x39 && c >= 0x30)
        this.#value = value
        // The number may continue in the next chunk.
        if (i === length) break
      }
      if (this.#inNumber) {
        this.#put(this.#value, this.#numberStart)
        this.#value = 0
        this.#inNumber = false
        this.#intState = INT_AFTER
      }
      if (c === COMMA) {
        if (this.#intState !== INT_AFTER) break
        this.#intState = INT_NEXT
      } else if (c === CLOSE_BRACKET) {
        if (this.#intState === INT_NEXT) break
        this.#endIntegers(this.#offset + i)
        this.#state = AFTER_VALUE
        return i + 1
      } else if (!isSpace(c)) {
        break
      }
      i++
    }
    if (i < length) {
      const c = buf[i]
      const what = c === 0x2d || c === 0x2e || c === 0x65 || c === 0x45
        ? 'expected a non-negative integer'
        : 'invalid JSON in an integer array'
      throw this.#fail(`${what} in "${this.#key}", got ${printable(c)}`, this.#offset + i)
    }
    return i
  }

  /**
   * Whole `nodes` rows from byte `i` while rows start before `end`; stops, before the row, at
   * anything that is not `[space] , digits` per field or a value the general path must judge.
   * @param {Buffer} buf
   * @param {number} i a row boundary
   * @param {number} end
   * @returns {number} the next row boundary
   */
  #fastNodes (buf, i, end) {
    const header = /** @type {SnapshotHeader} */ (this.#header)
    const fieldCount = header.nodeFieldCount
    const nodeCount = header.nodeCount
    const edgeCount = header.edgeCount
    const typeCount = header.nodeTypeNames.length
    const { typeAt, nameAt, idAt, selfAt, edgeCountAt, detachedAt } = header.nodeFieldAt
    const nodeTypes = this.#nodeTypes
    const nodeNames = this.#nodeNames
    const nodeIds = this.#nodeIds
    const selfSizes = this.#selfSizes
    const detachedness = this.#detachedness
    const firstEdge = this.#firstEdge
    const values = this.#rowValues
    let row = this.#row
    let maxName = this.#maxNodeName
    // No comma before the array's first row, nor after one the general path has consumed.
    let first = this.#intState === INT_AFTER ? 0 : 1
    const startRow = row
    let edgeEnd = firstEdge[row]
    if (fieldCount === 7 && typeAt === 0 && nameAt === 1 && idAt === 2 && selfAt === 3 && edgeCountAt === 4 && detachedAt === 6) {
      // Node 20's layout, unrolled: type,name,id,self_size,edge_count,trace_node_id,detachedness.
      while (i < end && row < nodeCount) {
        let p = i
        let c = buf[p]
        if (first === 0) {
          if (c !== COMMA) {
            while (c === 0x0a || c === 0x20 || c === 0x0d || c === 0x09) c = buf[++p]
            if (c !== COMMA) break
          }
          c = buf[++p]
        }
        if (c > 0x39 || c < 0x30) break
        let type = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          type = type * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let name = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          name = name * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let id = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          id = id * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let self = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          self = self * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let edges = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          edges = edges * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let trace = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          trace = trace * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let detached = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          detached = detached * 10 + (c - 0x30)
          c = buf[++p]
        }
        const rowEnd = edgeEnd + edges
        if (type >= typeCount || name > MAX_UINT32 || id > MAX_UINT32 || rowEnd > edgeCount) break
        nodeTypes[row] = type
        nodeNames[row] = name
        if (name > maxName) maxName = name
        nodeIds[row] = id
        if (self < LARGE_SIZE) selfSizes[row] = self
        else this.#putLargeSize(selfSizes, row, self)
        // Only the few nonzero states are written (the zeros go to entry 0, unchanged), so in a heap
        // without detached nodes the column's pages are never touched and take no memory; with no
        // branch, the compiled loop has no path it has not yet seen.
        const state = detached > 255 ? 255 : detached
        detachedness[state === 0 ? 0 : row] |= state
        firstEdge[++row] = rowEnd
        edgeEnd = rowEnd
        first = 0
        i = p
      }
    } else {
      while (i < end && row < nodeCount) {
        let p = i
        let f = 0
        for (; f < fieldCount; f++) {
          let c = buf[p]
          if (first === 0) {
            if (c !== COMMA) {
              while (c === 0x0a || c === 0x20 || c === 0x0d || c === 0x09) c = buf[++p]
              if (c !== COMMA) break
            }
            c = buf[++p]
          }
          first = 0
          if (c > 0x39 || c < 0x30) break
          let value = c - 0x30
          c = buf[++p]
          while (c <= 0x39 && c >= 0x30) {
            value = value * 10 + (c - 0x30)
            c = buf[++p]
          }
          values[f] = value
        }
        const type = values[typeAt]
        const name = values[nameAt]
        const id = values[idAt]
        const rowEnd = edgeEnd + values[edgeCountAt]
        if (f < fieldCount || type >= typeCount || name > MAX_UINT32 || id > MAX_UINT32 || rowEnd > edgeCount) break
        nodeTypes[row] = type
        nodeNames[row] = name
        if (name > maxName) maxName = name
        nodeIds[row] = id
        const self = values[selfAt]
        if (self < LARGE_SIZE) selfSizes[row] = self
        else this.#putLargeSize(selfSizes, row, self)
        if (detachedAt >= 0) {
          const state = Math.min(values[detachedAt], 255)
          detachedness[state === 0 ? 0 : row] |= state
        }
        firstEdge[++row] = rowEnd
        edgeEnd = rowEnd
        i = p
      }
    }
    if (row > startRow) this.#intState = INT_AFTER
    this.#row = row
    this.#maxNodeName = maxName
    return i
  }

  /**
   * Whole `edges` rows, as #fastNodes does for nodes.
   * @param {Buffer} buf
   * @param {number} i a row boundary
   * @param {number} end
   * @returns {number} the next row boundary
   */
  #fastEdges (buf, i, end) {
    const header = /** @type {SnapshotHeader} */ (this.#header)
    const fieldCount = header.edgeFieldCount
    const edgeCount = header.edgeCount
    const nodeFieldCount = header.nodeFieldCount
    const nodeIndexLimit = header.nodeCount * nodeFieldCount
    const typeCount = header.edgeTypeNames.length
    const numericName = header.numericEdgeName
    const { typeAt, nameAt, toAt } = header.edgeFieldAt
    const edgeTypes = this.#edgeTypes
    const edgeNames = this.#edgeNames
    const edgeTargets = this.#edgeTargets
    const values = this.#rowValues
    let row = this.#row
    let maxName = this.#maxEdgeName
    let first = this.#intState === INT_AFTER ? 0 : 1
    const startRow = row
    if (fieldCount === 3 && typeAt === 0 && nameAt === 1 && toAt === 2) {
      // V8's layout, unrolled: type,name,to_node with the values in locals.
      while (i < end && row < edgeCount) {
        let p = i
        let c = buf[p]
        if (first === 0) {
          if (c !== COMMA) {
            while (c === 0x0a || c === 0x20 || c === 0x0d || c === 0x09) c = buf[++p]
            if (c !== COMMA) break
          }
          c = buf[++p]
        }
        if (c > 0x39 || c < 0x30) break
        let type = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          type = type * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let name = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          name = name * 10 + (c - 0x30)
          c = buf[++p]
        }
        if (c !== COMMA) break
        c = buf[++p]
        if (c > 0x39 || c < 0x30) break
        let to = c - 0x30
        c = buf[++p]
        while (c <= 0x39 && c >= 0x30) {
          to = to * 10 + (c - 0x30)
          c = buf[++p]
        }
        const target = to / nodeFieldCount
        if (type >= typeCount || name > MAX_UINT32 || to >= nodeIndexLimit || target !== Math.floor(target)) break
        edgeTypes[row] = type
        edgeNames[row] = name
        edgeTargets[row] = target
        if (name > maxName && numericName[type] === 0) maxName = name
        row++
        first = 0
        i = p
      }
    } else {
      while (i < end && row < edgeCount) {
        let p = i
        let f = 0
        for (; f < fieldCount; f++) {
          let c = buf[p]
          if (first === 0) {
            if (c !== COMMA) {
              while (c === 0x0a || c === 0x20 || c === 0x0d || c === 0x09) c = buf[++p]
              if (c !== COMMA) break
            }
            c = buf[++p]
          }
          first = 0
          if (c > 0x39 || c < 0x30) break
          let value = c - 0x30
          c = buf[++p]
          while (c <= 0x39 && c >= 0x30) {
            value = value * 10 + (c - 0x30)
            c = buf[++p]
          }
          values[f] = value
        }
        const type = values[typeAt]
        const name = values[nameAt]
        const to = values[toAt]
        const target = to / nodeFieldCount
        if (f < fieldCount || type >= typeCount || name > MAX_UINT32 || to >= nodeIndexLimit || target !== Math.floor(target)) break
        edgeTypes[row] = type
        edgeNames[row] = name
        edgeTargets[row] = target
        if (numericName[type] === 0 && name > maxName) maxName = name
        row++
        i = p
      }
    }
    if (row > startRow) this.#intState = INT_AFTER
    this.#row = row
    this.#maxEdgeName = maxName
    return i
  }

  /**
   * One value of the current array into its column (the general path).
   * @param {number} value
   * @param {number} start byte offset of the value, for errors
   */
  #put (value, start) {
    if (this.#array === ARRAY_NODES) this.#putNode(value, start)
    else if (this.#array === ARRAY_EDGES) this.#putEdge(value, start)
    else this.#putLocation(value, start)
  }

  /** @param {number} value @param {number} start */
  #putNode (value, start) {
    const header = /** @type {SnapshotHeader} */ (this.#header)
    const row = this.#row
    const nodeCount = header.nodeCount
    if (row >= nodeCount) throw this.#fail(`"nodes" has more than node_count (${nodeCount}) rows`, start)
    switch (header.nodeFieldCodes[this.#field]) {
      case NODE_TYPE: {
        const typeCount = header.nodeTypeNames.length
        if (value >= typeCount) throw this.#fail(`node type ${value} is not in meta.node_types (${typeCount} types)`, start)
        this.#nodeTypes[row] = value
        break
      }
      case NODE_NAME:
        if (value > MAX_UINT32) throw this.#fail(`node name ${value} is not a string index`, start)
        this.#nodeNames[row] = value
        if (value > this.#maxNodeName) this.#maxNodeName = value
        break
      case NODE_ID:
        if (value > MAX_UINT32) throw this.#fail(`node id ${value} does not fit 32 bits`, start)
        this.#nodeIds[row] = value
        break
      case NODE_SELF_SIZE:
        if (value < LARGE_SIZE) this.#selfSizes[row] = value
        else this.#putLargeSize(this.#selfSizes, row, value)
        break
      case NODE_EDGE_COUNT: {
        const end = this.#firstEdge[row] + value
        if (end > header.edgeCount) throw this.#fail(`the nodes' edge counts add up to more than edge_count (${header.edgeCount})`, start)
        this.#firstEdge[row + 1] = end
        break
      }
      case NODE_DETACHEDNESS:
        if (value !== 0) this.#detachedness[row] = value > 255 ? 255 : value
        break
    }
    if (++this.#field === header.nodeFieldCount) {
      this.#field = 0
      this.#row = row + 1
    }
  }

  /**
   * A self size the Uint32 column cannot hold: the column gets the LARGE_SIZE mark, the exact
   * value goes to the side list. Rows arrive in order, so the list stays sorted.
   * @param {Uint32Array} selfSizes
   * @param {number} row
   * @param {number} size
   */
  #putLargeSize (selfSizes, row, size) {
    selfSizes[row] = LARGE_SIZE
    this.#largeOrdinals.push(row)
    this.#largeSizes.push(size)
  }

  /** @param {number} value @param {number} start */
  #putEdge (value, start) {
    const header = /** @type {SnapshotHeader} */ (this.#header)
    const row = this.#row
    const edgeCount = header.edgeCount
    if (row >= edgeCount) throw this.#fail(`"edges" has more than edge_count (${edgeCount}) rows`, start)
    switch (header.edgeFieldCodes[this.#field]) {
      case EDGE_TYPE: {
        const typeCount = header.edgeTypeNames.length
        if (value >= typeCount) throw this.#fail(`edge type ${value} is not in meta.edge_types (${typeCount} types)`, start)
        this.#edgeTypes[row] = value
        break
      }
      case EDGE_NAME:
        if (value > MAX_UINT32) throw this.#fail(`edge name_or_index ${value} does not fit 32 bits`, start)
        this.#edgeNames[row] = value
        break
      case EDGE_TO_NODE: {
        const nodeFieldCount = header.nodeFieldCount
        if (value >= header.nodeCount * nodeFieldCount || value % nodeFieldCount !== 0) {
          throw this.#fail(`edge ${row} points to node index ${value}, which is not one of the ${header.nodeCount} nodes`, start)
        }
        this.#edgeTargets[row] = value / nodeFieldCount
        break
      }
    }
    if (++this.#field === header.edgeFieldCount) {
      // The name's meaning depends on the type, which may come later in the row.
      const name = this.#edgeNames[row]
      if (header.numericEdgeName[this.#edgeTypes[row]] === 0 && name > this.#maxEdgeName) this.#maxEdgeName = name
      this.#field = 0
      this.#row = row + 1
    }
  }

  /** @param {number} value @param {number} start */
  #putLocation (value, start) {
    const header = /** @type {SnapshotHeader} */ (this.#header)
    const row = this.#row
    if (value > MAX_UINT32) throw this.#fail(`location value ${value} does not fit 32 bits`, start)
    if ((row + 1) * 4 > this.#locations.length) {
      const grown = new Uint32Array(Math.max(this.#locations.length * 2, 4096))
      grown.set(this.#locations)
      this.#locations = grown
    }
    const locations = this.#locations
    switch (header.locationFieldCodes[this.#field]) {
      case LOCATION_OBJECT: {
        const nodeFieldCount = header.nodeFieldCount
        if (value >= header.nodeCount * nodeFieldCount || value % nodeFieldCount !== 0) {
          throw this.#fail(`location ${row} points to node index ${value}, which is not one of the ${header.nodeCount} nodes`, start)
        }
        locations[row * 4] = value / nodeFieldCount
        break
      }
      case LOCATION_SCRIPT: locations[row * 4 + 1] = value; break
      case LOCATION_LINE: locations[row * 4 + 2] = value; break
      case LOCATION_COLUMN: locations[row * 4 + 3] = value; break
    }
    if (++this.#field === header.locationFieldCount) {
      this.#field = 0
      this.#row = row + 1
      this.#locationRows = row + 1
    }
  }

  /** @param {number} offset */
  #endIntegers (offset) {
    const header = /** @type {SnapshotHeader} */ (this.#header)
    const key = this.#key
    if (this.#field !== 0) throw this.#fail(`"${key}" ends in the middle of a row (${this.#field} of ${this.#array === ARRAY_NODES ? header.nodeFieldCount : this.#array === ARRAY_EDGES ? header.edgeFieldCount : header.locationFieldCount} fields)`, offset)
    if (this.#array === ARRAY_NODES) {
      if (this.#row !== header.nodeCount) throw this.#fail(`"nodes" has ${this.#row} rows, but node_count is ${header.nodeCount}`, offset)
      if (this.#firstEdge[header.nodeCount] !== header.edgeCount) {
        throw this.#fail(`the nodes' edge counts add up to ${this.#firstEdge[header.nodeCount]}, but edge_count is ${header.edgeCount}`, offset)
      }
    } else if (this.#array === ARRAY_EDGES) {
      if (this.#row !== header.edgeCount) throw this.#fail(`"edges" has ${this.#row} rows, but edge_count is ${header.edgeCount}`, offset)
    }
  }

  /**
   * The `strings` array: each body copied raw (still JSON-escaped) into the string table's bytes.
   * @param {Buffer} buf
   * @param {number} i
   */
  #scanStrings (buf, i) {
    const length = buf.length
    while (i < length) {
      if (this.#strState === STR_IN) {
        // One test per byte for both kinds of escape: -1 after a backslash, 1 to 4 for the hex
        // digits still due after \u, 0 in plain text.
        let pending = this.#escape ? -1 : this.#hexLeft
        let j = i
        let high = false
        for (; j < length; j++) {
          const c = buf[j]
          // Escapes are checked here, where the error can name its offset: the table decodes
          // bodies with JSON.parse long after, when a bad one would be an internal error.
          if (pending !== 0) {
            if (pending > 0) {
              if (HEX_DIGITS[c] === 0) throw this.#fail(`invalid JSON: \\u is not followed by 4 hex digits in a string, got ${printable(c)}`, this.#offset + j)
              pending--
              continue
            }
            const kind = ESCAPES[c]
            if (kind === UNICODE_ESCAPE) pending = 4
            else if (kind === SIMPLE_ESCAPE) pending = 0
            else throw this.#fail(`invalid JSON: the escape \\${c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : ''} in a string is not one JSON knows (${printable(c)})`, this.#offset + j)
            continue
          }
          if (c === QUOTE) break
          if (c === BACKSLASH) pending = -1
          else if (c < 0x20) throw this.#fail('invalid JSON: a control character inside a string', this.#offset + j)
          else if (c > 0x7f) high = true
        }
        if (high) this.#nonAscii = true
        this.#appendString(buf, i, j)
        this.#escape = pending === -1
        this.#hexLeft = pending > 0 ? pending : 0
        if (j === length) return length
        this.#endString()
        this.#strState = STR_AFTER
        i = j + 1
        continue
      }
      const c = buf[i]
      if (isSpace(c)) { i++; continue }
      if (c === QUOTE && this.#strState !== STR_AFTER) {
        this.#strState = STR_IN
        this.#escape = false
        this.#hexLeft = 0
      } else if (c === COMMA && this.#strState === STR_AFTER) {
        this.#strState = STR_NEXT
      } else if (c === CLOSE_BRACKET && this.#strState !== STR_NEXT) {
        this.#state = AFTER_VALUE
        return i + 1
      } else {
        throw this.#fail(`invalid JSON in "strings": expected ${this.#strState === STR_AFTER ? "',' or ']'" : 'a string'}, got ${printable(c)}`, this.#offset + i)
      }
      i++
    }
    return i
  }

  /** @param {Buffer} buf @param {number} start @param {number} end */
  #appendString (buf, start, end) {
    const size = end - start
    if (this.#strSize + size > this.#strBytes.length) {
      const capacity = Math.max(this.#strSize + size, this.#strBytes.length * 2)
      const grown = Buffer.allocUnsafeSlow(capacity)
      this.#strBytes.copy(grown, 0, 0, this.#strSize)
      this.#strBytes = grown
    }
    // Most strings are a few bytes: a loop copies those for less than Buffer#copy's call costs.
    if (size <= 32) {
      const bytes = this.#strBytes
      for (let i = start, at = this.#strSize; i < end; i++, at++) bytes[at] = buf[i]
    } else {
      buf.copy(this.#strBytes, this.#strSize, start, end)
    }
    this.#strSize += size
  }

  #endString () {
    if (this.#strSize > MAX_UINT32) throw this.#fail('the strings section is larger than 4 GiB', this.#offset)
    this.#strCount++
    if (this.#strCount + 1 > this.#strStarts.length) {
      const grown = new Uint32Array(this.#strStarts.length * 2)
      grown.set(this.#strStarts)
      this.#strStarts = grown
    }
    this.#strStarts[this.#strCount] = this.#strSize
  }
}

// Deflate expands a byte to at most 1032 (zlib's FAQ: "the limit is 1032:1"), so a gzip file of
// n bytes holds at most 1032 n bytes of text: a tiny file cannot claim a big heap.
const MAX_DEFLATE_RATIO = 1032

/**
 * The parser's size options for an input: a plain file's length is exact, a gzip file's length
 * bounds its text, a stream's is unknown.
 * @param {{totalBytes: number, gzip: boolean}} input totalBytes: 0 when unknown
 * @returns {{maxBytes: number, exactBytes: boolean}}
 */
export function inputLimits ({ totalBytes, gzip }) {
  if (totalBytes <= 0) return { maxBytes: Infinity, exactBytes: false }
  return gzip ? { maxBytes: totalBytes * MAX_DEFLATE_RATIO, exactBytes: false } : { maxBytes: totalBytes, exactBytes: true }
}

/**
 * `to` with the first `count` entries of `from` copied in.
 * @template {Uint8Array | Uint32Array} T
 * @param {T} to
 * @param {T} from
 * @param {number} count
 * @returns {T}
 */
function grown (to, from, count) {
  if (count > 0) to.set(from.subarray(0, count))
  return to
}

/**
 * A Uint32Array of `entries` (at most MAX_PRESIZED), or `fallback` (grown later on demand) when the
 * address space for it cannot be had, as where the system does not overcommit memory. Not zeroed:
 * only the entries written are read.
 * @param {number} entries
 * @param {Uint32Array<ArrayBuffer>} fallback
 * @returns {Uint32Array<ArrayBuffer>}
 */
function presized (entries, fallback) {
  try {
    return unzeroed(Uint32Array, Math.min(entries, MAX_PRESIZED))
  } catch {
    return fallback
  }
}

/**
 * A typed array of `length` entries whose memory is not zeroed first, for a column the parse writes
 * every entry of before anything reads it. Zeroed memory is free when it comes straight from the
 * system, but memory a freed array left (a diff's later snapshots, a worker thread's) is cleared
 * page by page: 30 to 60 ms per snapshot of 2.9 million nodes, on top of the parse's own writes.
 * @template {Uint8ArrayConstructor | Uint32ArrayConstructor} T
 * @param {T} Type
 * @param {number} length
 * @returns {InstanceType<T>}
 */
function unzeroed (Type, length) {
  const bytes = length * Type.BYTES_PER_ELEMENT
  if (bytes > MAX_BUFFER_BYTES) return /** @type {InstanceType<T>} */ (new Type(length))
  const buffer = Buffer.allocUnsafeSlow(bytes)
  return /** @type {InstanceType<T>} */ (new Type(buffer.buffer, buffer.byteOffset, length))
}

/** @param {number} c */
function printable (c) {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`
}
