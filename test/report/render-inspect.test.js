import test from 'ava'
import { wrapPath } from '../../src/report/render-inspect.js'

// A path from a real run that once came out at 82 columns: the arrow that ends a wrapped line
// did not count against the width.
const path = '(GC roots) → (Handle scope) → system / Context → system / Context → system / Context ->_process → process ["get report"] → Function {context} → system / Context → (closure) → a hop with a name far longer than any terminal line is wide, so it has to break at its spaces'

test('a wrapped retainer path fits the width with its arrows and keeps every hop in order', (t) => {
  for (const width of [80, 60, 40]) {
    const lines = wrapPath(path, width)
    t.true(lines.length > 1)
    for (const line of lines) t.true(line.length <= width, `${width}: ${line}`)
    t.true(lines.slice(0, -1).some((line) => line.endsWith(' →')))
    t.is(lines.map((line) => line.trim()).join(' '), path)
  }
})
