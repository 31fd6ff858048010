// Caches held by `const`s of block scopes (diff/block-scopes): V8 writes a block scope's variables
// as numbered hidden slots of its context, and its ScopeInfo lists their names. A slot is named by
// its place when the names and the slots pair up one to one; in a block where a small integer takes
// a slot but no edge, by the script: the one candidate whose declaration starts it as the value's
// class, never after the wrong variable.
import test from 'ava'
import { renderDiffReport } from 'leakdiff'
import { blockSlotCandidates, blockVariableName } from '../../src/analysis/block-scope-names.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { reportOf } from '../helpers/fixture-reports.js'
import { markedPosition } from '../helpers/fixture-source.js'
import { analysedSnapshot } from '../helpers/parsed-snapshots.js'

test('a Map in a block scope is named by its variable, in the finding, its path and the text', async (t) => {
  const report = await reportOf('diff/block-scopes')
  const finding = report.findings.find((f) => f.signature === 'unbounded-collection')
  if (!finding) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.regex(finding.title, /^sessions \(Map\) gains entries/)
  t.deepEqual(finding.path.slice(-2).map((step) => [step.edgeType, step.edge, step.node]), [['internal', 'context', 'system / Context'], ['context', 'sessions', 'Map']])
  const row = report.growth.find((g) => g.owner.id === finding.owner.id)
  t.is(row?.path.at(-1)?.edge, 'sessions')
  t.true(renderDiffReport(report, { color: false }).includes('→ sessions (Map)'))
})

test('an array in a block whose counter holds a small integer is named from the script: the one candidate declared as an array', async (t) => {
  const report = await reportOf('diff/block-scopes')
  const finding = report.findings.find((f) => f.signature === 'growing-array')
  if (!finding) return t.fail(report.findings.map((f) => f.title).join('\n'))
  t.regex(finding.title, /^history \(Array\) only grows/)
  t.deepEqual(finding.path.at(-1) && [finding.path.at(-1)?.edgeType, finding.path.at(-1)?.edge], ['context', 'history'])
  // Named, the array's writes are found: the finding is at the push, not at the function around it.
  const push = markedPosition('diff/block-scopes', 'history.push(', 'history')
  t.deepEqual(finding.location && [finding.location.file, finding.location.line, finding.location.column], [push.file, push.line, push.column])
  t.false(report.findings.some((f) => /\bserved\b/.test(f.title)))
})

test('the slots of a block context are named from its ScopeInfo only when they pair up', async (t) => {
  const { files } = await captureFixture('diff/block-scopes')
  const { graph, classes, classOf } = await analysedSnapshot(files[2])
  /** @type {Map<string, Array<string | null>>} class of the slot's value -> names given to such slots */
  const named = new Map()
  /** @type {Map<string, Array<string[] | null>>} and the names each may be, when they do not pair up */
  const candidates = new Map()
  const [sessions, history] = ['sessions', 'history'].map((name) => graph.strings.indexOf(name))
  for (let e = 0; e < graph.edgeCount; e++) {
    if (graph.edgeTypes[e] !== graph.edgeType.hidden) continue
    const context = graph.edgeSource(e)
    // The program's two block contexts: their ScopeInfo names `sessions` or `history`.
    const infoEdge = graph.findEdge(context, graph.edgeType.internal, graph.strings.indexOf('scope_info'))
    if (infoEdge < 0) continue
    const info = graph.edgeTargets[infoEdge]
    let mentions = false
    for (let f = graph.firstEdge[info]; f < graph.firstEdge[info + 1]; f++) {
      const name = graph.nodeNames[graph.edgeTargets[f]]
      if (name === sessions || name === history) mentions = true
    }
    if (!mentions) continue
    const key = classes.names[classOf[graph.edgeTargets[e]]]
    named.set(key, [...(named.get(key) ?? []), blockVariableName(graph, e)])
    candidates.set(key, [...(candidates.get(key) ?? []), blockSlotCandidates(graph, e)])
  }
  // { const sessions = new Map(); const prefix = `...` }: each slot its name.
  t.deepEqual(named.get('Map'), ['sessions'])
  t.deepEqual(named.get('(concatenated string)') ?? named.get('(string)'), ['prefix'])
  // { let served = 0; const history = [] }: two names for one slot (the counter's has no edge):
  // the slot is either, and only the script tells which.
  t.deepEqual(named.get('Array'), [null])
  t.deepEqual(candidates.get('Array'), [['served', 'history']])
  t.deepEqual(candidates.get('Map'), [null])
})
