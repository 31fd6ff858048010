// "Allocated at" behind a framework's router: an Express app whose route handlers call the helpers
// that leak, reached through router layers, next() and anonymous handlers that differ from one
// step of the series to the next (fixtures/programs/alloc/router-leaks.js). V8 keys its profile by
// the whole stack, so no one stack grows in every step; the site (the helper, and what it calls)
// does, and every finding must be tied to it.
import test from 'ava'
import { readFileSync } from 'node:fs'
import { reportOf } from '../helpers/fixture-reports.js'

const PROGRAM = 'fixtures/programs/alloc/router-leaks.js'
const report = reportOf('alloc/router-leaks')

/** The 1-based lines of each helper of the program: from its `function` line to the next blank one. */
function helperLines () {
  const lines = readFileSync(new URL(`../../${PROGRAM}`, import.meta.url), 'utf8').split('\n')
  /** @type {Record<string, {from: number, to: number}>} */
  const spans = {}
  lines.forEach((line, i) => {
    const start = /^function (\w+) /.exec(line)
    if (start === null) return
    const end = lines.findIndex((text, k) => k > i && text === '}')
    spans[start[1]] = { from: i + 1, to: end + 1 }
  })
  return spans
}

for (const [signature, helper] of [
  ['forgotten-timer', 'startReservationHeartbeat'],
  ['unbounded-collection', 'rememberQuote'],
  ['listener-accumulation', 'watchPrices'],
  ['growing-array', 'recordAudit']
]) {
  test(`${signature} behind the router: allocatedAt names ${helper}, the samples of every route summed`, async (t) => {
    const { findings } = await report
    const finding = findings.find((f) => f.signature === signature && f.location?.file === PROGRAM)
    if (finding === undefined) return t.fail(`no ${signature} finding: ${findings.map((f) => f.signature).join(', ')}`)
    const { allocatedAt } = finding
    if (!allocatedAt) return t.fail('no allocatedAt')
    const span = helperLines()[/** @type {string} */ (helper)]
    t.like(allocatedAt.site, { file: PROGRAM, function: helper, kind: 'user' })
    const line = allocatedAt.site?.line ?? 0
    t.true(line >= span.from && line <= span.to, `line ${line} is in ${helper} (${span.from}-${span.to})`)
    const [stack] = allocatedAt.stacks
    // The v1 round and the v2 round reach the helper through different stacks: both are in it.
    t.true(stack.callers >= 2, `${stack.callers} callers`)
    t.true(stack.steps.every((bytes) => bytes > 0), JSON.stringify(stack.steps))
    // The frames above the helper are the router's (a library) and the program's handlers.
    const at = stack.frames.findIndex((frame) => frame.function === helper)
    t.true(stack.frames.slice(at + 1).some((frame) => frame.kind === 'library' && /node_modules[\\/](?:router|express)[\\/]/.test(frame.file)), JSON.stringify(stack.frames.map((f) => f.file)))
  })
}

test('the growing stacks hold the four helpers, and each finding has a site of its own', async (t) => {
  const { findings, allocations } = await report
  if (!allocations) return t.fail('no allocations')
  const helpers = ['startReservationHeartbeat', 'rememberQuote', 'watchPrices', 'recordAudit']
  const growing = allocations.growing.map((stack) => stack.frames.find((frame) => frame.kind === 'user')?.function)
  for (const helper of helpers) t.true(growing.includes(helper), `${helper} in ${growing.join(', ')}`)
  const sites = findings.filter((f) => f.location?.file === PROGRAM).map((f) => f.allocatedAt?.site?.function)
  t.deepEqual([...sites].sort(), [...helpers].sort())
})
