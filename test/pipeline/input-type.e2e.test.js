// A script run with `node --input-type=module -e` (or piped in) hands --input-type to every Worker
// it starts, and on Node 20 a Worker that is an ES module then fails to start: leakdiff's own
// analysis threads leave the flag out (src/worker-exec-argv.js).
import test from 'ava'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { captureFixture } from '../helpers/fixture-snapshots.js'

const INDEX = new URL('../../src/index.js', import.meta.url).href

test('node --input-type=module -e: diffSnapshots on worker threads and assertNoLeak work', async (t) => {
  const { files } = await captureFixture('diff/listeners')
  const script = `
    const { assertNoLeak, diffSnapshots } = await import(${JSON.stringify(INDEX)})
    const report = await diffSnapshots(${JSON.stringify(files)}, { parallel: true, top: 1 })
    const clean = await assertNoLeak(() => {}, { iterations: 20, warmup: 5, allocSampling: false })
    console.log(JSON.stringify({ findings: report.findings.length, clean: clean.findings.length }))`
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
  const { findings, clean } = JSON.parse(stdout)
  t.true(findings > 0)
  t.is(clean, 0)
})
