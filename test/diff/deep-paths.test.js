// Owners at the end of long linked lists (diff/deep-chain: two chains of 200 links built at
// start-up, the last link of each keeping every request's record). The JSON keeps the path whole;
// the text folds a list of one class into one hop with ×N, and a list that does not fold loses its
// middle but never the names nearest the owner, nor the program's variable the path starts from.
import test from 'ava'
import { renderDiffReport, renderHtmlReport } from 'leakdiff'
import { foldPath, renderFoldedPath } from '../../src/report/render-path.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { reportOf } from '../helpers/fixture-reports.js'
import { isChain } from '../helpers/path-chain.js'
import { ROOT } from '../helpers/fixture-source.js'
import { analysedSnapshot } from '../helpers/parsed-snapshots.js'

const MODULE = 'module fixtures/programs/diff/deep-chain.js'
/** Links in each chain (the program's LINKS). */
const LINKS = 200

test('a Map at the end of a chain of 200 plugins: the JSON path is whole, and the text keeps the module, its variable and the list as one hop', async (t) => {
  const report = await reportOf('diff/deep-chain')
  const finding = report.findings.find((f) => f.signature === 'unbounded-collection')
  if (!finding) return t.fail(report.findings.map((f) => f.title).join('\n'))
  const { path } = finding
  t.is(path.at(-1)?.edge, 'seenByUser')
  t.false(path.some((step) => step.edgeType === 'elided'))
  t.is(path.filter((step) => step.edge === 'next').length, LINKS - 1)
  t.true(path.some((step) => step.module !== undefined))
  t.true(path.length > LINKS, String(path.length))
  const { files } = await captureFixture('diff/deep-chain')
  const last = await analysedSnapshot(files[2])
  t.true(isChain(last, path, last.graph.findOrdinalById(finding.owner.id)), 'every step is an edge of the last snapshot')
  // The growth row is the same owner, with the same whole path.
  const row = report.growth.find((g) => g.owner.id === finding.owner.id)
  t.deepEqual(row?.path, path)

  const text = `(GC roots) → ${MODULE} → plugins (Plugin) → next (Plugin) ×${LINKS - 2} → next (AuditPlugin) → seenByUser (Map)`
  t.is(renderFoldedPath(path, { cwd: ROOT }), text)
  t.is(row?.pathText, text)
  t.true(renderDiffReport(report, { format: 'text', color: false, width: 400 }).includes(`\n   ${text}\n`))
  t.true(renderDiffReport(report, { format: 'markdown' }).includes(`- path: \`${text}\``))
})

test('an array at the end of a chain of two classes taking turns: the text loses the middle, not the names nearest the owner nor where it starts', async (t) => {
  const report = await reportOf('diff/deep-chain')
  const finding = report.findings.find((f) => f.signature === 'growing-array')
  if (!finding) return t.fail(report.findings.map((f) => f.title).join('\n'))
  const { path } = finding
  t.false(path.some((step) => step.edgeType === 'elided'))
  t.is(path.filter((step) => step.edge === 'next').length, LINKS - 1)
  t.is(path.at(-1)?.edge, 'history')

  const hops = foldPath(path, { cwd: ROOT })
  const shown = hops.filter((hop) => hop.text !== '').map((hop) => hop.text)
  t.deepEqual(shown.slice(0, 2), [MODULE, 'pipeline (Check)'])
  const middle = hops.find((hop) => /^… \d+ hops$/.test(hop.text))
  if (!middle) return t.fail(shown.join(' → '))
  // The fold stands for every step it leaves out, for a reader that opens it (the HTML report).
  t.true(middle.folded)
  t.is(middle.text, `… ${middle.steps.length} hops`)
  t.is(hops.reduce((sum, hop) => sum + hop.steps.length, 0), path.length)
  // The hops nearest the owner, each with the name that leads to it, as the path has them.
  t.deepEqual(shown.slice(-3), ['next (Check)', 'next (Transform)', 'history (Array)'])
  const after = shown.slice(shown.indexOf(middle.text) + 1)
  t.deepEqual(after, path.slice(-after.length).map((step) => `${step.edge} (${step.node})`))
  t.true(after.length >= 4, after.join(' → '))
  t.true(shown.length <= 16, String(shown.length))
  t.is(renderFoldedPath(path, { cwd: ROOT }), `(GC roots) → ${shown.join(' → ')}`)
  const html = renderHtmlReport(report, { cwd: ROOT })
  t.true(html.includes(`"text":"… ${middle.steps.length} hops","folded":true`))
})

test('the deep chains\' fixed twin keeps the last 100 records: no finding', async (t) => {
  const report = await reportOf('diff/deep-chain', { args: ['fixed'] })
  t.deepEqual(report.findings, [])
  t.is(report.verdict, 'clean', report.reason)
})
