// Sizes of 4 GiB and more: the column holds LARGE_SIZE and the side map the exact bytes, through
// the retained-size sums and a structured clone (an analysis sent between threads).
import test from 'ava'
import { SizeColumn } from '../../src/analysis/size-column.js'
import { computeRetainedSizes } from '../../src/analysis/retained-sizes.js'
import { LARGE_SIZE } from '../../src/parse/large-sizes.js'

const GiB = 2 ** 30

test('values from LARGE_SIZE up are kept exact beside the column', (t) => {
  const sizes = new SizeColumn(new Uint32Array(3))
  sizes.set(0, LARGE_SIZE - 1)
  sizes.set(1, LARGE_SIZE)
  sizes.set(2, 6 * GiB + 3)
  t.deepEqual([sizes.at(0), sizes.at(1), sizes.at(2)], [LARGE_SIZE - 1, LARGE_SIZE, 6 * GiB + 3])
  t.deepEqual([...sizes.column], [LARGE_SIZE - 1, LARGE_SIZE, LARGE_SIZE])
  const copy = SizeColumn.fromData(structuredClone({ column: sizes.column, large: sizes.large }))
  t.is(copy.at(2), 6 * GiB + 3)
  // Back under the limit: the column is read again.
  sizes.set(2, 12)
  t.is(sizes.at(2), 12)
})

test('retained sizes past 4 GiB sum exactly, per node and per class', (t) => {
  // root(0) -> a(1) -> b(2), and root -> c(3); b is one 3 GiB store, a holds 2 GiB more.
  const dominators = new Uint32Array([0, 0, 1, 0])
  const sizes = new SizeColumn(new Uint32Array(4))
  sizes.set(0, 0)
  sizes.set(1, 2 * GiB + 8)
  sizes.set(2, 3 * GiB)
  sizes.set(3, 16)
  const classOf = new Uint16Array([0, 1, 1, 2])
  const classRetained = computeRetainedSizes(dominators, 0, sizes, classOf, 3)
  t.is(sizes.at(2), 3 * GiB)
  t.is(sizes.at(1), 5 * GiB + 8)
  t.is(sizes.at(0), 5 * GiB + 24)
  // b is inside a, of the same class: counted once.
  t.is(classRetained[1], 5 * GiB + 8)
  t.is(classRetained[2], 16)
  t.deepEqual([...dominators], [0, 0, 1, 0])
})
