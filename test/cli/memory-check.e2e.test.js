// What only the CLI's own process shows of the memory check: LEAKDIFF_MEMORY_LIMIT read from its
// environment, the exit code, and --skip-memory-check read from its command line. The check's
// messages: memory-check.test.js.
import test from 'ava'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { tempDir } from '../helpers/temp-dir.js'
import { leakdiff } from '../helpers/run-cli.js'

test('a snapshot too big for LEAKDIFF_MEMORY_LIMIT: exit 2 in one line before it is read; --skip-memory-check reads it anyway', async (t) => {
  // Four fifths of a real snapshot: the check refuses it from its header alone; read anyway,
  // the parser finds it cut short.
  const { files } = await captureFixture('diff/map-cache')
  const whole = await readFile(files[0])
  const file = join(await tempDir('leakdiff-memory-'), 'cut.heapsnapshot')
  await writeFile(file, whole.subarray(0, Math.floor(whole.length * 0.8)))
  const env = { LEAKDIFF_MEMORY_LIMIT: '1MB' }
  const [refused, forced] = await Promise.all([leakdiff(['inspect', file], env), leakdiff(['inspect', file, '--skip-memory-check'], env)])
  t.is(refused.code, 2)
  t.is(refused.stdout, '')
  t.regex(refused.stderr, /^leakdiff: analysing this snapshot needs about .* \(LEAKDIFF_MEMORY_LIMIT\)\. .* --skip-memory-check to try anyway\n$/)
  t.is(forced.code, 2)
  t.regex(forced.stderr, /^leakdiff: [^\n]*cut\.heapsnapshot[^\n]*cut short[^\n]*\n$/)
})
