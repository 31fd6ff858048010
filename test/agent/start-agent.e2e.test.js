// The agent started from code, in this very thread (serially: one agent per thread), writing
// real snapshots of it; and on a main thread of its own, its signal listener. Its options are
// start-agent.test.js's.
import test from 'ava'
import { execFile } from 'node:child_process'
import { mkdtemp, rm, readFile, stat, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { threadId } from 'node:worker_threads'
import { startAgent, seriesFileNames, sidecarPath } from 'leakdiff/agent'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** @import {AgentEvent} from '../../src/agent/events.js' */

/** @param {import('ava').ExecutionContext} t */
async function tempDir (t) {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-start-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

test.serial('captureSeries() resolves with whole files, refuses a second series meanwhile, and prunes to `keep`', async (t) => {
  const dir = await tempDir(t)
  /** @type {AgentEvent[]} */
  const events = []
  const agent = startAgent({ dir, signal: null, count: 1, keep: 1, onEvent: (event) => events.push(event) })
  t.teardown(() => agent.stop())
  t.is(agent.config.dir, dir)
  t.like(t.throws(() => startAgent({ dir, signal: null })), { code: 'LEAKDIFF_CAPTURE' })

  const first = await agent.captureSeries()
  t.is(first.snapshots.length, 1)
  t.is(first.sidecars[0], sidecarPath(first.snapshots[0]))
  const record = JSON.parse(await readFile(first.seriesFile, 'utf8'))
  t.like(record, { status: 'complete', id: first.id, pid: process.pid })
  const planned = seriesFileNames({ dir, pid: process.pid, startedAt: new Date(record.startedAt), count: 1, threadId })
  t.deepEqual(planned.snapshots, first.snapshots)
  t.is(planned.seriesFile, first.seriesFile)
  const meta = JSON.parse(await readFile(first.sidecars[0], 'utf8'))
  t.like(meta, { pid: process.pid, series: { id: first.id, index: 1, count: 1 }, bytes: (await stat(first.snapshots[0])).size })
  t.true(meta.writeCost.estimatedPeakBytes > 0 && meta.writeCost.maxRssAfter >= meta.writeCost.maxRssBefore)

  const second = agent.captureSeries()
  await t.throwsAsync(agent.captureSeries(), { code: 'LEAKDIFF_CAPTURE', message: /still running/ })
  const result = await second
  t.deepEqual((await readdir(dir)).sort(), [
    `leakdiff-${result.id}-1of1.heapsnapshot`, `leakdiff-${result.id}-1of1.meta.json`, `leakdiff-${result.id}-1of1.heapprofile`,
    `leakdiff-${result.id}.series.json`
  ].sort())
  t.deepEqual(events.map((event) => event.type), [
    'ready', 'series-start', 'snapshot', 'series-end', 'series-start', 'ignored', 'snapshot', 'pruned', 'series-end'
  ])
  t.like(events[2], { seriesId: first.id, index: 1, count: 1, path: first.snapshots[0] })
  t.like(events[8], { status: 'complete', paths: result.snapshots })

  agent.stop()
  await t.throwsAsync(agent.captureSeries(), { code: 'LEAKDIFF_CAPTURE', message: /stopped/ })
})

test.serial('stop() during the wait between snapshots ends the series as "stopped" and leaves no timer', async (t) => {
  const dir = await tempDir(t)
  const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length
  const before = timers()
  /** @type {AgentEvent[]} */
  const events = []
  const agent = startAgent({
    dir,
    signal: null,
    count: 3,
    intervalMs: 60_000,
    onEvent: (event) => {
      events.push(event)
      if (event.type === 'snapshot') setImmediate(() => agent.stop())
    }
  })
  t.teardown(() => agent.stop())
  await t.throwsAsync(agent.captureSeries(), { code: 'LEAKDIFF_CAPTURE', message: /stopped after 1/ })
  t.is(timers(), before)
  const plan = JSON.parse(await readFile(join(dir, /** @type {string} */ ((await readdir(dir)).find((n) => n.endsWith('.series.json')))), 'utf8'))
  t.like(plan, { status: 'stopped', count: 3 })
  t.is(plan.snapshots.length, 1)
  t.deepEqual(events.map((event) => event.type), ['ready', 'series-start', 'snapshot', 'stopped', 'series-end'])
})

test('on a main thread, the signal listener exists only while the agent runs', async (t) => {
  // Test files run in worker threads, where signals never arrive: a process of its own.
  const script = [
    "import { startAgent } from 'leakdiff/agent'",
    "const before = process.listenerCount('SIGHUP')",
    "const agent = startAgent({ signal: 'SIGHUP', onEvent: () => {} })",
    "const running = process.listenerCount('SIGHUP')",
    'agent.stop()',
    "console.log(JSON.stringify([before, running, process.listenerCount('SIGHUP')]))"
  ].join('\n')
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT })
  t.deepEqual(JSON.parse(stdout), [0, 1, 0])
})
