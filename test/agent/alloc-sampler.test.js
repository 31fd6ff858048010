// The agent's sampling heap profiler: its settings. Sampling in this very process, beside real
// snapshots of it, is alloc-sampler.e2e.test.js's.
import test from 'ava'
import { configFromEnv } from 'leakdiff/agent'

test('settings: on by default at 64 KiB; LEAKDIFF_ALLOC_SAMPLING=0 turns it off, =always spans series; LEAKDIFF_ALLOC_INTERVAL takes a size', (t) => {
  t.like(configFromEnv({}).config, { allocSampling: true, allocSamplingInterval: 64 * 1024 })
  t.like(configFromEnv({ LEAKDIFF_ALLOC_SAMPLING: '0', LEAKDIFF_ALLOC_INTERVAL: '128KiB' }).config, { allocSampling: false, allocSamplingInterval: 128 * 1024 })
  t.like(configFromEnv({ LEAKDIFF_ALLOC_SAMPLING: 'always' }).config, { allocSampling: 'always' })
  const bad = configFromEnv({ LEAKDIFF_ALLOC_SAMPLING: 'sometimes', LEAKDIFF_ALLOC_INTERVAL: '12' })
  t.like(bad.config, { allocSampling: true, allocSamplingInterval: 64 * 1024 })
  t.is(bad.problems.length, 2)
  t.regex(bad.problems[1], /LEAKDIFF_ALLOC_INTERVAL="12": expected a number of bytes from 1 KiB to 1 GiB; using 64KiB/)
})
