import test from 'ava'
import { CUT_MARK, cutMiddle, mayBeCutBySnapshot, SNAPSHOT_STRING_LIMIT } from '../src/cut-text.js'

test('a text that fits is left whole', (t) => {
  t.is(cutMiddle('file:///srv/app/page.js?v=1', 80), 'file:///srv/app/page.js?v=1')
  t.is(cutMiddle('', 1), '')
})

test('a long text keeps its start and, with twice the room, its end: two keys that differ at their end stay apart', (t) => {
  const dir = `/tmp/${'p'.repeat(150)}`
  const [a, b] = [1, 2].map((v) => cutMiddle(`file://${dir}/fixtures/page.js?v=${v}`, 60))
  t.is(a.length, 60)
  t.not(a, b)
  t.true(a.startsWith('file:///tmp/ppp'), a)
  t.true(a.endsWith('/fixtures/page.js?v=1'), a)
  t.is(a.indexOf(CUT_MARK), 19)
})

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

test('a surrogate pair is never split, and the smallest widths still give a mark', (t) => {
  const text = '😀'.repeat(40)
  for (let max = 1; max < 20; max++) {
    const cut = cutMiddle(text, max)
    t.true(cut.length <= max, `${max}: ${cut}`)
    t.true(cut.includes(CUT_MARK), `${max}: ${cut}`)
    t.false(LONE_SURROGATE.test(cut), `${max}: ${cut}`)
  }
})

test('a string as long as the snapshot\'s string limit may have lost its end', (t) => {
  t.false(mayBeCutBySnapshot('x'.repeat(SNAPSHOT_STRING_LIMIT - 1)))
  t.true(mayBeCutBySnapshot('x'.repeat(SNAPSHOT_STRING_LIMIT)))
})
