// What only a live source shows, not in parse-snapshot.test.js: named pipes (making one takes the
// mkfifo program, a process) and the stream of a real snapshot of this test process.
import test from 'ava'
import { execFileSync } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getHeapSnapshot } from 'node:v8'
import { gzipSync } from 'node:zlib'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { mismatches } from '../helpers/snapshot-mismatches.js'
import { tempDir } from '../helpers/temp-dir.js'

test('a named pipe is read without seeking, plain or gzip, however the writer splits its writes', async (t) => {
  if (process.platform === 'win32') return t.pass('no mkfifo on Windows')
  const [{ files: [mixed] }, scratch] = await Promise.all([captureFixture('engine/mixed-heap'), tempDir('leakdiff-parse-')])
  const bytes = await readFile(mixed)
  const json = JSON.parse(bytes.toString('latin1'))
  for (const [name, body] of [['plain.fifo', bytes], ['gzip.fifo', gzipSync(bytes)]]) {
    const fifo = join(scratch, name)
    execFileSync('mkfifo', [fifo])
    // Pieces of 100 kB with pauses between them: each read returns what is there, not 1 MiB.
    const writer = (async () => {
      const handle = await open(fifo, 'w')
      for (let i = 0; i < body.length; i += 100_000) {
        await handle.write(body.subarray(i, i + 100_000))
        await new Promise((resolve) => setImmediate(resolve))
      }
      await handle.close()
    })()
    /** @type {number[]} */
    const totals = []
    const data = await parseSnapshot(fifo, { onProgress: ({ totalBytes }) => totals.push(totalBytes) })
    await writer
    t.is(mismatches(data, json), 0, name)
    t.is(data.byteLength, bytes.length, name)
    t.deepEqual([...new Set(totals)], [0], `${name}: a pipe's size is unknown`)
  }
})

test('a stream from v8.getHeapSnapshot() is parsed without touching disk', async (t) => {
  const { files: [mixed] } = await captureFixture('engine/mixed-heap')
  const data = await parseSnapshot(getHeapSnapshot(), { label: 'live' })
  t.true(data.nodeCount > 1000)
  t.is(data.label, 'live')
  t.is(data.strings.get(0), '<dummy>')
  const fromStream = await parseSnapshot(createReadStream(mixed))
  t.is(fromStream.nodeCount, (await parseSnapshot(mixed)).nodeCount)
})
