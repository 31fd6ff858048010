// `leakdiff inspect` names the way to a large object as the diff does: from the module (or the
// global) that holds it, folded as a person reads it, not DevTools' shortest route through Node's
// internals. diff/http-seen keeps every request in a module-level array that Node's timer list
// reaches in fewer hops than the module does.
import test from 'ava'
import { renderInspectReport } from 'leakdiff'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { retainerPath } from '../../src/analysis/retainer-paths.js'
import { largestDominators } from '../../src/analysis/largest-dominators.js'
import { sharedDiff, sharedInspect } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { ROOT } from '../helpers/fixture-source.js'
import { parsedSnapshot } from '../helpers/parsed-snapshots.js'

const seen = captureFixture('diff/http-seen')

test('a module that holds the growth: inspect shows the module, as the diff\'s row through it does', async (t) => {
  const { files } = await seen
  const [inspect, diff] = await Promise.all([sharedInspect(files[2], { cwd: ROOT }), sharedDiff(files, { top: 0, cwd: ROOT })])
  const module = inspect.dominators.find((d) => d.path.at(-1)?.module?.endsWith('/diff/http-seen.js'))
  if (module === undefined) return t.fail(inspect.dominators.map((d) => d.pathText).join('\n'))
  t.is(module.pathText, '(GC roots) → module fixtures/programs/diff/http-seen.js')
  // One style for both: the diff's row for the array reaches it through the same steps.
  const row = diff.growth.find((g) => g.path.at(-1)?.edge === 'seen')
  if (row === undefined) return t.fail('no growth row for the array')
  t.is(row.pathText, `${module.pathText} → seen (Array)`)
  t.deepEqual(row.path.slice(0, module.path.length), module.path)
  // No dominator is named by DevTools' notation any more.
  const text = renderInspectReport(inspect, { format: 'text', color: false, width: 100 })
  const dominators = text.slice(text.indexOf('Largest dominators'))
  t.true(dominators.includes('    (GC roots) → module fixtures/programs/diff/http-seen.js\n'), dominators)
  t.false(/->|\{context\}|\(root\)/.test(dominators), dominators)
})

test('readable paths without the retainer index (inspect builds none) are the ones the index gives', async (t) => {
  const { files } = await seen
  const analysis = analyzeHeap(await parsedSnapshot(files[2]), { rootSteps: true })
  const ordinals = largestDominators(analysis, 40)
  t.false(analysis.graph.hasRetainers)
  const without = ordinals.map((o) => retainerPath(analysis, o, { readable: true }))
  t.false(analysis.graph.hasRetainers)
  analysis.graph.buildRetainerIndex()
  const withIndex = ordinals.map((o) => retainerPath(analysis, o, { readable: true }))
  t.deepEqual(without, withIndex)
  t.true(without.filter((path) => path.some((step) => step.module !== undefined)).length >= 3)
})
