// Positions sorted by key, as the location records and sparse ids use them: the same order as a
// stable sort by key, whether the keys come in long ascending runs (merged, as V8's node ids do),
// in short ones or in no order at all (radix sorted).
import test from 'ava'
import fc from 'fast-check'
import { searchSortedPositions, sortPositionsByKey } from '../../src/graph/sorted-index.js'
import { arrayDifference } from '../helpers/array-difference.js'

/** @param {Uint32Array} keys */
function stableOrder (keys) {
  return [...keys.keys()].sort((a, b) => keys[a] - keys[b] || a - b)
}

const key = fc.integer({ min: 0, max: 0xffffffff })

test('keys in no order: the order of a stable sort, by comparison (under 1,024 keys) and by digits', (t) => {
  fc.assert(fc.property(fc.array(key, { maxLength: 300 }), (values) => {
    const keys = Uint32Array.from(values)
    t.is(arrayDifference([...sortPositionsByKey(keys)], stableOrder(keys)), '')
  }), { numRuns: 200 })
  // Few distinct keys, so that equal keys are many.
  fc.assert(fc.property(fc.array(fc.oneof(key, fc.integer({ min: 0, max: 20 })), { minLength: 1024, maxLength: 4000 }), (values) => {
    const keys = Uint32Array.from(values)
    t.is(arrayDifference([...sortPositionsByKey(keys)], stableOrder(keys)), '')
  }), { numRuns: 10 })
})

test('long ascending runs among short ones, with equal keys across runs: the order of a stable sort', (t) => {
  // Long runs (1,024 keys and more) are merged as they are, the short ones sorted together first;
  // more than eight runs in all are radix sorted whole.
  const sortedRun = (/** @type {number} */ min, /** @type {number} */ max) =>
    fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: min, maxLength: max }).map((values) => values.sort((a, b) => a - b))
  const run = fc.oneof(sortedRun(1024, 2500), sortedRun(0, 6))
  fc.assert(fc.property(fc.array(run, { maxLength: 16 }), (runs) => {
    const keys = Uint32Array.from(runs.flat())
    t.is(arrayDifference([...sortPositionsByKey(keys)], stableOrder(keys)), '')
  }), { numRuns: 60 })
})

test('ids as V8 writes them (ascending, with objects written out of turn): the order of a stable sort', (t) => {
  const keys = Uint32Array.from({ length: 20_000 }, (_, i) => (i % 97 === 0 ? 40_000 - i : 2 * i + 1))
  t.is(arrayDifference([...sortPositionsByKey(keys)], stableOrder(keys)), '')
  t.deepEqual([...sortPositionsByKey(new Uint32Array(0))], [])
})

test('a search finds the last of equal keys, and -1 for a key not there', (t) => {
  const keys = Uint32Array.from([5, 7, 9, 1, 5, 8])
  const sorted = sortPositionsByKey(keys)
  t.is(searchSortedPositions(sorted, keys, 5), 4)
  t.is(searchSortedPositions(sorted, keys, 9), 2)
  t.is(searchSortedPositions(sorted, keys, 6), -1)
})
