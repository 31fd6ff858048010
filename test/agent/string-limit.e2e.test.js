// The agent's stringLimit: V8 cuts strings at 1,024 characters in a snapshot unless told otherwise,
// for the write that asks, and only for it. In a process of its own: V8's limit is the process's, and
// other test threads of this one may lift it (assertNoLeak keeps it lifted, src/soak/whole-strings.js).
import test from 'ava'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { tempDir } from '../helpers/temp-dir.js'

const run = promisify(execFile)
const WRITE = new URL('../../src/agent/write-snapshot.js', import.meta.url).href

/** @param {string} file */
async function longestString (file) {
  const { strings } = await parseSnapshot(file)
  let longest = 0
  for (let i = 0; i < strings.length; i++) if (strings.rawLength(i) > 1024) longest = Math.max(longest, strings.get(i).length)
  return longest
}

/**
 * Two writes in a process of their own: the first with stringLimit 10,000, the second without.
 * @param {string[]} nodeArgs
 * @returns {Promise<{whole: number, cut: number}>} the longest string of each
 */
async function twoWrites (nodeArgs) {
  const dir = await tempDir('leakdiff-strings-')
  // A flat string of 5,000 characters that the heap holds while both snapshots are written.
  const script = `
    const { writeSnapshotFile } = await import(${JSON.stringify(WRITE)})
    const held = { text: Array.from({ length: 500 }, (_, i) => \`\${i % 10}\`.repeat(10)).join('') }
    writeSnapshotFile(${JSON.stringify(join(dir, 'whole.heapsnapshot'))}, { stringLimit: 10_000 })
    writeSnapshotFile(${JSON.stringify(join(dir, 'cut.heapsnapshot'))})
    if (held.text.length !== 5000) process.exitCode = 1`
  await run(process.execPath, [...nodeArgs, '--input-type=module', '-e', script])
  return { whole: await longestString(join(dir, 'whole.heapsnapshot')), cut: await longestString(join(dir, 'cut.heapsnapshot')) }
}

test('a write with stringLimit keeps longer strings whole; the next write is cut at 1,024 again', async (t) => {
  const { whole, cut } = await twoWrites([])
  t.true(whole >= 5000)
  t.true(cut <= 1024)
})

test('in a process started with --heap-snapshot-string-limit, the next write is cut at its limit again', async (t) => {
  const { whole, cut } = await twoWrites(['--heap-snapshot-string-limit=2000'])
  t.true(whole >= 5000)
  t.is(cut, 2000)
})
