// Broken and hostile snapshots: a short fuzz run with a fixed seed over a real snapshot (the long
// run is `npm run fuzz`), the failures it found as regression tests, and header bombs. The short
// run mutates the first snapshot of a committed series, trimmed to 11,000 nodes in V8's layout
// (fixtures/capture/trim-series.js): a fifth of the bare process's bytes, so each case costs a
// fifth; the long run mutates the whole bare process.
import test from 'ava'
import fc from 'fast-check'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { SnapshotParser } from '../../src/parse/snapshot-parser.js'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { readLayout, fuzzCase, applyCase } from '../../fuzz/snapshot-mutations.js'
import { checkCase, digest } from '../../fuzz/check-case.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { inspect } from '../helpers/cli-in-process.js'
import { bomb } from '../helpers/header-bomb.js'
import { tempDir } from '../helpers/temp-dir.js'

/** @type {import('../../fuzz/snapshot-mutations.js').SnapshotLayout} */
let layout
/** @type {string} */
let original
/** @type {string} */
let scratch

test.before(async () => {
  const { files } = await captureFixture('diff/array-log')
  const bytes = await readFile(files[0])
  layout = readLayout(bytes)
  original = digest(analyzeHeap(await parseSnapshot(files[0])))
  scratch = await tempDir('leakdiff-hostile-')
})

test('fuzz: mutated real snapshots, plain and gzip, end in a right analysis or a LEAKDIFF_SNAPSHOT_FORMAT error (seed 21)', async (t) => {
  await fc.assert(fc.asyncProperty(fuzzCase, async (fuzz) => {
    const wrong = await checkCase(layout, original, fuzz)
    if (wrong) throw new Error(`${wrong}; case ${JSON.stringify(fuzz).slice(0, 300)}`)
  }), { seed: 21, numRuns: 30, endOnFailure: true })
  t.pass()
})

/**
 * @param {any} mutation
 * @returns {Buffer}
 */
const mutated = (mutation) => applyCase(layout, { mutation, gzip: 'none', gzipAt: 0, chunkBytes: 65536 }).bytes

test('node_types are read at the position of the "type" field, so fields in any order give the same analysis', async (t) => {
  // This seed moves `type` away from the first position, where V8 writes it.
  const bytes = mutated({ kind: 'reorder', array: 'nodes', seed: 913998118, extra: false })
  const header = readLayout(bytes).header
  t.not(header.meta.node_fields[0], 'type')
  t.deepEqual(header.meta.node_types[header.meta.node_fields.indexOf('type')], layout.header.meta.node_types[0])
  t.is(digest(analyzeHeap(await parseSnapshot(Readable.from([bytes])))), original)
  const edges = mutated({ kind: 'reorder', array: 'edges', seed: -1713304106, extra: true })
  t.not(readLayout(edges).header.meta.edge_fields[0], 'type')
  t.is(digest(analyzeHeap(await parseSnapshot(Readable.from([edges])))), original)
})

test('a string with an escape JSON does not know is a format error at its offset, not a crash in the analysis', async (t) => {
  const text = layout.bytes.toString('latin1')
  const objectAt = text.indexOf('"Object"', layout.strings.open)
  const index = layout.strings.starts.indexOf(objectAt)
  t.true(index > 0)
  /** @type {Array<[string, RegExp, number]>} the body, the message, where in the body the error is */
  const cases = [['\\x41', /the escape \\x in a string is not one JSON knows/, 1], ['\\u12G4', /\\u is not followed by 4 hex digits/, 4], ['\\u00', /\\u is not followed by 4 hex digits in a string, got '"'/, 4]]
  for (const [body, message, at] of cases) {
    const bytes = mutated({ kind: 'string', at: (index + 0.5) / layout.stringCount, body })
    const error = await t.throwsAsync(parseSnapshot(Readable.from([bytes])), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message })
    t.true(error?.message.includes(`at byte ${objectAt + 1 + at}:`), error?.message)
  }
  // Valid escapes that decode to lone surrogates or control characters are read as they are.
  const lone = mutated({ kind: 'string', at: (index + 0.5) / layout.stringCount, body: '\\ud800\\u001b' })
  const analysis = analyzeHeap(await parseSnapshot(Readable.from([lone])))
  t.true(analysis.classes.names.includes('\ud800\u001b'))
})

test.serial('header bombs: billions of nodes claimed by a few bytes are refused before the columns are allocated', async (t) => {
  const plain = join(scratch, 'bomb.heapsnapshot')
  await writeFile(plain, bomb(3e9, 4e9))
  await t.throwsAsync(parseSnapshot(plain), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /need at least \d+ bytes, but the file has \d+/ })
  // gzip: deflate expands a byte to at most 1032, so the compressed size bounds the text.
  const gz = join(scratch, 'bomb.heapsnapshot.gz')
  await writeFile(gz, gzipSync(bomb(3e9, 4e9)))
  await t.throwsAsync(parseSnapshot(gz), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /need at least \d+ bytes, but the compressed file can hold at most \d+/ })
  // Counts no snapshot can have are refused from the header, whatever the input.
  await t.throwsAsync(parseSnapshot(Readable.from([bomb(10, 2 ** 32)])), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /a snapshot has at most 4294967294 nodes/ })
  // A stream's length is unknown: its columns grow with the rows that arrive, not with the claim.
  const before = process.memoryUsage().arrayBuffers
  let peak = before
  const tracked = async function * () {
    for (let i = 0; i < 64; i++) {
      yield i === 0 ? bomb(3e9, 4e9) : Buffer.from('0,0,1,0,0,0,0,'.repeat(1000))
      peak = Math.max(peak, process.memoryUsage().arrayBuffers)
    }
  }
  await t.throwsAsync(parseSnapshot(tracked()), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /cut short/ })
  t.true(peak - before < 128 * 1024 * 1024, `${peak - before} bytes of array buffers for a 1 MB stream`)
})

test('columns that start a few rows long and grow with the data (a stream) give the same analysis', (t) => {
  const parser = new SnapshotParser({ label: 'growing', firstRows: 3 })
  for (let i = 0; i < layout.bytes.length; i += 4093) parser.push(layout.bytes.subarray(i, i + 4093))
  const data = parser.finish()
  t.is(data.nodeIds.length, data.nodeCount)
  t.is(data.edgeTargets.length, data.edgeCount)
  t.is(data.firstEdge.length, data.nodeCount + 1)
  t.is(digest(analyzeHeap(data)), original)
})

// The inspect command's handler in this process; standard input needs the CLI's own process:
// hostile-input.e2e.test.js.
test('header bombs through the CLI: a file and a gzip file give one line and exit 2', async (t) => {
  const plain = join(scratch, 'cli-bomb.heapsnapshot')
  await writeFile(plain, bomb(3e9, 4e9))
  const gz = join(scratch, 'cli-bomb.heapsnapshot.gz')
  await writeFile(gz, gzipSync(bomb(3e9, 4e9)))
  for (const file of [plain, gz]) {
    const { code, stdout, stderr } = await inspect(file)
    t.is(code, 2, stderr)
    t.is(stdout, '')
    t.regex(stderr, /^leakdiff: [^\n]*(need at least \d+ bytes|cut short)[^\n]*\n$/)
  }
})

test('a top-level key is quoted with its control characters escaped, and a key of more than 1 KiB is refused, not held', async (t) => {
  const escaped = await t.throwsAsync(parseSnapshot(Readable.from([Buffer.from('{"\u001b[31mred" x')])), { code: 'LEAKDIFF_SNAPSHOT_FORMAT' })
  t.is(escaped?.message, '<stream> at byte 12: invalid JSON: expected \':\' after "\\u001b[31mred", got \'x\'')
  const long = Buffer.concat([Buffer.from('{"'), Buffer.alloc(10 * 1024 * 1024, 0x61), Buffer.from('":1}')])
  await t.throwsAsync(parseSnapshot(Readable.from([long])), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /^<stream> at byte 2: not a heap snapshot: a top-level key longer than 1024 bytes$/ })
})

test('UTF-16 text, with or without a byte order mark, is named as such', async (t) => {
  const text = layout.bytes.subarray(0, 4096).toString('latin1')
  for (const bytes of [Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(text, 'utf16le')]), Buffer.from(text, 'utf16le'), Buffer.from(text, 'utf16le').swap16()]) {
    await t.throwsAsync(parseSnapshot(Readable.from([bytes])), { code: 'LEAKDIFF_SNAPSHOT_FORMAT', message: /at byte [01]: not a heap snapshot: the text is UTF-16, and heap snapshots are UTF-8/ })
  }
})
