// Long columns compared entry by entry: t.deepEqual describes every entry of both sides before it
// compares them, seconds for the columns of one real heap.

/** @typedef {ArrayLike<number | string | bigint> & {constructor: Function}} Values */

/**
 * Where two arrays (typed or plain) first differ, as a sentence; '' when they are of one kind and
 * hold the same values in the same order.
 * @param {Values} actual
 * @param {Values} expected
 * @returns {string}
 */
export function arrayDifference (actual, expected) {
  if (actual.constructor !== expected.constructor) return `a ${actual.constructor.name} instead of a ${expected.constructor.name}`
  if (actual.length !== expected.length) return `${actual.length} entries instead of ${expected.length}`
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] !== expected[i]) return `at ${i}: ${actual[i]} instead of ${expected[i]}`
  }
  return ''
}
