// Names from the heap that would do harm (fixtures/programs/report/hostile-names.js) in what
// assertNoLeak throws: a real snapshot of this test process, so not in hostile-names.test.js.
import test from 'ava'
import { assertNoLeak } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { CONTROL } from '../helpers/hostile-checks.js'

test('assertNoLeak: the error\'s message (the text report and the failed gate) holds no control character from the heap', async (t) => {
  const { hostile } = (await captureFixture('report/hostile-names')).report
  /** @type {Record<string, object[]>} */
  const registry = { [hostile]: [] }
  const error = await t.throwsAsync(assertNoLeak((i) => { registry[hostile].push({ [hostile]: [i] }) }, { iterations: 150, warmup: 20 }), { code: 'LEAKDIFF_LEAK' })
  t.true(error?.message.includes('\\u001b[31mRED'), 'the name is in the message, escaped')
  t.false(CONTROL.test((error?.message ?? '').replaceAll('\n', '')))
})
