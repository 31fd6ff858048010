import test from 'ava'
import { bytesText, countText, durationText, namedBytes, namedCounts, notesOf } from '../../src/signatures/evidence-notes.js'

test('bytes in SI units, rounded for a phrase', (t) => {
  t.is(bytesText(0), '0 B')
  t.is(bytesText(999.6), '1000 B')
  t.is(bytesText(1_234), '1.2 kB')
  t.is(bytesText(56_789), '57 kB')
  t.is(bytesText(2_400_000), '2.4 MB')
})

test('delays read as people say them', (t) => {
  t.is(durationText(500), '500 ms')
  t.is(durationText(1_500), '1,500 ms')
  t.is(durationText(30_000), '30 s')
  t.is(durationText(90_000), '90 s')
  t.is(durationText(600_000), '10 min')
  t.is(durationText(7_200_000), '2 h')
})

test('named lists and the notes that apply', (t) => {
  t.is(namedBytes([{ name: 'res', bytes: 1_200_000 }, { name: 'req', bytes: 812_000 }]), 'res (1.2 MB), req (812 kB)')
  t.is(namedCounts([{ name: 'Promise', count: 1_200 }, { name: 'Timeout', count: 3 }]), 'Promise ×1,200, Timeout ×3')
  t.is(countText(12_345), '12,345')
  t.deepEqual(notesOf(['a', false, '', null, undefined, 0, 'b']), ['a', 'b'])
})
