// The agent's sampling heap profiler in this very process, with real snapshots of it: beside an
// inspector session that is already connected, and sampling that spans series. Its settings are
// alloc-sampler.test.js's. (A series with sampling off, or with the profiler taken by another
// session, is in test/report/allocated-at.test.js: alloc/library-leaks foreign.)
import test from 'ava'
import { Session } from 'node:inspector'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAgent } from 'leakdiff/agent'
import { AllocationSampler } from '../../src/agent/alloc-sampler.js'
import { pollUntil } from '../helpers/load-deadline.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

/** @param {import('ava').ExecutionContext} t */
async function tempDir (t) {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-sampler-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/**
 * @param {Session} session
 * @param {string} method
 * @param {object} [params]
 * @returns {Promise<any>}
 */
function post (session, method, params = {}) {
  return new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))))
}

test.serial('a session already connected with HeapProfiler enabled (not sampling): the sampler runs beside it and leaves it working', async (t) => {
  const other = new Session()
  other.connect()
  t.teardown(() => other.disconnect())
  await post(other, 'HeapProfiler.enable')
  const started = await AllocationSampler.start({ intervalBytes: 4096, run: 'test' })
  if (!('sampler' in started)) return t.fail(started.reason)
  const kept = Array.from({ length: 2000 }, (_, i) => ({ i, list: new Array(16).fill(i) }))
  const profile = JSON.parse(await started.sampler.profileText())
  t.true(profile.samples.length > 0)
  t.true(kept.length > 0)
  await started.sampler.stop()
  await started.sampler.stop()
  // The other session still answers the profiler's domain.
  await t.notThrowsAsync(post(other, 'HeapProfiler.collectGarbage'))
})

test.serial('allocSampling "always": two series share one sampling run, stopped with the agent', async (t) => {
  const dir = await tempDir(t)
  const agent = startAgent({ dir, signal: null, count: 1, allocSampling: 'always', onEvent: () => {} })
  const first = await agent.captureSeries()
  const second = await agent.captureSeries()
  const runs = await Promise.all([first, second].map(async ({ sidecars }) => JSON.parse(await readFile(sidecars[0], 'utf8')).allocationProfile.run))
  t.is(runs[0], runs[1])
  agent.stop()
  // Stopped: a new session may start the profiler again (it would refuse while it ran). The stop
  // reaches the inspector a moment later.
  /** @type {Awaited<ReturnType<typeof AllocationSampler.start>>} */
  let again = { reason: 'not tried' }
  await pollUntil(async () => {
    again = await AllocationSampler.start({ intervalBytes: 65536, run: 'after' })
    return 'sampler' in again
  }, 5000, 50)
  t.true('sampler' in again, 'reason' in again ? again.reason : '')
  if ('sampler' in again) await again.sampler.stop()
})

test.serial('a sampling run leaves V8\'s object ids as they were: two series of this thread diff object by object, as one process', async (t) => {
  const dir = await tempDir(t)
  // Sampling runs for each series alone (the default): it starts and stops twice.
  const agent = startAgent({ dir, signal: null, count: 1, keep: 2, onEvent: () => {} })
  t.teardown(() => agent.stop())
  const first = await agent.captureSeries()
  const second = await agent.captureSeries()
  const sampled = await Promise.all([first, second].map(async ({ sidecars }) => JSON.parse(await readFile(sidecars[0], 'utf8')).allocationProfile))
  t.true(sampled.every((profile) => profile !== null && profile !== undefined) && sampled[0].run !== sampled[1].run, JSON.stringify(sampled))
  // An inspector session that disconnects makes V8 forget every id: the diff would see two processes.
  const report = await sharedDiff([first.snapshots[0], second.snapshots[0]], { top: 1 })
  t.is(report.comparison, 'ids', report.reason)
  t.false(report.warnings.some((warning) => warning.includes('object ids')), report.warnings.join('\n'))
})
