// Mutations of a real heap snapshot, for the fuzz runs (fuzz/run.js and test/parse/fuzz.test.js).
// Each mutation is a plain JSON-safe description (so a failure prints it), drawn by fast-check from
// a seed, and applied to the bytes of a snapshot V8 wrote. Some mutations keep the snapshot's
// meaning (fields reordered, whitespace, key order): the analysis must then equal the original's.
// Others break it in a way no reader may accept (a cut, a pointer out of range): the parse must
// then fail. The rest may go either way, but must end in an analysis or a LEAKDIFF_* error.
import fc from 'fast-check'
import { gzipSync } from 'node:zlib'

/**
 * Where things are in the original bytes.
 * @typedef {object} SnapshotLayout
 * @property {Buffer} bytes
 * @property {any} header              the parsed `snapshot` object
 * @property {number} headerStart      offset of the `snapshot` value
 * @property {number} headerEnd        offset just past it
 * @property {Record<'nodes' | 'edges', {starts: Uint32Array, ends: Uint32Array, open: number, close: number}>} arrays
 *   per integer array: each value's byte range, the offsets of its '[' and ']'
 * @property {{starts: Uint32Array, ends: Uint32Array, open: number, close: number}} strings  each string's quotes
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} stringCount
 */

/**
 * Finds the sections of a snapshot as V8 writes it (`{"snapshot":{...},\n"nodes":[...` and so on).
 * @param {Buffer} bytes
 * @returns {SnapshotLayout}
 */
export function readLayout (bytes) {
  const headerStart = bytes.indexOf('{', 1)
  const nodesKey = bytes.indexOf('"nodes":[')
  const headerEnd = bytes.lastIndexOf('}', nodesKey) + 1
  const header = JSON.parse(bytes.toString('latin1', headerStart, headerEnd))
  const arrays = {
    nodes: integerRanges(bytes, nodesKey + '"nodes":'.length),
    edges: integerRanges(bytes, bytes.indexOf('"edges":[') + '"edges":'.length)
  }
  const strings = stringRanges(bytes, bytes.indexOf('"strings":[') + '"strings":'.length)
  return {
    bytes,
    header,
    headerStart,
    headerEnd,
    arrays,
    strings,
    nodeCount: header.node_count,
    edgeCount: header.edge_count,
    stringCount: strings.starts.length
  }
}

/** @param {Buffer} bytes @param {number} open offset of '[' */
function integerRanges (bytes, open) {
  const starts = []
  const ends = []
  let i = open + 1
  for (; bytes[i] !== 0x5d; i++) {
    const c = bytes[i]
    if (c >= 0x30 && c <= 0x39) {
      starts.push(i)
      while (bytes[i + 1] >= 0x30 && bytes[i + 1] <= 0x39) i++
      ends.push(i + 1)
    }
  }
  return { starts: Uint32Array.from(starts), ends: Uint32Array.from(ends), open, close: i }
}

/** @param {Buffer} bytes @param {number} open offset of '[' */
function stringRanges (bytes, open) {
  const starts = []
  const ends = []
  let i = open + 1
  for (; bytes[i] !== 0x5d; i++) {
    if (bytes[i] !== 0x22) continue
    starts.push(i)
    i++
    while (bytes[i] !== 0x22) i += bytes[i] === 0x5c ? 2 : 1
    ends.push(i + 1)
  }
  return { starts: Uint32Array.from(starts), ends: Uint32Array.from(ends), open, close: i }
}

// Numbers no integer column may take, and numbers at the edges of what the columns hold.
const ODD_NUMBERS = ['-1', '-0', '1.5', '1e3', '1E+2', '2e308', '00', '4294967295', '4294967296', '9007199254740993',
  '99999999999999999999999999999', 'null', 'true', '"7"', '', ' ', '[]', '{}']
// String bodies: valid JSON that decodes to hostile text, and bytes that are not JSON or not UTF-8.
const STRING_BODIES = [
  '\\ud800', '\\udc00x', '\\ud83d', '\\u001b[31mred\\u001b[0m', '\\u0000', 'a\\\\b', '\\"', '\\/',
  '\\u00', '\\x41', '\\u12G4', '\\', 'tab\there', '\u0001', '\u007f', 'caf\u00c3\u00a9', '\u00c3', '\u00ff\u00fe', '\u00ed\u00a0\u0080',
  '\u00f4\u0090\u0080\u0080', 'x'.repeat(70000)
]

const position = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })

/** Byte-level damage anywhere in the file: the input of a flaky copy or a cut write. */
const byteMutation = fc.oneof(
  fc.record({ kind: fc.constant('cut'), at: position }),
  fc.record({ kind: fc.constant('flip'), at: fc.array(position, { minLength: 1, maxLength: 4 }), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('insert'), at: position, byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete'), at: position, length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('duplicate'), at: position, length: fc.integer({ min: 1, max: 4096 }) })
)

/** A value of `nodes` or `edges` replaced: out of range, off a field boundary, negative, huge, not a number. */
const valueMutation = fc.record({
  kind: fc.constant('value'),
  array: fc.constantFrom('nodes', 'edges'),
  at: position,
  field: fc.nat({ max: 6 }),
  value: fc.oneof(fc.constantFrom(...ODD_NUMBERS), fc.nat().map(String), fc.constantFrom('nodeCount', 'nodeCount+1', 'stringCount', 'edgeCount', 'fieldCount+1'))
})

/** The header's counts and field lists changed. */
const metaMutation = fc.record({
  kind: fc.constant('meta'),
  change: fc.constantFrom(
    'node_count+1', 'node_count-1', 'edge_count+1', 'edge_count-1', 'node_count=0', 'node_count=-1', 'node_count=1.5',
    'node_count="42"', 'node_count=2^32', 'node_count=1e12', 'edge_count=1e12', 'edge_count=2^32', 'node_count=2^53',
    'drop node field', 'drop edge field', 'duplicate node field', 'rename node field', 'empty node_types', 'no meta',
    'node_types[0] short', 'edge_types[0] short', 'location_fields short', 'root_index=1', 'root_index=-7', 'root_index=node_count',
    'meta not object', 'node_fields=strings', 'nested header', 'header null'
  ),
  field: fc.nat({ max: 6 })
})

/** Changes that keep the meaning: the analysis must not change. */
const faithfulMutation = fc.oneof(
  fc.record({ kind: fc.constant('reorder'), array: fc.constantFrom('nodes', 'edges'), seed: fc.integer(), extra: fc.boolean() }),
  fc.record({ kind: fc.constant('layout'), space: fc.constantFrom(' ', '\n', '\r\n', '\t', '  \n  '), keysSeed: fc.integer() })
)

/** A valid snapshot of another graph: the analysis must cope with any shape a file can hold. */
const graphMutation = fc.record({
  kind: fc.constant('graph'),
  change: fc.constantFrom('shuffle targets', 'all to root', 'self loops', 'shuffle node types', 'shuffle edge types', 'zero sizes', 'root elsewhere'),
  share: fc.double({ min: 0, max: 1, noNaN: true }),
  seed: fc.integer()
})

const stringMutation = fc.record({
  kind: fc.constant('string'),
  at: position,
  body: fc.constantFrom(...STRING_BODIES)
})

/** Structure: nesting, duplicate and unknown keys, sections in the wrong place. */
const structureMutation = fc.record({
  kind: fc.constant('structure'),
  change: fc.constantFrom('nest arrays', 'nest objects', 'nest in header', 'nest in strings', 'duplicate nodes', 'duplicate strings',
    'duplicate snapshot', 'duplicate header key', 'unknown key', 'nodes before snapshot', 'no strings', 'no edges', 'strings as object',
    'trailing garbage', 'trailing whitespace', 'top-level array', 'empty', 'bom', 'utf16'),
  depth: fc.integer({ min: 1, max: 200_000 })
})

/**
 * A fast-check arbitrary of fuzz cases: a mutation, whether the result is gzipped (then maybe
 * damaged again), and the chunk size the bytes arrive in.
 */
export const fuzzCase = fc.record({
  mutation: fc.oneof(
    { weight: 3, arbitrary: byteMutation },
    { weight: 3, arbitrary: valueMutation },
    { weight: 3, arbitrary: metaMutation },
    { weight: 2, arbitrary: faithfulMutation },
    { weight: 2, arbitrary: stringMutation },
    { weight: 2, arbitrary: structureMutation },
    { weight: 1, arbitrary: graphMutation }
  ),
  gzip: fc.constantFrom('none', 'none', 'none', 'plain', 'cut', 'flip'),
  gzipAt: position,
  chunkBytes: fc.constantFrom(65536, 1 << 20, 4093, 100_003)
})

/**
 * What a mutated input must lead to.
 * @typedef {'same' | 'error' | 'either'} Expectation
 */

/**
 * Applies a case to the original bytes.
 * @param {SnapshotLayout} layout
 * @param {any} fuzz a value of `fuzzCase`
 * @returns {{bytes: Buffer, expect: Expectation}}
 */
export function applyCase (layout, fuzz) {
  let { bytes, expect } = applyMutation(layout, fuzz.mutation)
  if (fuzz.gzip !== 'none') {
    bytes = gzipSync(bytes, { level: 1 })
    const at = Math.floor(fuzz.gzipAt * bytes.length)
    if (fuzz.gzip === 'cut') {
      bytes = bytes.subarray(0, at)
      expect = 'error'
    } else if (fuzz.gzip === 'flip') {
      bytes = Buffer.from(bytes)
      bytes[at] ^= 0x10
      // The gzip trailer's CRC catches a flip in the data; a flip in the header's flags may not.
      if (expect === 'same') expect = 'either'
    }
  }
  return { bytes, expect }
}

/**
 * @param {SnapshotLayout} layout
 * @param {any} m
 * @returns {{bytes: Buffer, expect: Expectation}}
 */
function applyMutation (layout, m) {
  const { bytes } = layout
  const length = bytes.length
  switch (m.kind) {
    case 'cut': {
      const at = Math.floor(m.at * length)
      // A cut is only harmless in the trailing newline (V8 writes none; other tools do).
      return { bytes: bytes.subarray(0, at), expect: 'error' }
    }
    case 'flip': {
      const copy = Buffer.from(bytes)
      for (const at of m.at) copy[Math.floor(at * length)] ^= 1 << m.bit
      return { bytes: copy, expect: 'either' }
    }
    case 'insert': {
      const at = Math.floor(m.at * length)
      return { bytes: Buffer.concat([bytes.subarray(0, at), Buffer.of(m.byte), bytes.subarray(at)]), expect: 'either' }
    }
    case 'delete': {
      const at = Math.floor(m.at * length)
      return { bytes: Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]), expect: 'either' }
    }
    case 'duplicate': {
      const at = Math.floor(m.at * length)
      return { bytes: Buffer.concat([bytes.subarray(0, at + m.length), bytes.subarray(at)]), expect: 'either' }
    }
    case 'value': return replaceValue(layout, m)
    case 'meta': return changeMeta(layout, m)
    case 'reorder': return reorderFields(layout, m)
    case 'layout': return relayout(layout, m)
    case 'string': {
      const index = Math.floor(m.at * layout.stringCount)
      const body = Buffer.from(m.body, 'latin1')
      const out = splice(bytes, layout.strings.starts[index] + 1, layout.strings.ends[index] - 1, body)
      return { bytes: out, expect: 'either' }
    }
    case 'structure': return changeStructure(layout, m)
    case 'graph': return changeGraph(layout, m)
  }
  throw new Error(`unknown mutation ${m.kind}`)
}

/** @param {Buffer} bytes @param {number} start @param {number} end @param {Buffer | string} insert */
function splice (bytes, start, end, insert) {
  return Buffer.concat([bytes.subarray(0, start), typeof insert === 'string' ? Buffer.from(insert, 'latin1') : insert, bytes.subarray(end)])
}

/** @param {SnapshotLayout} layout @param {any} m */
function replaceValue (layout, m) {
  const { header } = layout
  const fields = m.array === 'nodes' ? header.meta.node_fields : header.meta.edge_fields
  const rows = m.array === 'nodes' ? layout.nodeCount : layout.edgeCount
  const field = m.field % fields.length
  const index = Math.floor(m.at * rows) * fields.length + field
  const { starts, ends } = layout.arrays[/** @type {'nodes' | 'edges'} */ (m.array)]
  const nodeFieldCount = header.meta.node_fields.length
  const named = {
    nodeCount: String(layout.nodeCount * nodeFieldCount),
    'nodeCount+1': String(layout.nodeCount * nodeFieldCount + 1),
    stringCount: String(layout.stringCount),
    edgeCount: String(layout.edgeCount + 1),
    'fieldCount+1': String(nodeFieldCount + 1)
  }
  const value = Object.hasOwn(named, m.value) ? named[/** @type {keyof typeof named} */ (m.value)] : m.value
  const name = fields[field]
  // Pointers and indexes past their tables, and anything that is not a non-negative integer, must be refused.
  let expect = /** @type {Expectation} */ ('either')
  // Leading zeros ("007") are not JSON, but the number they spell is unambiguous: read or refused.
  if (!/^[0-9]+$/.test(value)) expect = 'error'
  else if (name === 'to_node' && (Number(value) >= layout.nodeCount * nodeFieldCount || Number(value) % nodeFieldCount !== 0)) expect = 'error'
  else if (name === 'name' && m.array === 'nodes' && Number(value) >= layout.stringCount) expect = 'error'
  else if (name === 'type' && Number(value) >= (m.array === 'nodes' ? header.meta.node_types[0].length : header.meta.edge_types[0].length)) expect = 'error'
  return { bytes: splice(layout.bytes, starts[index], ends[index], value), expect }
}

/** @param {SnapshotLayout} layout @param {any} m */
function changeMeta (layout, m) {
  const header = structuredClone(layout.header)
  const meta = header.meta
  /** @type {Expectation} */
  let expect = 'error'
  /** @type {any} */
  let replacement = header
  switch (m.change) {
    case 'node_count+1': header.node_count++; break
    case 'node_count-1': header.node_count--; break
    case 'edge_count+1': header.edge_count++; break
    case 'edge_count-1': header.edge_count--; break
    case 'node_count=0': header.node_count = 0; break
    case 'node_count=-1': header.node_count = -1; break
    case 'node_count=1.5': header.node_count = 1.5; break
    case 'node_count="42"': header.node_count = String(header.node_count); break
    case 'node_count=2^32': header.node_count = 2 ** 32; break
    case 'node_count=1e12': header.node_count = 1e12; break
    case 'edge_count=1e12': header.edge_count = 1e12; break
    case 'edge_count=2^32': header.edge_count = 2 ** 32; break
    case 'node_count=2^53': header.node_count = 2 ** 53; break
    case 'drop node field': meta.node_fields.splice(m.field % meta.node_fields.length, 1); break
    case 'drop edge field': meta.edge_fields.splice(m.field % meta.edge_fields.length, 1); break
    case 'duplicate node field': meta.node_fields.push(meta.node_fields[m.field % meta.node_fields.length]); break
    case 'rename node field': {
      // Without a field leakdiff needs the snapshot is refused; without an optional one it is read.
      const at = m.field % meta.node_fields.length
      if (!['type', 'name', 'id', 'self_size', 'edge_count'].includes(meta.node_fields[at])) expect = 'either'
      meta.node_fields[at] = 'renamed'
      break
    }
    case 'empty node_types': meta.node_types = []; break
    case 'no meta': delete header.meta; break
    case 'node_types[0] short': meta.node_types[0] = meta.node_types[0].slice(0, 2); expect = 'either'; break
    case 'edge_types[0] short': meta.edge_types[0] = meta.edge_types[0].slice(0, 1); break
    case 'location_fields short': meta.location_fields = meta.location_fields.slice(0, 3); break
    case 'root_index=1': header.root_index = 1; break
    case 'root_index=-7': header.root_index = -7; break
    case 'root_index=node_count': header.root_index = header.node_count * meta.node_fields.length; break
    case 'meta not object': header.meta = [meta]; break
    case 'node_fields=strings': meta.node_fields = 'type,name'; break
    case 'nested header': replacement = { snapshot: header }; expect = 'error'; break
    case 'header null': replacement = null; break
  }
  // A field that is dropped but unused by leakdiff (trace_node_id, detachedness) leaves rows a value
  // too long, which "nodes" then shows; the renamed one likewise.
  const text = JSON.stringify(replacement)
  return { bytes: splice(layout.bytes, layout.headerStart, layout.headerEnd, text), expect }
}

/**
 * A small deterministic generator (mulberry32), so that a case's permutation follows from its seed.
 * @param {number} seed
 */
function random (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** @template T @param {T[]} list @param {() => number} next */
function shuffle (list, next) {
  const out = [...list]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

/**
 * The fields of `nodes` or `edges` in another order, optionally with an unknown field added, the
 * rows rewritten to match: a reader that takes positions from meta reads the same heap.
 * @param {SnapshotLayout} layout
 * @param {any} m
 */
function reorderFields (layout, m) {
  const next = random(m.seed)
  const header = structuredClone(layout.header)
  const key = m.array === 'nodes' ? 'node_fields' : 'edge_fields'
  const typesKey = m.array === 'nodes' ? 'node_types' : 'edge_types'
  const fields = header.meta[key]
  const order = shuffle(fields.map((/** @type {string} */ _, /** @type {number} */ i) => i), next)
  if (m.extra) order.splice(Math.floor(next() * (order.length + 1)), 0, -1)
  header.meta[key] = order.map((i) => (i === -1 ? 'future_field' : fields[i]))
  header.meta[typesKey] = order.map((i) => (i === -1 ? 'number' : layout.header.meta[typesKey][i]))
  const { bytes } = layout
  const { starts, ends, open, close } = layout.arrays[/** @type {'nodes' | 'edges'} */ (m.array)]
  const rows = starts.length / fields.length
  const parts = []
  for (let row = 0; row < rows; row++) {
    const base = row * fields.length
    const values = order.map((i) => (i === -1 ? String(row % 1000) : bytes.toString('latin1', starts[base + i], ends[base + i])))
    parts.push(values.join(','))
  }
  const text = `[${parts.join(',\n')}]`
  let out = Buffer.concat([
    bytes.subarray(0, layout.headerStart), Buffer.from(JSON.stringify(header), 'latin1'), bytes.subarray(layout.headerEnd, open),
    Buffer.from(text, 'latin1'), bytes.subarray(close + 1)
  ])
  if (m.array === 'nodes' && m.extra) out = rescaleNodeIndexes(out, fields.length, fields.length + 1)
  return { bytes: out, expect: /** @type {Expectation} */ ('same') }
}

/**
 * Node indexes (edges' to_node, locations' object_index) are ordinal * node field count: with a
 * field more, each is rewritten.
 * @param {Buffer} bytes
 * @param {number} from
 * @param {number} to
 */
function rescaleNodeIndexes (bytes, from, to) {
  const layout = readLayout(bytes)
  const toAt = layout.header.meta.edge_fields.indexOf('to_node')
  const edgeFieldCount = layout.header.meta.edge_fields.length
  const { starts, ends, open, close } = layout.arrays.edges
  const values = []
  for (let k = 0; k < starts.length; k++) {
    const value = bytes.toString('latin1', starts[k], ends[k])
    values.push(k % edgeFieldCount === toAt ? String(Number(value) / from * to) : value)
  }
  let text = bytes.toString('latin1', 0, open) + '[' + values.join(',') + bytes.toString('latin1', close)
  const locationsAt = text.indexOf('"locations":[')
  if (locationsAt !== -1) {
    const start = locationsAt + '"locations":['.length
    const end = text.indexOf(']', start)
    const locations = text.slice(start, end).split(',').filter((value) => value.trim() !== '')
      .map((value, k) => (k % 4 === 0 ? String(Number(value) / from * to) : value.trim()))
    text = text.slice(0, start) + locations.join(',') + text.slice(end)
  }
  return Buffer.from(text, 'latin1')
}

/**
 * The same snapshot with other whitespace between tokens and its top-level keys in another order
 * (the header first, as every writer puts it).
 * @param {SnapshotLayout} layout
 * @param {any} m
 */
function relayout (layout, m) {
  const { bytes } = layout
  const text = bytes.toString('latin1')
  // The top-level values, each from its key to the comma before the next.
  const keys = ['snapshot', 'nodes', 'edges', 'trace_function_infos', 'trace_tree', 'samples', 'locations', 'strings']
  const positions = keys.map((key) => text.indexOf(`"${key}":`)).filter((at) => at !== -1).sort((a, b) => a - b)
  const members = positions.map((at, i) => {
    const end = i + 1 < positions.length ? text.lastIndexOf(',', positions[i + 1]) : text.lastIndexOf('}')
    return text.slice(at, end).replace(/,\n/g, ',' + m.space).replace(/":\[/, '":' + m.space + '[')
  })
  const [first, ...rest] = members
  const out = '{' + m.space + [first, ...shuffle(rest, random(m.keysSeed))].join(m.space + ',' + m.space) + m.space + '}' + m.space
  return { bytes: Buffer.from(out, 'latin1'), expect: /** @type {Expectation} */ ('same') }
}

/** @param {SnapshotLayout} layout @param {any} m */
function changeStructure (layout, m) {
  const { bytes } = layout
  const open = '['.repeat(m.depth)
  const close = ']'.repeat(m.depth)
  const objects = '{"a":'.repeat(m.depth) + '1' + '}'.repeat(m.depth)
  const nodesKey = bytes.indexOf('"nodes":[')
  const stringsKey = bytes.indexOf('"strings":[')
  const tail = bytes.lastIndexOf('}')
  /** @param {Buffer | string} out @param {Expectation} expect */
  const result = (out, expect) => ({ bytes: typeof out === 'string' ? Buffer.from(out, 'latin1') : out, expect })
  switch (m.change) {
    case 'nest arrays': return result(splice(bytes, nodesKey, nodesKey, `"deep":${open}${close},\n`), 'same')
    case 'nest objects': return result(splice(bytes, nodesKey, nodesKey, `"deep":${objects},\n`), 'same')
    case 'nest in header': return result(splice(bytes, layout.headerEnd - 1, layout.headerEnd - 1, `,"deep":${open}${close}`), m.depth < 4000 ? 'same' : 'either')
    case 'nest in strings': return result(splice(bytes, layout.strings.open + 1, layout.strings.open + 1, `${open}${close},`), 'error')
    case 'duplicate nodes': return result(splice(bytes, nodesKey, nodesKey, '"nodes":[],\n'), 'error')
    case 'duplicate strings': return result(splice(bytes, tail, tail, ',\n"strings":["a"]'), 'error')
    case 'duplicate snapshot': return result(splice(bytes, tail, tail, ',\n"snapshot":{}'), 'error')
    case 'duplicate header key': return result(splice(bytes, layout.headerEnd - 1, layout.headerEnd - 1, ',"node_count":1'), 'error')
    case 'unknown key': return result(splice(bytes, tail, tail, ',\n"future":{"a":[1,"]}",{"b":null}]}'), 'same')
    case 'nodes before snapshot': return result(splice(bytes, 1, 1, '"nodes":[],'), 'error')
    case 'no strings': return result(Buffer.concat([bytes.subarray(0, bytes.lastIndexOf(',', stringsKey)), Buffer.from('}')]), 'error')
    case 'no edges': {
      const edgesKey = bytes.indexOf('"edges":[')
      return result(Buffer.concat([bytes.subarray(0, edgesKey), bytes.subarray(bytes.indexOf('"', layout.arrays.edges.close))]), 'error')
    }
    case 'strings as object': return result(splice(bytes, stringsKey, stringsKey + '"strings":['.length, '"strings":{'), 'error')
    case 'trailing garbage': return result(Buffer.concat([bytes, Buffer.from('\n{"more":1}')]), 'error')
    case 'trailing whitespace': return result(Buffer.concat([bytes, Buffer.from('\n \r\n\t')]), 'same')
    case 'top-level array': return result(Buffer.concat([Buffer.from('['), bytes, Buffer.from(']')]), 'error')
    case 'empty': return result(Buffer.alloc(0), 'error')
    case 'bom': return result(Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), bytes]), 'same')
    case 'utf16': return result(Buffer.from(bytes.subarray(0, 4096).toString('latin1'), 'utf16le'), 'error')
  }
  throw new Error(`unknown structure change ${m.change}`)
}

/**
 * Rewrites a share of one field of `nodes` or `edges` with values from `pick`.
 * @param {SnapshotLayout} layout
 * @param {Buffer} bytes the bytes to rewrite (layout's, or a rewrite of them with the same layout)
 * @param {'nodes' | 'edges'} array
 * @param {string} field
 * @param {number} share
 * @param {(row: number, old: number) => number} pick
 */
function rewriteField (layout, bytes, array, field, share, pick) {
  const fields = array === 'nodes' ? layout.header.meta.node_fields : layout.header.meta.edge_fields
  const at = fields.indexOf(field)
  const { starts, ends, open, close } = layout.arrays[array]
  const values = []
  for (let k = 0; k < starts.length; k++) {
    const text = bytes.toString('latin1', starts[k], ends[k])
    const row = Math.floor(k / fields.length)
    const chosen = k % fields.length === at && (row * 0.618034) % 1 < share
    values.push(chosen ? String(pick(row, Number(text))) : text)
  }
  return Buffer.concat([bytes.subarray(0, open + 1), Buffer.from(values.join(','), 'latin1'), bytes.subarray(close)])
}

/**
 * Another graph in a valid file: edges pointing elsewhere, other types, sizes, root.
 * @param {SnapshotLayout} layout
 * @param {any} m
 */
function changeGraph (layout, m) {
  const next = random(m.seed)
  const nodeFieldCount = layout.header.meta.node_fields.length
  const nodeTypes = layout.header.meta.node_types[0].length
  const edgeTypes = layout.header.meta.edge_types[0].length
  const anyNode = () => Math.floor(next() * layout.nodeCount) * nodeFieldCount
  /** @type {Buffer} */
  let bytes
  switch (m.change) {
    case 'shuffle targets': bytes = rewriteField(layout, layout.bytes, 'edges', 'to_node', m.share, () => anyNode()); break
    case 'all to root': bytes = rewriteField(layout, layout.bytes, 'edges', 'to_node', m.share, () => 0); break
    case 'self loops': {
      // The owner of edge e is the node whose edge range holds it.
      const owners = edgeOwners(layout)
      bytes = rewriteField(layout, layout.bytes, 'edges', 'to_node', m.share, (row) => owners[row] * nodeFieldCount)
      break
    }
    case 'shuffle node types': bytes = rewriteField(layout, layout.bytes, 'nodes', 'type', m.share, () => Math.floor(next() * nodeTypes)); break
    case 'shuffle edge types': bytes = rewriteField(layout, layout.bytes, 'edges', 'type', m.share, () => Math.floor(next() * edgeTypes)); break
    case 'zero sizes': bytes = rewriteField(layout, layout.bytes, 'nodes', 'self_size', m.share, () => 0); break
    case 'root elsewhere': {
      const header = structuredClone(layout.header)
      header.root_index = anyNode()
      bytes = splice(layout.bytes, layout.headerStart, layout.headerEnd, JSON.stringify(header))
      break
    }
    default: throw new Error(`unknown graph change ${m.change}`)
  }
  // A type changed from element to property makes its index a string index, which may point past
  // the strings (refused) or at any string (read).
  return { bytes, expect: /** @type {Expectation} */ ('either') }
}

/** @param {SnapshotLayout} layout @returns {Uint32Array} per edge, the ordinal of its node */
function edgeOwners (layout) {
  const fields = layout.header.meta.node_fields
  const at = fields.indexOf('edge_count')
  const owners = new Uint32Array(layout.edgeCount)
  const { starts, ends } = layout.arrays.nodes
  let edge = 0
  for (let node = 0; node < layout.nodeCount; node++) {
    const k = node * fields.length + at
    const count = Number(layout.bytes.toString('latin1', starts[k], ends[k]))
    owners.fill(node, edge, edge + count)
    edge += count
  }
  return owners
}
