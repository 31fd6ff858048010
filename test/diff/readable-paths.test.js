// Readable retainer paths: a module-level variable reads as `module <file> → <name>`, even where
// Node's internals reach it in fewer hops, and the full path stays a chain of real edges.
import test from 'ava'
import { NO_DISTANCE } from '../../src/analysis/distances.js'
import { retainerPath } from '../../src/analysis/retainer-paths.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { isChain } from '../helpers/path-chain.js'
import { analysedSnapshot } from '../helpers/parsed-snapshots.js'

// The leaky diff/ programs' paths are checked with their reports, in leaky-programs.test.js.
const httpSeen = captureFixture('diff/http-seen')
const httpSeenReport = httpSeen.then(({ files }) => sharedDiff(files))
const lastAnalysis = httpSeen.then(({ files }) => analysedSnapshot(files[2]))

test('diff/http-seen (ESM): the array reads as the module\'s variable, not as a timer list', async (t) => {
  const report = await httpSeenReport
  t.is(report.verdict, 'leak', report.reason)
  const [top] = report.growth
  t.is(top.pathText, '(GC roots) → module fixtures/programs/diff/http-seen.js → seen (Array)')
  const anchor = top.path.findLast((step) => step.module !== undefined)
  t.true(anchor?.module?.endsWith('/fixtures/programs/diff/http-seen.js'))
  t.is(anchor?.node, 'system / Context')
  t.is(top.path.at(-1)?.edge, 'seen')

  // The case is real: the shortest path runs through Node's internals, the timers and the server
  // (Node 20) or the module loader's ModuleWrap and the module body's Generator (Node 22, 24).
  const analysis = await lastAnalysis
  const shortest = retainerPath(analysis, analysis.graph.findOrdinalById(top.owner.id), { maxLength: Infinity })
  t.true(shortest.some((step) => ['Timeout', 'TimersList', 'Server', 'Immediate', 'ModuleWrap'].includes(step.node)), JSON.stringify(shortest.map((s) => s.node)))
})

test('diff/cjs/flag-store (CommonJS): module scope of the wrapper function, then the listener list', async (t) => {
  const { files } = await captureFixture('diff/cjs/flag-store')
  const report = await sharedDiff(files)
  t.is(report.verdict, 'leak', report.reason)
  t.is(report.growth[0].pathText, '(GC roots) → module fixtures/programs/diff/cjs/flag-store.js → flagStore (FlagStore) → _events → change (Array)')
})

test('every readable path is a chain of real non-weak edges from the root to its node', async (t) => {
  const analysis = await lastAnalysis
  const { graph, distances } = analysis
  let checked = 0
  let viaModule = 0
  /** @type {string[]} */
  const bad = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (o === graph.rootOrdinal || distances[o] === NO_DISTANCE) continue
    const path = retainerPath(analysis, o, { maxLength: Infinity, readable: true })
    if (!isChain(analysis, path, o) && bad.length < 3) bad.push(`@${graph.nodeIds[o]}: ${JSON.stringify(path)}`)
    if (path.some((step) => step.module !== undefined)) viaModule++
    checked++
  }
  t.true(checked > 10_000)
  t.deepEqual(bad, [])
  t.true(viaModule > 0)
})

test('a long readable path keeps its module scope and what follows it', async (t) => {
  const analysis = await lastAnalysis
  const report = await httpSeenReport
  const owner = analysis.graph.findOrdinalById(report.growth[0].owner.id)
  const full = retainerPath(analysis, owner, { maxLength: Infinity, readable: true })
  const anchor = full.findLastIndex((step) => step.module !== undefined)
  t.true(anchor > 3, `the module scope is ${anchor} steps deep`)
  const short = retainerPath(analysis, owner, { maxLength: 4, readable: true })
  t.is(short.length, 4)
  t.deepEqual(short.slice(-2), full.slice(anchor))
  t.is(short[1].edgeType, 'elided')
  t.deepEqual(short[0], full[0])
})
