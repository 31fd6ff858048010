// leakdiff's worker threads (the diff's parallel analysis, assertNoLeak's) under the flags a process
// was started with: --input-type, which Node 20 hands to every Worker and which then stops an ES
// module Worker from starting, --max-old-space-size, which Node refuses in a Worker's execArgv
// when it is given as a list (src/worker-exec-argv.js), and preloads, which assertNoLeak's thread
// does without.
import test from 'ava'
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { FIXTURES } from '../helpers/agent-child.js'
import { tempDir } from '../helpers/temp-dir.js'

const run = promisify(execFile)
const INDEX = new URL('../../src/index.js', import.meta.url).href

// assertNoLeak first: its snapshots are of this process's heap, smaller before the diff loads
// the upper half (about a second less CPU).
/** @param {string[]} files */
const script = (files) => `
  const { assertNoLeak, diffSnapshots } = await import(${JSON.stringify(INDEX)})
  const clean = await assertNoLeak(() => {}, { iterations: 20, warmup: 5, allocSampling: false })
  const report = await diffSnapshots(${JSON.stringify(files)}, { parallel: true, top: 1 })
  console.log(JSON.stringify({ findings: report.findings.length, clean: clean.findings.length }))`

test('node --input-type=module -e: diffSnapshots on worker threads and assertNoLeak work', async (t) => {
  const { files } = await captureFixture('diff/listeners')
  const { stdout } = await run(process.execPath, ['--input-type=module', '--max-old-space-size=2048', '-e', script(files)])
  t.like(JSON.parse(stdout), { clean: 0 })
  t.true(JSON.parse(stdout).findings > 0)
})

// assertNoLeak's thread is started without flags whatever the process's (the last test).
test('node --max-old-space-size=N script.mjs: diffSnapshots on worker threads works', async (t) => {
  const { files } = await captureFixture('diff/listeners')
  const file = join(await tempDir('leakdiff-worker-flags-'), 'diff.mjs')
  await writeFile(file, `
    const { diffSnapshots } = await import(${JSON.stringify(INDEX)})
    const report = await diffSnapshots(${JSON.stringify(files)}, { parallel: true, top: 1 })
    console.log(report.findings.length)`)
  const { stdout } = await run(process.execPath, ['--max-old-space-size=2048', '--stack-trace-limit=50', file])
  t.true(Number(stdout) > 0)
})

test('assertNoLeak\'s analysis thread runs none of the test process\'s preloads', async (t) => {
  const dir = await tempDir('leakdiff-worker-flags-')
  const file = join(dir, 'assert.mjs')
  await writeFile(file, `
    const { assertNoLeak } = await import(${JSON.stringify(INDEX)})
    await assertNoLeak(() => {}, { iterations: 20, warmup: 5, allocSampling: false })`)
  const log = join(dir, 'threads.log')
  await run(process.execPath, ['-r', join(FIXTURES, 'log-threads.cjs'), file], {
    env: { ...process.env, THREAD_LOG: log, NODE_OPTIONS: `--import ${pathToFileURL(join(FIXTURES, 'log-threads.mjs')).href}` }
  })
  t.deepEqual((await readFile(log, 'utf8')).trim().split('\n').sort(), ['--import main', '-r main'])
})
