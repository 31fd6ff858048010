import test from 'ava'
import { writeFile, readFile, mkdir } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { LARGE_SIZE, sizeAt } from '../../src/parse/large-sizes.js'
import { snapshotDataFromMessage, snapshotDataToMessage } from '../../src/parse/transfer.js'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { mismatches } from '../helpers/snapshot-mismatches.js'
import { tempDir } from '../helpers/temp-dir.js'
import { arrayDifference } from '../helpers/array-difference.js'
import { META } from '../helpers/snapshot-meta.js'

/** @type {string} */
let scratch
/** @type {string} */
let mixed
/** @type {Promise<any>} what JSON.parse reads of `mixed`, for the tests that only read it */
let mixedJson
/** @type {Promise<import('../../src/parse/snapshot-data.js').SnapshotData>} parseSnapshot(mixed), for the tests that only read it */
let mixedData

test.before(async () => {
  scratch = await tempDir('leakdiff-parse-')
  const { files } = await captureFixture('engine/mixed-heap')
  mixed = files[0]
  mixedJson = readFile(mixed, 'latin1').then((text) => JSON.parse(text))
  mixedData = parseSnapshot(mixed)
})

test('a real snapshot parses to exactly what JSON.parse reads', async (t) => {
  const data = await mixedData
  const json = await mixedJson
  t.is(data.nodeCount, json.snapshot.node_count)
  t.is(data.edgeCount, json.snapshot.edge_count)
  t.true(data.locationCount > 0)
  t.deepEqual(data.nodeTypeNames, json.snapshot.meta.node_types[0])
  t.is(mismatches(data, json), 0)
  t.is(data.byteLength, (await readFile(mixed)).length)
})

test('a snapshot with allocation traces (DevTools\' timeline) parses to what JSON.parse reads, and analyses', async (t) => {
  const { files } = await captureFixture('engine/allocation-trace')
  const json = JSON.parse(await readFile(files[0], 'latin1'))
  t.true(json.snapshot.trace_function_count > 0 && json.trace_tree.length > 0, 'the traces are filled in')
  const data = await parseSnapshot(files[0])
  t.is(mismatches(data, json), 0)
  const analysis = analyzeHeap(data)
  // Named by its properties that are edges: the small integer `i` is stored in the object.
  const items = analysis.classes.names.indexOf('{label}')
  t.true(items >= 0 && analysis.classes.counts[items] >= 2000)
})

test('strings.indexOf finds the first string of each value a real snapshot holds, and -1 for one it lacks', async (t) => {
  const { strings } = await mixedData
  /** @type {Map<string, number>} */
  const first = new Map()
  for (let i = 0; i < strings.length; i++) if (!first.has(strings.get(i))) first.set(strings.get(i), i)
  t.true(first.size > 1000)
  const wrong = [...first].filter(([value, i]) => strings.indexOf(value) !== i)
  t.deepEqual(wrong, [])
  for (const absent of ['no such name in any heap', '', 'x'.repeat(40)]) {
    t.is(strings.indexOf(absent), first.get(absent) ?? -1, absent)
  }
})

test('gzip input is detected by its magic bytes, not its name', async (t) => {
  const gz = join(scratch, 'no-suffix.bin')
  await writeFile(gz, gzipSync(await readFile(mixed), { level: 1 }))
  const data = await parseSnapshot(gz)
  t.is(mismatches(data, await mixedJson), 0)
})

test('any chunking gives the same result (resumable at every byte)', async (t) => {
  const bytes = await readFile(mixed)
  let seed = 7
  async function * randomChunks () {
    for (let i = 0; i < bytes.length;) {
      seed = (seed * 1103515245 + 12345) % 2147483648
      const size = 1 + (seed % 97)
      yield bytes.subarray(i, i + size)
      i += size
    }
  }
  const data = await parseSnapshot(randomChunks(), { label: 'chunks' })
  t.is(mismatches(data, await mixedJson), 0)
})

test('a UTF-8 byte order mark before the snapshot is skipped', async (t) => {
  const bytes = await readFile(mixed)
  const data = await parseSnapshot(Readable.from([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), { label: 'bom' })
  t.is(mismatches(data, await mixedJson), 0)
})

test('progress reports bytes read up to the file size', async (t) => {
  /** @type {number[]} */
  const seen = []
  let total = 0
  await parseSnapshot(mixed, { onProgress: ({ bytesRead, totalBytes }) => { seen.push(bytesRead); total = totalBytes } })
  t.true(seen.length >= 1)
  t.deepEqual([...seen].sort((a, b) => a - b), seen)
  t.is(seen.at(-1), total)
  t.is(total, (await readFile(mixed)).length)
})

test('fields in another order than V8 writes them, and fields unknown to us, parse to the same columns', async (t) => {
  const original = await mixedData
  const json = JSON.parse(await readFile(mixed, 'latin1'))
  const meta = json.snapshot.meta
  const EXTRA = 'future_field'
  /** @param {number[]} rows @param {string[]} from @param {string[]} to */
  const reorder = (rows, from, to) => {
    const width = from.length
    const out = []
    for (let b = 0; b < rows.length; b += width) {
      for (const field of to) out.push(field === EXTRA ? 7 : rows[b + from.indexOf(field)])
    }
    return out
  }
  /** The type stays first (its enum is node_types[0] / edge_types[0]), the rest reversed, plus an unknown field. @param {string[]} fields */
  const shuffled = (fields) => ['type', ...fields.filter((field) => field !== 'type').reverse(), EXTRA]
  // The field lists differ by V8 version (Node 24 writes no trace_node_id), so they come from the file.
  const nodeFields = shuffled(meta.node_fields)
  const edgeFields = shuffled(meta.edge_fields)
  /** @param {unknown[]} types @param {string[]} from @param {string[]} to */
  const reorderTypes = (types, from, to) => to.map((field) => field === EXTRA ? 'number' : types[from.indexOf(field)])
  json.nodes = reorder(json.nodes, meta.node_fields, nodeFields)
  json.edges = reorder(json.edges, meta.edge_fields, edgeFields)
  // Node indexes count fields: one more node field moves every node.
  const toNode = edgeFields.indexOf('to_node')
  for (let e = toNode; e < json.edges.length; e += edgeFields.length) json.edges[e] = json.edges[e] / meta.node_fields.length * nodeFields.length
  const objectIndex = meta.location_fields.indexOf('object_index')
  for (let l = objectIndex; l < json.locations.length; l += meta.location_fields.length) json.locations[l] = json.locations[l] / meta.node_fields.length * nodeFields.length
  json.snapshot.meta = { ...meta, node_fields: nodeFields, edge_fields: edgeFields, node_types: reorderTypes(meta.node_types, meta.node_fields, nodeFields), edge_types: reorderTypes(meta.edge_types, meta.edge_fields, edgeFields) }
  const file = join(scratch, 'reordered.heapsnapshot')
  await writeFile(file, JSON.stringify(json))
  const data = await parseSnapshot(file)
  for (const column of /** @type {const} */ (['nodeTypes', 'nodeNames', 'nodeIds', 'selfSizes', 'detachedness', 'firstEdge', 'edgeTypes', 'edgeNames', 'edgeTargets'])) {
    t.is(arrayDifference(data[column], original[column]), '', column)
  }
})

test('self sizes past 2^32 stay exact', async (t) => {
  const text = await readFile(mixed, 'latin1')
  const json = JSON.parse(text)
  const nf = json.snapshot.meta.node_fields.length
  const selfAt = json.snapshot.meta.node_fields.indexOf('self_size')
  const ordinal = 40
  const before = json.nodes[ordinal * nf + selfAt]
  json.nodes[ordinal * nf + selfAt] = 5368709120
  const file = join(scratch, 'big-self.heapsnapshot')
  await writeFile(file, JSON.stringify(json))
  const data = await parseSnapshot(file)
  t.is(data.selfSizes[ordinal], LARGE_SIZE, 'the column marks it')
  t.deepEqual(Array.from(data.largeSelfSizes.ordinals), [ordinal])
  t.is(sizeAt(data.selfSizes, data.largeSelfSizes, ordinal), 5368709120)
  t.is(sizeAt(data.selfSizes, data.largeSelfSizes, ordinal + 1), json.nodes[(ordinal + 1) * nf + selfAt])
  // Moved to another thread (a diff's parsing workers) and through the analysis (shallow sizes,
  // retained sizes), the 5 GiB arrive to the byte.
  const moved = snapshotDataFromMessage(structuredClone(snapshotDataToMessage(await parseSnapshot(file)).message))
  t.is(sizeAt(moved.selfSizes, moved.largeSelfSizes, ordinal), 5368709120)
  t.is(moved.strings.get(moved.nodeNames[ordinal]), data.strings.get(data.nodeNames[ordinal]))
  const total = analyzeHeap(data).totalSize
  t.is(analyzeHeap(moved).totalSize, total)
  const originalTotal = analyzeHeap(await parseSnapshot(mixed)).totalSize
  t.is(total - originalTotal, 5368709120 - before)
})

/** A minimal snapshot in V8's layout: root -> (GC roots), root -.x-> object "A". */
function tiny ({ meta = META, nodeCount = 3, edgeCount = 2, nodes = '9,1,1,0,2,0,0,9,2,3,0,0,0,0,3,3,5,16,0,0,0', edges = '1,1,7,2,4,14', strings = '"<dummy>","","(GC roots)","A","x"' } = {}) {
  return `{"snapshot":{"meta":${JSON.stringify(meta)},"node_count":${nodeCount},"edge_count":${edgeCount},"trace_function_count":0},\n"nodes":[${nodes}],\n"edges":[${edges}],\n"trace_function_infos":[],\n"trace_tree":[],\n"samples":[],\n"locations":[14,1,2,3],\n"strings":[${strings}]}`
}

test('the minimal hand-made snapshot is accepted (the error cases below differ by one thing)', async (t) => {
  const file = join(scratch, 'tiny.heapsnapshot')
  await writeFile(file, tiny())
  const data = await parseSnapshot(file)
  t.is(data.nodeCount, 3)
  t.deepEqual([...data.edgeTargets], [1, 2])
  t.is(data.strings.get(data.edgeNames[1]), 'x')
})

test('strings read without decoding them: the number a slot name spells, and the same text in two tables', async (t) => {
  const names = ['"<dummy>"', '""', '"(GC roots)"', '"A"', '"x"', '"12"', '"0"', '"123456789"', '"1234567890"', '"1a"', '"-1"', '"caf\\u00e9"', '"café"']
  const file = join(scratch, 'strings.heapsnapshot')
  await writeFile(file, tiny({ strings: names.join(',') }))
  const { strings } = await parseSnapshot(file)
  t.deepEqual([5, 6, 7, 8, 9, 10, 1, 4].map((i) => strings.digits(i)), [12, 0, 123456789, -1, -1, -1, -1, -1])
  t.is(strings.digits(names.length + 5), -1)
  const other = await parseSnapshot(file)
  for (let i = 0; i < names.length; i++) {
    for (let j = 0; j < names.length; j++) t.is(strings.sameText(i, other.strings, j), strings.get(i) === other.strings.get(j), `${names[i]} ${names[j]}`)
  }
})

/** @type {Array<[string, string | Buffer, RegExp]>} */
const badInputs = [
  ['empty', '', /empty input \(0 bytes\)/],
  ['only whitespace', '  \n', /cut short/],
  ['not JSON', 'hello world', /expected JSON starting with '\{', got 'h'/],
  ['JSON that is not a snapshot', '{"name":"x","version":1}', /no "snapshot" header/],
  ['an array', '[1,2,3]', /expected JSON starting with '\{'/],
  ['unknown meta layout', tiny({ meta: { ...META, node_fields: ['type', 'name', 'id', 'edge_count'] } }), /node_fields lacks "self_size"/],
  ['meta without node types', tiny({ meta: { ...META, node_types: [] } }), /unknown snapshot.meta layout/],
  ['fewer node rows than node_count', tiny({ nodeCount: 4 }), /"nodes" has 3 rows, but node_count is 4/],
  ['more node rows than node_count', tiny({ nodeCount: 2 }), /more than node_count \(2\) rows/],
  ['edge counts that disagree with edge_count', tiny({ edgeCount: 3 }), /"edges" has 2 rows, but edge_count is 3|edge counts add up to 2, but edge_count is 3/],
  ['a to_node out of range', tiny({ edges: '1,1,7,2,4,21' }), /points to node index 21, which is not one of the 3 nodes/],
  ['a to_node that is not a node index', tiny({ edges: '1,1,7,2,4,15' }), /points to node index 15/],
  ['a node type outside meta', tiny({ nodes: '9,1,1,0,2,0,0,9,2,3,0,0,0,0,99,3,5,16,0,0,0' }), /node type 99 is not in meta.node_types/],
  ['a negative number', tiny({ nodes: '9,1,1,0,2,0,0,9,2,3,0,0,0,0,3,3,5,-16,0,0,0' }), /expected a non-negative integer in "nodes", got '-'/],
  ['a name past the strings', tiny({ strings: '"<dummy>","","(GC roots)"' }), /points past the 3 strings/],
  ['a row cut in the middle', tiny({ nodes: '9,1,1,0,2,0,0,9,2,3,0,0,0,0,3,3,5,16,0,0' }), /ends in the middle of a row/],
  ['garbage after the end', tiny() + 'x', /unexpected data after the end/],
  ['nodes before the header', '{"nodes":[1,2],"snapshot":{}}', /"nodes" comes before the "snapshot" header/],
  ['counts far beyond the file', tiny({ nodeCount: 1e9 }), /need at least \d+ bytes, but the file has \d+: the snapshot is cut short or its counts are wrong/]
]

for (const [what, content, expected] of badInputs) {
  test(`bad input: ${what}`, async (t) => {
    const file = join(scratch, what.replace(/\W+/g, '-') + '.heapsnapshot')
    await writeFile(file, content)
    const error = await t.throwsAsync(parseSnapshot(file), { message: expected })
    t.is(/** @type {any} */ (error).code, 'LEAKDIFF_SNAPSHOT_FORMAT')
    t.true(error?.message.startsWith(file), 'the message names the file')
    t.regex(error?.message ?? '', /at byte \d+: /)
    t.false((error?.message ?? '').includes('\n'), 'one line')
  })
}

test('a real snapshot cut anywhere is reported as truncated with its offset', async (t) => {
  const bytes = await readFile(mixed)
  for (const fraction of [0.00001, 0.001, 0.3, 0.7, 0.999]) {
    const cut = Math.floor(bytes.length * fraction)
    const file = join(scratch, `cut-${fraction}.heapsnapshot`)
    await writeFile(file, bytes.subarray(0, cut))
    const error = await t.throwsAsync(parseSnapshot(file), { message: /cut short/ })
    t.is(/** @type {any} */ (error).code, 'LEAKDIFF_SNAPSHOT_FORMAT')
    if (/counts are wrong/.test(error?.message ?? '')) t.regex(error?.message ?? '', /at byte \d+: /)
    else t.true(error?.message.includes(`at byte ${cut}:`), error?.message)
  }
})

test('corrupt and cut gzip are format errors', async (t) => {
  const gz = gzipSync(await readFile(mixed), { level: 1 })
  const cut = join(scratch, 'cut.heapsnapshot.gz')
  await writeFile(cut, gz.subarray(0, gz.length >> 1))
  await t.throwsAsync(parseSnapshot(cut), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /gzip data ends early/ })
  const corrupt = Buffer.from(gz)
  for (let i = 100; i < 400; i++) corrupt[i] ^= 0x5a
  const file = join(scratch, 'corrupt.heapsnapshot.gz')
  await writeFile(file, corrupt)
  await t.throwsAsync(parseSnapshot(file), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /corrupt gzip/ })
})

test('a missing file and a directory are read errors', async (t) => {
  await t.throwsAsync(parseSnapshot(join(scratch, 'nope.heapsnapshot')), { code: 'LEAKDIFF_SNAPSHOT_READ', message: /nope\.heapsnapshot: no such file/ })
  const dir = join(scratch, 'a-dir')
  await mkdir(dir)
  await t.throwsAsync(parseSnapshot(dir), { code: 'LEAKDIFF_SNAPSHOT_READ', message: /is a directory/ })
  await t.throwsAsync(parseSnapshot(/** @type {any} */ (42)), { code: 'LEAKDIFF_INVALID_ARG' })
})
