// The agent started from code, in this very thread (serially: one agent per thread): its
// options and its signal listener, without a write. Its series of real snapshots are
// start-agent.e2e.test.js's.
import test from 'ava'
import { isMainThread } from 'node:worker_threads'
import { startAgent } from 'leakdiff/agent'

test.serial('bad options throw InvalidArgumentError before anything is installed', (t) => {
  const listeners = process.listenerCount('SIGUSR2')
  t.like(t.throws(() => startAgent({ signal: 'SIGKILL' })), { code: 'LEAKDIFF_INVALID_ARG' })
  t.like(t.throws(() => startAgent({ count: 0 })), { code: 'LEAKDIFF_INVALID_ARG' })
  t.like(t.throws(() => startAgent({ onEvent: /** @type {any} */ ('log') })), { code: 'LEAKDIFF_INVALID_ARG' })
  t.is(process.listenerCount('SIGUSR2'), listeners)
})

// Tests run in worker threads; the main thread's listener is start-agent.e2e.test.js's.
test.serial('the signal listener exists only while the agent runs, on the main thread only: a worker thread\'s agent waits for the main thread\'s', (t) => {
  const before = process.listenerCount('SIGHUP')
  const agent = startAgent({ signal: 'SIGHUP', onEvent: () => {} })
  t.is(process.listenerCount('SIGHUP'), before + (isMainThread ? 1 : 0))
  agent.stop()
  t.is(process.listenerCount('SIGHUP'), before)
})
