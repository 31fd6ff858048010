// Two dominator algorithms, one answer. The iterative passes (dominators.js) find dominators on
// real heaps in little memory; on shapes where their climbing would take the square of a chain's
// length, Lengauer–Tarjan (lengauer-tarjan.js) takes over. Both must give every node DevTools'
// immediate dominator.
import test from 'ava'
import { Readable } from 'node:stream'
import { buildDominators } from '../../src/analysis/dominators.js'
import { HeapGraph } from '../../src/graph/heap-graph.js'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
import { buildEssentialEdges } from '../../src/analysis/essential-edges.js'
import { markPageOwnedNodes } from '../../src/analysis/page-owned.js'
import { dominatedNodes, dominatedTest, markDominatedBy } from '../../src/query/dominator-subtree.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { compareDominators } from '../helpers/dominator-check.js'
import { META } from '../helpers/snapshot-meta.js'
import { compareWithDevtools, describeComparison, totalNodeMismatches } from './devtools-comparison.js'
import { analysedSnapshot, snapshotGraph } from '../helpers/parsed-snapshots.js'

for (const program of ['engine/mixed-heap', 'engine/bare']) {
  test(`${program}: Lengauer–Tarjan gives every node the dominator the iterative passes give it`, async (t) => {
    const { files } = await captureFixture(program)
    const analysis = await analysedSnapshot(files[0])
    const { mismatches, examples } = compareDominators(analysis.graph, analysis.dominators, 'lengauer-tarjan')
    t.is(mismatches, 0, examples)
  })
}

test('a long chain whose every link holds one shared object and a payload an array holds too: Lengauer–Tarjan takes over, and every node and class is as in DevTools', async (t) => {
  const { files, report } = await captureFixture('engine/long-chain')
  const comparison = await compareWithDevtools(files[0])
  t.is(totalNodeMismatches(comparison) + comparison.classMismatches, 0, describeComparison(comparison))

  const { graph, dominators } = comparison.analysis
  t.is(buildDominators(graph, buildEssentialEdges(graph, markPageOwnedNodes(graph))).algorithm, 'lengauer-tarjan')
  // The links: objects with `next`, `shared` and `payload`; each but the last is held by the next
  // one alone, so it is dominated by it, and the chain is as long as the program made it.
  const [next, shared, payload] = ['next', 'shared', 'payload'].map((name) => graph.strings.indexOf(name))
  const property = graph.edgeType.property
  const links = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (graph.findEdge(o, property, payload) >= 0 && graph.findEdge(o, property, shared) >= 0) links.push(o)
  }
  // Plus, at most, the object literal's boilerplate, which V8 keeps with the same properties.
  t.true(links.length === report.links || links.length === report.links + 1, `${links.length} links`)
  const isLink = new Set(links)
  const dominatedByHolder = links.filter((o) => {
    const edge = graph.findEdge(o, property, next)
    return edge >= 0 && isLink.has(graph.edgeTargets[edge]) && dominators[graph.edgeTargets[edge]] === o
  })
  t.is(dominatedByHolder.length, report.links - 1)
  // The iterative passes, let run to the end however long they climb, agree.
  const { mismatches, examples } = compareDominators(graph, dominators, 'iterative')
  t.is(mismatches, 0, examples)
})

test('a heap whose dominators keep moving pass after pass is given to Lengauer–Tarjan, with the dominators the passes would find', async (t) => {
  // The router's last snapshot: run to the end, the passes take hundreds of walks over every node.
  const { files } = await captureFixture('alloc/router-leaks')
  const graph = await snapshotGraph(files[2])
  const essential = buildEssentialEdges(graph, markPageOwnedNodes(graph))
  const found = buildDominators(graph, essential)
  t.is(found.algorithm, 'lengauer-tarjan')
  t.is(buildDominators(graph, essential, { passLimit: 400 }).algorithm, 'lengauer-tarjan', 'more than 400 passes')
  const { mismatches, examples } = compareDominators(graph, found.dominators, 'iterative')
  t.is(mismatches, 0, examples)
  // A heap that settles in a few passes keeps them, unless they are bounded below that.
  const mixed = await captureFixture('engine/mixed-heap').then(({ files }) => snapshotGraph(files[0]))
  const mixedEssential = buildEssentialEdges(mixed, markPageOwnedNodes(mixed))
  t.is(buildDominators(mixed, mixedEssential).algorithm, 'iterative')
  const bounded = buildDominators(mixed, mixedEssential, { passLimit: 1 })
  t.is(bounded.algorithm, 'lengauer-tarjan')
  const iterative = buildDominators(mixed, mixedEssential).dominators
  t.is(bounded.dominators.findIndex((dominator, o) => dominator !== iterative[o]), -1)
})

for (const program of ['engine/mixed-heap', 'engine/long-chain']) {
  test(`${program}: markDominatedBy, dominatedNodes and dominatedTest mark, list and answer a node exactly when one of the given nodes is on its dominator chain`, async (t) => {
    const { files } = await captureFixture(program)
    const analysis = await analysedSnapshot(files[0])
    const { dominators, graph } = analysis
    // By definition: climb from each node to the root, remembering the answers on the way.
    const reference = (/** @type {number[]} */ roots) => {
      const answer = new Int8Array(graph.nodeCount).fill(-1)
      for (const o of roots) answer[o] = 1
      if (answer[graph.rootOrdinal] < 0) answer[graph.rootOrdinal] = 0
      for (let o = 0; o < graph.nodeCount; o++) {
        const chain = []
        let up = o
        while (answer[up] < 0) {
          chain.push(up)
          up = dominators[up]
        }
        for (const c of chain) answer[c] = answer[up]
      }
      return answer
    }
    let seed = 7
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    // Random nodes (most hold little), and the nodes that hold the most, alone and together.
    const largest = [...Array(graph.nodeCount).keys()].filter((o) => o !== graph.rootOrdinal)
      .sort((a, b) => analysis.retainedSizes.at(b) - analysis.retainedSizes.at(a)).slice(0, 12)
    const sets = [[graph.rootOrdinal], [1], [], ...[1, 3, 40, 2000].map((k) => Array.from({ length: k }, () => Math.floor(random() * graph.nodeCount))),
      ...largest.map((o) => [o]), largest]
    for (const roots of sets) {
      const expected = reference(roots)
      const marks = markDominatedBy(analysis, roots)
      const listed = dominatedNodes(analysis, roots)
      let wrong = 0
      /** @type {number[]} */
      const inside = []
      for (let o = 0; o < graph.nodeCount; o++) {
        if ((marks[o] === 1) !== (expected[o] === 1) || listed.inside[o] !== marks[o]) wrong++
        if (marks[o] === 1) inside.push(o)
      }
      t.is(wrong, 0, `${roots.length} roots`)
      // Asked one node at a time, from the end of the heap back, then every node again: an
      // answer remembered on the way up is the one a node gets when asked itself.
      const isDominated = dominatedTest(analysis, roots)
      let wrongAnswers = 0
      for (let o = graph.nodeCount - 1; o >= 0; o -= 3) if (isDominated(o) !== (expected[o] === 1)) wrongAnswers++
      for (let o = 0; o < graph.nodeCount; o++) if (isDominated(o) !== (expected[o] === 1)) wrongAnswers++
      t.is(wrongAnswers, 0, `${roots.length} roots: dominatedTest`)
      // Compared by hand: t.deepEqual of a list as long as the heap costs seconds.
      t.is(listed.nodes.length, inside.length, `${roots.length} roots: the list`)
      t.is(inside.findIndex((o, k) => listed.nodes[k] !== o), -1, `${roots.length} roots: the list's order`)
      if (roots.length === 1 && roots[0] === graph.rootOrdinal) t.is(inside.length, graph.nodeCount)
    }
  })
}

test('a chain whose links all hold one object, at the start of a large heap: the first pass gives Lengauer–Tarjan the heap once it has climbed past the bound for what it has offered, where the bound for the whole heap would let it finish', async (t) => {
  // root -> hub -> 61,388 leaves; root -> a chain of 1,000 links, each holding the next and one
  // shared object. The pass takes the chain first and climbs it once per link, 500,000 steps in
  // all: under the whole heap's bound (8 per node and edge, about a million), and at the check 50
  // links before the chain's end (every 4,096 nodes of the pass: the leaves' count puts one there)
  // about 450,000 against the bound for what it has offered, about 285,000.
  const leaves = 61_388
  const links = 1_000
  const FIELDS = 7
  /** @type {number[]} */
  const nodes = []
  /** @type {number[]} */
  const edges = []
  const node = (/** @type {number} */ type, /** @type {number} */ name, /** @type {number} */ edgeCount) => {
    nodes.push(type, name, 2 * (nodes.length / FIELDS) + 1, 16, edgeCount, 0, 0)
    return nodes.length / FIELDS - 1
  }
  const [SYNTHETIC, OBJECT, ELEMENT, PROPERTY] = [9, 3, 1, 2]
  const root = node(SYNTHETIC, 0, 2)
  const hub = leaves + links + 2
  const head = 1
  edges.push(ELEMENT, 0, hub * FIELDS, ELEMENT, 1, head * FIELDS)
  const shared = links + 1
  for (let k = 0; k < links; k++) {
    node(OBJECT, 1, k + 1 < links ? 2 : 1)
    if (k + 1 < links) edges.push(PROPERTY, 2, (head + k + 1) * FIELDS)
    edges.push(PROPERTY, 3, shared * FIELDS)
  }
  node(OBJECT, 1, 0)
  for (let k = 0; k < leaves; k++) node(OBJECT, 1, 0)
  node(OBJECT, 1, leaves)
  for (let k = 0; k < leaves; k++) edges.push(ELEMENT, k, (links + 2 + k) * FIELDS)
  const text = `{"snapshot":{"meta":${JSON.stringify(META)},"node_count":${nodes.length / FIELDS},"edge_count":${edges.length / 3},"trace_function_count":0},"nodes":[${nodes}],"edges":[${edges}],"trace_function_infos":[],"trace_tree":[],"samples":[],"locations":[],"strings":["","Object","next","shared"]}`
  t.is(root, 0)
  const graph = new HeapGraph(await parseSnapshot(Readable.from([Buffer.from(text)])))
  const essential = buildEssentialEdges(graph, markPageOwnedNodes(graph))
  const found = buildDominators(graph, essential)
  t.is(found.algorithm, 'lengauer-tarjan')
  const whole = buildDominators(graph, essential, { workLimit: 8 * (graph.edgeCount + graph.nodeCount) })
  t.is(whole.algorithm, 'iterative', 'under the bound for the whole heap')
  t.is(found.dominators.findIndex((dominator, o) => dominator !== whole.dominators[o]), -1)
  t.is(found.dominators[shared], head, 'the first link holds the shared object alone')
})
