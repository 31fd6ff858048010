// assertNoLeak in the process it runs in: real heap snapshots of this test process, a leak found
// at its line here; a clean function passes. Where it finds a leak made in a package, far down a
// file and in a bundle with its map kept apart: assert-no-leak-sources.e2e.test.js, a thread of
// its own, so that the two files' serial assertions run side by side. Its checks before any
// snapshot are assert-no-leak.test.js's.
import test from 'ava'
import { execFile } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { threadId } from 'node:worker_threads'
import { assertNoLeak, LeakAssertionError } from 'leakdiff'

const FILE = fileURLToPath(import.meta.url)
// The line of the leaking listener below, found by its marker so that edits above it cannot break the test.
const LEAK_LINE = readFileSync(FILE, 'utf8').split('\n').findIndex((line) => line.endsWith('// leak: listener')) + 1

const bus = new EventEmitter()
bus.setMaxListeners(0)

/** @param {number} i */
function subscribe (i) {
  const state = { i, tags: [i, i + 1] }
  bus.on('reload', () => state.i) // leak: listener
}

test.serial('a function that adds a listener per call fails with the listener-accumulation card and its source line; keepSnapshots keeps the files, 0600', async (t) => {
  const keep = await mkdtemp(join(tmpdir(), 'leakdiff-keep-'))
  t.teardown(() => rm(keep, { recursive: true, force: true }))
  const error = await t.throwsAsync(assertNoLeak(subscribe, { iterations: 300, warmup: 50, keepSnapshots: join(keep, 'snaps') }), { instanceOf: LeakAssertionError })
  t.is(error.code, 'LEAKDIFF_LEAK')
  const [first] = error.message.split('\n')
  t.regex(first, /^assertNoLeak: leak found: listener-accumulation at /)
  const where = `${relative(process.cwd(), FILE)}:${LEAK_LINE}:`
  t.true(first.includes(where), `${first} names ${where}`)
  // The card: signature, location, the evidence rows and the fix; no colour.
  t.regex(error.message, /\n1 {2}listener-accumulation {3}confidence /)
  t.true(error.message.includes(`   ${where}`))
  t.regex(error.message, /listeners +\d+ → \d+ → \d+/)
  t.false(error.message.includes('\x1b['))
  const report = /** @type {any} */ (error.report)
  t.is(report.verdict, 'leak')
  t.is(report.findings[0].signature, 'listener-accumulation')
  t.is(report.findings[0].location.line, LEAK_LINE)
  t.deepEqual(report.growth[0].path.slice(-3).map((/** @type {any} */ step) => step.edge), ['bus', '_events', 'reload'])
  // Three iterations' worth of listeners per step: the counter and the callback are not what grows.
  t.true(report.findings[0].evidence.counts[2] - report.findings[0].evidence.counts[1] >= 300)

  const kept = (await readdir(join(keep, 'snaps'))).sort()
  t.is(kept.length, 6)
  // Named by the process and, off the main thread, the thread: test files in threads of one
  // process may assert into one directory in the same millisecond.
  const stem = `leakdiff-assert-${process.pid}${threadId === 0 ? '' : `-t${threadId}`}-`
  t.deepEqual(kept.map((name) => name.startsWith(stem) ? name.slice(stem.length).replace(/^\d+-\d+-/, '') : name), [
    '1of3.heapprofile', '1of3.heapsnapshot', '2of3.heapprofile', '2of3.heapsnapshot', '3of3.heapprofile', '3of3.heapsnapshot'
  ])
  for (const name of kept) t.is((await stat(join(keep, 'snaps', name))).mode & 0o777, 0o600)
  t.is((await stat(join(keep, 'snaps'))).mode & 0o777, 0o700)
})

test.serial('an async function that allocates and frees a lot passes and resolves with a clean report; its snapshots are removed', async (t) => {
  const scratch = new Map()
  const report = await assertNoLeak(async (i) => {
    // Per call: a Map of 100 objects, strings, a buffer, a promise chain and a turn of the event loop, all dropped.
    const batch = new Map()
    for (let k = 0; k < 100; k++) batch.set(`key-${i}-${k}`, { k, text: `value ${i * k}`, list: [k, i] })
    scratch.set(i % 10, batch)
    const buffer = Buffer.alloc(256, i)
    await new Promise((resolve) => { setImmediate(resolve) })
    await Promise.all([1, 2, 3].map(async (n) => n * buffer[0]))
  }, { iterations: 300, warmup: 50 })
  t.is(report.verdict, 'clean', report.reason)
  t.deepEqual(report.findings, [])
  t.false(report.growth.some((row) => row.leak))
  // The files are gone, so the report names the snapshots by when they were taken.
  t.deepEqual(report.snapshots.map(({ path }) => path), ['after 50 calls', 'after 350 calls', 'after 650 calls'])
  // This thread's: another test file's assertion may be running in another thread of this process.
  const stem = `leakdiff-assert-${process.pid}${threadId === 0 ? '' : `-t${threadId}`}-`
  const left = (await readdir(tmpdir())).filter((name) => name.startsWith('leakdiff-assert-'))
  for (const name of left) t.deepEqual((await readdir(join(tmpdir(), name))).filter((file) => file.startsWith(stem)), [])
})

// V8's string limit is one for the process, and test files run in threads of one process: an
// assertion that set it back to 1,024 when done would cut the strings of another thread's snapshot
// being taken then. In a process of its own, so that no other test thread lifts it meanwhile.
// And the analysis thread, kept for a next assertion (src/soak/analysis-thread.js), must not hold
// the process open once the script is done.
test('once an assertion has run, the process\'s snapshots keep strings whole, in every thread; the process exits when its script is done', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-strings-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const script = join(dir, 'after-assertion.mjs')
  await writeFile(script, `
    import { createWriteStream } from 'node:fs'
    import { pipeline } from 'node:stream/promises'
    import { Worker } from 'node:worker_threads'
    import { assertNoLeak } from ${JSON.stringify(new URL('../../src/index.js', import.meta.url).href)}
    await assertNoLeak(() => {}, { iterations: 20, warmup: 5, allocSampling: false })
    // A flat string of 3,000 characters, in a thread that has taken no part in the assertion.
    const worker = new Worker("globalThis.kept = ('y'.repeat(3000) + 'END').split('').join(''); require('node:worker_threads').parentPort.postMessage('kept'); setInterval(() => {}, 1000)", { eval: true })
    await new Promise((resolve) => worker.once('message', resolve))
    await pipeline(await worker.getHeapSnapshot(), createWriteStream(${JSON.stringify(join(dir, 'worker.heapsnapshot'))}))
    await worker.terminate()
    const done = Date.now()
    process.on('exit', () => { console.log(JSON.stringify({ exitAfterMs: Date.now() - done })) })
  `)
  const { stdout } = await promisify(execFile)(process.execPath, [script])
  t.true(readFileSync(join(dir, 'worker.heapsnapshot'), 'utf8').includes(`${'y'.repeat(3000)}END`))
  // The idle thread is let go after 15 s; the process must not wait for that.
  t.true(JSON.parse(stdout).exitAfterMs < 5000, stdout)
})
