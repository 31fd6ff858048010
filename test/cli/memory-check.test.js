import test from 'ava'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { readSnapshotCounts } from '../../src/parse/read-header.js'
import { estimateMemory, lengauerTarjanBytes } from '../../src/analysis/memory-need.js'
import { ensureMemory, planMemory } from '../../cli/memory-check.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { inProcess, inspect } from '../helpers/cli-in-process.js'
import { tempDir } from '../helpers/temp-dir.js'

test('the header gives the counts the parse finds, and a gzip file its uncompressed length', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const text = await readFile(files[0])
  const snapshot = JSON.parse(text.toString())
  const expected = { nodeCount: snapshot.snapshot.node_count, edgeCount: snapshot.snapshot.edge_count, textBytes: text.length }
  t.deepEqual(await readSnapshotCounts(files[0]), expected)
  const gz = join(await tempDir('leakdiff-counts-'), 'mixed.heapsnapshot.gz')
  await writeFile(gz, gzipSync(text, { level: 1 }))
  t.deepEqual(await readSnapshotCounts(gz), expected)
  t.is(await readSnapshotCounts(join(gz, '..', 'missing.heapsnapshot')), undefined)
})

// The CLI's own process (the flag, the exit) is in memory-check.e2e.test.js.
test('an analysis that needs more memory than is left is refused before it starts, in one line', async (t) => {
  const { files } = await captureFixture('diff/map-cache')
  const counts = await Promise.all(files.map(readSnapshotCounts))
  const need = estimateMemory(/** @type {any} */ (counts), 'diff')
  // A limit below what the three snapshots need (the CLI itself already takes part of it).
  const limit = `${Math.floor(need / 1e6) - 5}MB`
  const refused = await inProcess(() => ensureMemory(files, 'diff'), { LEAKDIFF_MEMORY_LIMIT: limit })
  const inspectRefused = await inspect(files[0], {}, { LEAKDIFF_MEMORY_LIMIT: '1MB' })
  const forced = await inspect(files[0], { format: 'json', skipMemoryCheck: true }, { LEAKDIFF_MEMORY_LIMIT: '1MB' })
  t.is(refused.code, 2)
  t.is(refused.stdout, '')
  t.regex(refused.stderr, /^leakdiff: analysing these 3 snapshots needs about [\d.]+ [MG]B of memory \([\d.]+ [MG]B with 10% to spare\) and [\d.]+ [MG]B is available \(LEAKDIFF_MEMORY_LIMIT\)\. Raise LEAKDIFF_MEMORY_LIMIT, diff two snapshots at a time, or pass --skip-memory-check to try anyway\n$/)
  t.is(inspectRefused.code, 2)
  t.is(inspectRefused.stdout, '')
  t.regex(inspectRefused.stderr, /^leakdiff: analysing this snapshot needs about .* --skip-memory-check to try anyway\n$/)
  t.is(forced.code, 0, forced.stderr)
  t.is(JSON.parse(forced.stdout).kind, 'inspect')
})

test('a job that fits only without the faster dominator algorithm\'s extra memory runs with lowMemory', (t) => {
  const counts = [{ nodeCount: 3e6, edgeCount: 1.2e7, textBytes: 2.4e8 }, { nodeCount: 1e6, edgeCount: 4e6, textBytes: 8e7 }, { nodeCount: 2e6, edgeCount: 8e6, textBytes: 1.6e8 }]
  // A diff analyses its snapshots one after the other: the largest one's.
  t.is(lengauerTarjanBytes(counts), 26 * 3e6)
  t.is(lengauerTarjanBytes(counts.slice(1)), 26 * 2e6)
  const addedBytes = estimateMemory(counts, 'diff')
  const fasterBytes = lengauerTarjanBytes(counts)
  // Each with a tenth of it to spare: the estimate is within 6% of the measured peaks, either way.
  t.deepEqual(planMemory({ addedBytes, fasterBytes, availableBytes: 1.1 * (addedBytes + fasterBytes) }), { fits: true, lowMemory: false })
  t.deepEqual(planMemory({ addedBytes, fasterBytes, availableBytes: addedBytes + fasterBytes }), { fits: true, lowMemory: true })
  t.deepEqual(planMemory({ addedBytes, fasterBytes, availableBytes: 1.1 * addedBytes }), { fits: true, lowMemory: true })
  t.deepEqual(planMemory({ addedBytes, fasterBytes, availableBytes: 1.09 * addedBytes }), { fits: false, lowMemory: true })
})

test('a limit that is not a size is a usage error', async (t) => {
  const { files } = await captureFixture('engine/mixed-heap')
  const { code, stderr } = await inspect(files[0], {}, { LEAKDIFF_MEMORY_LIMIT: 'lots' })
  t.is(code, 2)
  t.regex(stderr, /^leakdiff: LEAKDIFF_MEMORY_LIMIT expects a size such as 2GB or 512MB, got 'lots'\n/)
})
