// The agent started from code, in this very process (serially: one agent per process): its
// options and its signal listener, without a write. Its series of real snapshots are
// start-agent.e2e.test.js's.
import test from 'ava'
import { startAgent } from 'leakdiff/agent'

test.serial('bad options throw InvalidArgumentError before anything is installed', (t) => {
  const listeners = process.listenerCount('SIGUSR2')
  t.like(t.throws(() => startAgent({ signal: 'SIGKILL' })), { code: 'LEAKDIFF_INVALID_ARG' })
  t.like(t.throws(() => startAgent({ count: 0 })), { code: 'LEAKDIFF_INVALID_ARG' })
  t.like(t.throws(() => startAgent({ onEvent: /** @type {any} */ ('log') })), { code: 'LEAKDIFF_INVALID_ARG' })
  t.is(process.listenerCount('SIGUSR2'), listeners)
})

test.serial('the signal listener exists only while the agent runs', (t) => {
  const before = process.listenerCount('SIGHUP')
  const agent = startAgent({ signal: 'SIGHUP', onEvent: () => {} })
  t.is(process.listenerCount('SIGHUP'), before + 1)
  agent.stop()
  t.is(process.listenerCount('SIGHUP'), before)
})
