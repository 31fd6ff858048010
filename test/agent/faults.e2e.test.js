// The agent under faults the other agent tests do not make: a write that hits a file-size limit
// (a full disk, as the process sees it: EFBIG instead of ENOSPC) in a real app, plain and gzip;
// signals in quick succession; the app exiting between the snapshots of a series. Each time the
// app keeps serving and no file under a final name is incomplete.
import ava from 'ava'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { makeInstallDir, startApp, get, listDir } from '../helpers/agent-child.js'
import { pooledTest } from '../helpers/process-pool.js'
import { pollUntil, scaledMs } from '../helpers/load-deadline.js'

// Each test runs apps that write heap snapshots: a few at a time, however many tests there are.
const test = pooledTest(ava)

/**
 * @param {import('ava').ExecutionContext} t
 * @param {Parameters<typeof startApp>[0] extends infer O ? Omit<O, 'cwd'> : never} options
 */
async function appIn (t, options) {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  const app = await startApp({ ...options, cwd: install.dir })
  t.teardown(app.stop)
  return { app, out: join(install.dir, 'out') }
}

/**
 * Every file under a final snapshot name parses whole (its arrays as long as its header says).
 * @param {import('ava').ExecutionContext} t
 * @param {string} out
 */
async function checkFinalFiles (t, out) {
  const names = await listDir(out)
  for (const name of names.filter((n) => /\.heapsnapshot(\.gz)?$/.test(n))) {
    let bytes = await readFile(join(out, name))
    if (name.endsWith('.gz')) bytes = gunzipSync(bytes)
    const snapshot = JSON.parse(bytes.toString('latin1'))
    const { meta, node_count: nodeCount } = snapshot.snapshot
    t.is(snapshot.nodes.length, nodeCount * meta.node_fields.length, `${name} is whole`)
  }
  for (const name of names.filter((n) => n.endsWith('.json'))) JSON.parse(await readFile(join(out, name), 'utf8'))
  return names
}

for (const gzip of [false, true]) {
  test(`a write past the file-size limit${gzip ? ' (gzip)' : ''}: the series fails with one line, nothing is left under a final name, the app serves on and a later signal fails the same way`, async (t) => {
    // 256 blocks of 512 bytes: the series and sidecar files fit, a snapshot (several MB) does not.
    const { app, out } = await appIn(t, {
      script: 'esm-app.js',
      nodeArgs: ['--import', 'leakdiff/register'],
      env: { LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '1', LEAKDIFF_GZIP: gzip ? '1' : '0', LEAKDIFF_FIXTURE_OBJECTS: '100000' },
      fileSizeBlocks: 256
    })
    const pid = /** @type {number} */ (app.child.pid)
    process.kill(pid, 'SIGUSR2')
    t.regex(await app.waitForStderr(/series .* (failed|complete)/), /failed: 0 of 1/)
    t.regex(app.stderr(), /EFBIG|file too large/i)
    t.is(await get(app.ready[0]), 'ok 1\n')
    const names = await checkFinalFiles(t, out)
    t.deepEqual(names.filter((n) => /\.heapsnapshot(\.gz)?$|\.partial$/.test(n)), [], names.join(' '))
    process.kill(pid, 'SIGUSR2')
    await app.waitForStderr(/series .* failed/, 2)
    t.is(await get(app.ready[0]), 'ok 2\n')
    t.deepEqual((await listDir(out)).filter((n) => n.endsWith('.partial')), [])
    t.is(app.child.exitCode, null)
  })
}

test('signals in quick succession: one series, the others ignored with a line each, the app answers all along', async (t) => {
  const { app, out } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '2', LEAKDIFF_INTERVAL: '1s' }
  })
  const pid = /** @type {number} */ (app.child.pid)
  for (let i = 0; i < 20; i++) process.kill(pid, 'SIGUSR2')
  await app.waitForStderr(/series .* started/)
  // A write blocks the app's event loop (V8 writes the heap in one go); between the writes of
  // the series the app answers, however many signals arrive.
  await app.waitForStderr(/wrote .*1of2/)
  const answers = []
  for (let i = 0; i < 10; i++) {
    process.kill(pid, 'SIGUSR2')
    answers.push(await get(app.ready[0]))
  }
  t.regex(await app.waitForStderr(/series .* (complete|failed)/), /complete: 2 of 2/)
  t.is(answers.filter((body) => /^ok \d+\n$/.test(body)).length, 10)
  // Signals after the series ends start the next one: count the series started before it ended.
  const lines = app.stderr().split('\n')
  const end = lines.findIndex((line) => /series .* complete/.test(line))
  t.is(lines.slice(0, end).filter((line) => /series .* started/.test(line)).length, 1)
  t.true(app.stderr().split('\n').some((line) => /SIGUSR2 ignored: series .* still running/.test(line)))
  // A signal after the end started another series: the files are looked at once none runs.
  await new Promise((resolve) => setTimeout(resolve, scaledMs(300)))
  const started = app.stderr().split('\n').filter((line) => /series .* started/.test(line)).length
  await app.waitForStderr(/series .* (complete|failed)/, started)
  const names = await checkFinalFiles(t, out)
  t.is(names.filter((n) => n.endsWith('.heapsnapshot')).length, 2 * started)
  t.deepEqual(names.filter((n) => n.endsWith('.partial')), [])
})

test('the app exiting between the snapshots of a series leaves whole files and a readable series file', async (t) => {
  const { app, out } = await appIn(t, {
    script: 'esm-app.js',
    nodeArgs: ['--import', 'leakdiff/register'],
    env: { LEAKDIFF_DIR: 'out', LEAKDIFF_SERIES: '3', LEAKDIFF_INTERVAL: '30s' }
  })
  process.kill(/** @type {number} */ (app.child.pid), 'SIGUSR2')
  await app.waitForStderr(/wrote .*1of3/)
  // Once its sidecar is in place too (the exit in the middle of a write is capture.e2e.test.js's).
  await pollUntil(async () => (await listDir(out)).some((n) => n.endsWith('1of3.meta.json')), 10_000)
  const exited = new Promise((resolve) => app.child.once('exit', resolve))
  process.kill(/** @type {number} */ (app.child.pid), 'SIGTERM')
  await exited
  const names = await checkFinalFiles(t, out)
  t.is(names.filter((n) => n.endsWith('.heapsnapshot')).length, 1)
  t.deepEqual(names.filter((n) => n.endsWith('.partial')), [])
  const series = JSON.parse(await readFile(join(out, /** @type {string} */ (names.find((n) => n.endsWith('.series.json')))), 'utf8'))
  // The series file is written when the series starts and when it ends: a series cut short by
  // the process's exit still says what it planned, and the snapshot written is one of those.
  t.is(series.status, 'running')
  t.true(series.planned.includes(names.find((n) => n.endsWith('.heapsnapshot'))))
})
