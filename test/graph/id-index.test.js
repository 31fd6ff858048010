// V8 id -> ordinal: odd ids in a table, even ones in a hash table of their own; ids too sparse for
// the table all sorted, matched by a bit per slot unless sparser still. Every way answers as a scan
// of the ids would: the last ordinal with the id, -1 for an id no node has.
import test from 'ava'
import fc from 'fast-check'
import { IdIndex } from '../../src/graph/id-index.js'

/**
 * @param {Uint32Array} ids
 * @param {number} id
 */
function lastOrdinalOf (ids, id) {
  return ids.lastIndexOf(id)
}

/** @param {Uint32Array} ids */
function newestObjectId (ids) {
  let newest = 0
  for (const id of ids) if ((id & 1) === 1 && id > newest) newest = id
  return newest
}

const key = fc.integer({ min: 0, max: 0xffffffff })
// Dense unique odd ids (a table) and even ones, some twice, in an order drawn apart from them.
const odd = fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { maxLength: 300 }).map((values) => values.map((v) => 2 * v + 1))
const even = fc.array(fc.oneof(fc.integer({ min: 0, max: 900 }), key).map((v) => v - (v % 2)), { maxLength: 20 })
const dense = fc.tuple(odd, even, fc.array(fc.integer(), { minLength: 320, maxLength: 320 }))
  .map(([o, e, order]) => [...o, ...e].map((id, i) => [order[i], id]).sort((a, b) => a[0] - b[0]).map(([, id]) => id))
// Odd ids too sparse for a table and matched by a bit per slot (up to 20,000 slots for at most 300
// nodes), sparser still (sorted alone), and few distinct ids (odd ones twice).
const spread = fc.array(fc.oneof(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 0, max: 40_000 }).map((v) => v - (v % 2))), { maxLength: 300 })
const ids = fc.oneof(dense, spread, fc.array(key, { maxLength: 300 }), fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 300 }))

test('every id finds the last node that has it, an id no node has finds -1, and the newest object id is the largest odd one', (t) => {
  fc.assert(fc.property(ids, fc.array(key, { maxLength: 20 }), (values, probes) => {
    const nodeIds = Uint32Array.from(values)
    const index = new IdIndex(nodeIds)
    const asked = Uint32Array.from([...new Set(values), ...probes, 0, 1, 2, 0xffffffff])
    for (const id of asked) t.is(index.ordinalOf(id), lastOrdinalOf(nodeIds, id), `id ${id}`)
    t.is(index.newestObjectId(), newestObjectId(nodeIds))
    // Another snapshot's nodes, marked where their id is in this one.
    const marks = new Uint8Array(asked.length)
    index.markPresent(asked, marks, 3)
    t.deepEqual([...marks], [...asked].map((id) => (nodeIds.includes(id) ? 3 : 0)))
  }), { numRuns: 300 })
})

test('ids as V8 writes them, a few written out of turn, with embedder ids far above: each found at its node', (t) => {
  const nodeIds = Uint32Array.from({ length: 20_000 }, (_, i) => (i % 97 === 0 ? 3_000_000_000 + 2 * i : 2 * ((i * 7919) % 20_000) + 1))
  const index = new IdIndex(nodeIds)
  let wrong = 0
  for (let o = 0; o < nodeIds.length; o++) if (index.ordinalOf(nodeIds[o]) !== o) wrong++
  t.is(wrong, 0)
  t.is(index.ordinalOf(2 * 20_000 + 1), -1)
  t.is(index.newestObjectId(), newestObjectId(nodeIds))
  t.is(new IdIndex(new Uint32Array(0)).ordinalOf(1), -1)
  t.is(new IdIndex(new Uint32Array(0)).newestObjectId(), 0)
})
