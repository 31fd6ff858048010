// assertNoLeak's checks that come before any snapshot: bad options, and the function's own errors.
// What it finds in the heap of the process it runs in is assert-no-leak.e2e.test.js's.
import test from 'ava'
import { assertNoLeak } from 'leakdiff'

test('bad options are rejected at once with LEAKDIFF_INVALID_ARG', (t) => {
  for (const [fn, options] of /** @type {Array<[any, any]>} */ ([
    ['not a function', {}],
    [() => {}, { iterations: 0 }],
    [() => {}, { warmup: -1 }],
    [() => {}, { maxGrowth: 'lots' }],
    [() => {}, { allow: 'listener-accumulation' }],
    [() => {}, { keepSnapshots: '' }],
    [() => {}, { workers: 'auto' }],
    [() => {}, { workers: [{ threadId: 1 }] }]
  ])) {
    t.throws(() => assertNoLeak(fn, options), { code: 'LEAKDIFF_INVALID_ARG' }, JSON.stringify(options))
  }
})

test('the function\'s own errors reject the assertion as they are', async (t) => {
  await t.throwsAsync(assertNoLeak(async (i) => { if (i === 3) throw new TypeError('boom at 3') }, { iterations: 10 }), { instanceOf: TypeError, message: 'boom at 3' })
})
