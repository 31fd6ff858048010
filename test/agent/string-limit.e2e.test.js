// The agent's stringLimit: V8 cuts strings at 1,024 characters in a snapshot unless told otherwise,
// for the write that asks, and only for it.
import test from 'ava'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeSnapshotFile } from '../../src/agent/write-snapshot.js'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'

/** @param {string} file */
async function longestString (file) {
  const { strings } = await parseSnapshot(file)
  let longest = 0
  for (let i = 0; i < strings.length; i++) if (strings.rawLength(i) > 1024) longest = Math.max(longest, strings.get(i).length)
  return longest
}

test('a write with stringLimit keeps longer strings whole; the next write is cut at 1,024 again', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-strings-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  // A flat string of 5,000 characters that the heap holds while both snapshots are written.
  const held = { text: Array.from({ length: 500 }, (_, i) => `${i % 10}`.repeat(10)).join('') }
  writeSnapshotFile(join(dir, 'whole.heapsnapshot'), { stringLimit: 10_000 })
  writeSnapshotFile(join(dir, 'cut.heapsnapshot'))
  t.is(held.text.length, 5000)
  t.true(await longestString(join(dir, 'whole.heapsnapshot')) >= 5000)
  t.true(await longestString(join(dir, 'cut.heapsnapshot')) <= 1024)
})
