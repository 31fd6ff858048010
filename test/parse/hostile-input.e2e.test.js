// Header bombs piped into the CLI's own process (`leakdiff inspect -`): one line, exit 2. Files and
// the parser itself: hostile-input.test.js.
import test from 'ava'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { bomb } from '../helpers/header-bomb.js'
import { leakdiff } from '../helpers/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'

test('header bombs on standard input, plain or gzip: one line and exit 2', async (t) => {
  const scratch = await tempDir('leakdiff-hostile-')
  const plain = join(scratch, 'cli-bomb.heapsnapshot')
  await writeFile(plain, bomb(3e9, 4e9))
  const gz = join(scratch, 'cli-bomb.heapsnapshot.gz')
  await writeFile(gz, gzipSync(bomb(3e9, 4e9)))
  const runs = await Promise.all([plain, gz].map((stdin) => leakdiff(['inspect', '-'], {}, { stdin })))
  for (const { code, stdout, stderr } of runs) {
    t.is(code, 2, stderr)
    t.is(stdout, '')
    t.regex(stderr, /^leakdiff: [^\n]*(need at least \d+ bytes|cut short)[^\n]*\n$/)
  }
})
