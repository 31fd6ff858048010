// Scratch arrays lent and taken back: zeros each time, in the memory given back when it fits.
import test from 'ava'
import { NodeScratch } from '../../src/analysis/node-scratch.js'

test('an array given back is lent again, zeroed, to the next request it fits; a larger one gets new memory', (t) => {
  const scratch = new NodeScratch(100)
  const first = scratch.uint32(60)
  t.is(first.buffer.byteLength, 400, 'made for the largest node count')
  first.fill(7)
  scratch.give(first)
  const second = scratch.uint32(80)
  t.is(second.buffer, first.buffer)
  t.is(second.length, 80)
  t.true(second.every((value) => value === 0))
  second.fill(9)
  scratch.give(second)
  const third = scratch.uint32(30)
  t.is(third.buffer, first.buffer)
  t.true(new Uint32Array(third.buffer).every((value, i) => value === (i >= 30 && i < 80 ? 9 : 0)), 'only what is lent is cleared')
  const larger = scratch.uint32(200)
  t.not(larger.buffer, first.buffer)
  t.is(larger.length, 200)
})

test('the smallest free array that fits is lent; one given back twice, or lent elsewhere, is not lent again', (t) => {
  const scratch = new NodeScratch(10)
  const big = scratch.uint32(50)
  const small = scratch.uint32(10)
  scratch.give(big)
  scratch.give(small)
  scratch.give(small)
  scratch.give(new Uint32Array(10))
  t.is(scratch.uint32(8).buffer, small.buffer)
  t.is(scratch.uint32(8).buffer, big.buffer)
  const fresh = scratch.uint32(8)
  t.not(fresh.buffer, small.buffer)
  t.not(fresh.buffer, big.buffer)
})
