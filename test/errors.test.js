import test from 'ava'
import { describeValue } from '../src/errors.js'

test('a long value in a message keeps its end: two long paths that differ in their file name stay apart', (t) => {
  const dir = `/tmp/${'p'.repeat(150)}`
  const [a, b] = [`${dir}/snapshots-a`, `${dir}/snapshots-b`].map(describeValue)
  t.not(a, b)
  t.regex(a, /^`"\/tmp\/p+…p+\/snapshots-a"` \(string\)$/)
  t.is(describeValue(-1), '`-1` (number)')
})
