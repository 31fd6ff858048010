// How assertNoLeak finds the worker threads it checks, writes their snapshots and says which heaps
// it did not check, on small eval'd Workers; serial, since a test sees the Workers every test
// starts. A leak found in a worker's heap is assert-no-leak-workers.e2e.test.js's.
import test from 'ava'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { keepStringsWhole } from '../../src/soak/whole-strings.js'
import { WorkerHeaps, checkWorkersOption } from '../../src/soak/worker-heaps.js'
import { tempDir } from '../helpers/temp-dir.js'

const HERE = relative(process.cwd(), fileURLToPath(import.meta.url))
const STRING_WORKER_LINE = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').findIndex((line) => line.endsWith('// starts: string worker')) + 1
const IDLE = 'setInterval(() => {}, 1000)'
const noPath = () => { throw new Error('no snapshot expected') }

test.serial('workers: false writes no worker snapshot and names a Worker still running at the end, by where it was started', async (t) => {
  const heaps = new WorkerHeaps(false, { cwd: process.cwd() })
  heaps.listen()
  const running = new Worker(IDLE, { eval: true })
  const ended = new Worker(IDLE, { eval: true })
  t.teardown(() => running.terminate())
  await Promise.all([once(running, 'online'), once(ended, 'online')])
  await ended.terminate()
  for (const index of [1, 2, 3]) await heaps.snapshot(index, noPath)
  heaps.close()
  const after = new Worker(IDLE, { eval: true })
  await after.terminate()
  t.deepEqual(heaps.complete(), [])
  const warnings = heaps.warnings()
  t.is(warnings.length, 1, warnings.join('\n'))
  t.regex(warnings[0], new RegExp(`^thread ${running.threadId}, started at ${HERE.replaceAll('.', '\\.')}:\\d+:\\d+ ran during the calls; a worker's heap is in none of these snapshots \\(\`workers: true\` checks it\\)$`))
})

test.serial('workers: true with no Worker started says so', async (t) => {
  const heaps = new WorkerHeaps(true, { cwd: process.cwd() })
  heaps.listen()
  for (const index of [1, 2, 3]) await heaps.snapshot(index, noPath)
  heaps.close()
  t.deepEqual(heaps.complete(), [])
  t.deepEqual(heaps.warnings(), ['`workers: true` found no worker thread running at the first snapshot: it checks the Workers started from the start of the assertion through the warm-up; list older ones (`workers: [worker]`)'])
})

test.serial('a Worker not running yet is waited for; its snapshots keep whole strings (0600); one that exits is left out and named', async (t) => {
  const dir = await tempDir('leakdiff-worker-heaps-')
  keepStringsWhole()
  const heaps = new WorkerHeaps(true, { cwd: process.cwd() })
  heaps.listen()
  // A flat string of 3,000 characters: V8 keeps 1,024 of each by default.
  const worker = new Worker(`globalThis.kept = ('y'.repeat(3000) + 'END').split('').join(''); require('node:worker_threads').parentPort.postMessage('kept'); ${IDLE}`, { eval: true }) // starts: string worker
  t.teardown(() => worker.terminate())
  const kept = once(worker, 'message')
  const threadId = worker.threadId
  const pathOf = (/** @type {number} */ index) => join(dir, `t${threadId}-${index}.heapsnapshot`)
  await heaps.snapshot(1, (thread) => { t.is(thread.threadId, threadId); return pathOf(1) })
  t.true((await stat(pathOf(1))).size > 0)
  await kept
  await heaps.snapshot(2, () => pathOf(2))
  t.true((await readFile(pathOf(2), 'utf8')).includes(`${'y'.repeat(3000)}END`))
  for (const index of [1, 2]) t.is((await stat(pathOf(index))).mode & 0o777, 0o600)
  await worker.terminate()
  await heaps.snapshot(3, () => pathOf(3))
  heaps.close()
  t.deepEqual(heaps.complete(), [])
  t.deepEqual(heaps.warnings(), [`thread ${threadId}, started at ${HERE}:${STRING_WORKER_LINE}:18 not checked: it exited before snapshot 3`])
})

test.serial('the workers option takes true, false or running Worker objects', async (t) => {
  t.is(checkWorkersOption(true), true)
  t.is(checkWorkersOption(false), false)
  for (const value of ['auto', [{}], [null], {}]) t.throws(() => checkWorkersOption(value), { code: 'LEAKDIFF_INVALID_ARG' }, JSON.stringify(value))
  const worker = new Worker(IDLE, { eval: true })
  const running = checkWorkersOption([worker])
  t.true(Array.isArray(running) && running[0] === worker)
  await worker.terminate()
  t.throws(() => checkWorkersOption([worker]), { code: 'LEAKDIFF_INVALID_ARG', message: /has exited/ })
})
