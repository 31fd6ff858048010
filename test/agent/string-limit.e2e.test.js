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

test('a write with stringLimit keeps longer strings whole; the next write is cut at 1,024 again', async (t) => {
  const dir = await tempDir('leakdiff-strings-')
  // A flat string of 5,000 characters that the heap holds while both snapshots are written.
  const script = `
    const { writeSnapshotFile } = await import(${JSON.stringify(WRITE)})
    const held = { text: Array.from({ length: 500 }, (_, i) => \`\${i % 10}\`.repeat(10)).join('') }
    writeSnapshotFile(${JSON.stringify(join(dir, 'whole.heapsnapshot'))}, { stringLimit: 10_000 })
    writeSnapshotFile(${JSON.stringify(join(dir, 'cut.heapsnapshot'))})
    console.log(held.text.length)`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script])
  t.is(stdout.trim(), '5000')
  t.true(await longestString(join(dir, 'whole.heapsnapshot')) >= 5000)
  t.true(await longestString(join(dir, 'cut.heapsnapshot')) <= 1024)
})
