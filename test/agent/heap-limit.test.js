// The heap limit a leak runs into (src/agent/heap-limit.js): the old generation's, from
// heap_size_limit less the young generation's reserve, and where V8 gives up before it.
import test from 'ava'
import { flagValue, GIVE_UP_SHARE, heapLimit } from '../../src/agent/heap-limit.js'

const MiB = 2 ** 20

test('--max-old-space-size=128 (heap_size_limit 176 MiB): the limit is 128 MiB, V8 may give up from 102.4 MiB', (t) => {
  const limit = heapLimit({ heapSizeLimit: 176 * MiB, flags: ['--max-old-space-size=128'], youngGenerationMb: null })
  t.is(limit.bytes, 128 * MiB)
  t.is(limit.giveUpBytes, GIVE_UP_SHARE * 128 * MiB)
  t.is(Math.round(limit.giveUpBytes / MiB * 10) / 10, 102.4)
})

test('a larger young generation (--max-semi-space-size, or a worker\'s resourceLimits) is taken off heap_size_limit', (t) => {
  t.is(heapLimit({ heapSizeLimit: 224 * MiB, flags: ['--max-semi-space-size=32'], youngGenerationMb: null, v8Major: 11 }).bytes, 128 * MiB)
  t.is(heapLimit({ heapSizeLimit: 88 * MiB, flags: [], youngGenerationMb: 24, v8Major: 11 }).bytes, 64 * MiB)
  // The flag is V8's, and wins over what the worker asked for.
  t.is(heapLimit({ heapSizeLimit: 224 * MiB, flags: ['--max-semi-space-size=32'], youngGenerationMb: 24, v8Major: 11 }).bytes, 128 * MiB)
  // V8's default heap on a large machine: 4 GiB of old generation, whatever the young one
  // (measured: Node 20 and 22 report 4144 MiB, Node 24 4288).
  t.is(heapLimit({ heapSizeLimit: 4144 * MiB, flags: [], youngGenerationMb: null, v8Major: 12 }).bytes, 4096 * MiB)
  t.is(heapLimit({ heapSizeLimit: 4288 * MiB, flags: [], youngGenerationMb: null, v8Major: 13 }).bytes, 4096 * MiB)
})

test('--max-old-space-size is the limit as it is, on Node 24 too, whose young generation reserves 192 MiB (heap_size_limit 320 MiB)', (t) => {
  t.is(heapLimit({ heapSizeLimit: 320 * MiB, flags: ['--max-old-space-size=128'], youngGenerationMb: null, v8Major: 13 }).bytes, 128 * MiB)
  t.is(heapLimit({ heapSizeLimit: 320 * MiB, flags: ['--max-old-space-size=64', '--max-old-space-size=128'], youngGenerationMb: 192, v8Major: 13 }).bytes, 128 * MiB)
})

test('a small heap whose young generation is smaller than the default reserve: never less than half of heap_size_limit', (t) => {
  t.is(heapLimit({ heapSizeLimit: 64 * MiB, flags: ['--max-heap-size=64'], youngGenerationMb: null }).bytes, 32 * MiB)
})

test('flag values: dashes or underscores, `=` or a separate word, the last one wins, nonsense is ignored', (t) => {
  t.is(flagValue(['--max-semi-space-size=8'], 'max-semi-space-size'), 8)
  t.is(flagValue(['--max_semi_space_size=8'], 'max-semi-space-size'), 8)
  t.is(flagValue(['--max-semi-space-size', '4'], 'max-semi-space-size'), 4)
  t.is(flagValue(['--max-semi-space-size=8', '--inspect', '--max-semi-space-size=2'], 'max-semi-space-size'), 2)
  t.is(flagValue(['--max-semi-space-size=lots', '--max-semi-space-size=', '--max-semi-space-size=-1'], 'max-semi-space-size'), null)
  t.is(flagValue(['--max-semi-space-size-x=8', '--max-old-space-size=8'], 'max-semi-space-size'), null)
})
