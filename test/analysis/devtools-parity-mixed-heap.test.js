// DevTools parity on the heap with one of each tricky shape (fixtures/programs/engine/mixed-heap.js):
// Map/Set tables folded into their owners, WeakMap ephemeron edges, shared closure contexts,
// interfaces, located classes, detached embedder nodes. Then the same file with a few edges turned
// weak, so that nodes are unreachable from the root: the orphan rules must match DevTools' too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { compareWithDevtools, describeComparison, totalNodeMismatches } from './devtools-comparison.js'

const mixedHeap = captureFixture('engine/mixed-heap')
const comparisonPromise = mixedHeap.then(({ files }) => compareWithDevtools(files[0]))

test('mixed heap: every node and class as in DevTools', async (t) => {
  const comparison = await comparisonPromise
  t.is(totalNodeMismatches(comparison) + comparison.classMismatches, 0, describeComparison(comparison))
  t.is(comparison.analysis.totalSize, comparison.oracle.totalSize)
  t.deepEqual(comparison.analysis.warnings, [])
})

test('mixed heap: the Summary has the classes the program made', async (t) => {
  const { report } = await mixedHeap
  const { analysis } = await comparisonPromise
  const { classes } = analysis
  const rowsNamed = (/** @type {string} */ name) => classes.names.flatMap((n, c) => n === name && classes.counts[c] > 0 ? [c] : [])

  const holders = rowsNamed('LeakyHolder')
  t.is(holders.length, 1)
  t.is(classes.counts[holders[0]], report.leakyHolders)
  t.regex(classes.keys[holders[0]], /^\d+,\d+,\d+,LeakyHolder$/, 'instances of a class are keyed by its location')

  const shaped = rowsNamed('{alpha, beta}')
  t.is(shaped.length, 1, 'plain objects sharing a property set get an interface name')
  // Plus, at most, the object literal's boilerplate, which V8 keeps with the same properties.
  const count = classes.counts[shaped[0]]
  t.true(count >= report.shapedObjects && count <= report.shapedObjects + 1, `${count} {alpha, beta} objects`)

  t.true(rowsNamed('Detached Node / BindingData').length === 1, 'detached embedder nodes are renamed')
})

test('unreachable nodes hang under the root with the same sizes and reports as DevTools', async (t) => {
  const { files } = await mixedHeap
  // The fixture's directory is shared with other test files: the changed copy goes elsewhere.
  const dir = mkdtempSync(join(tmpdir(), 'leakdiff-orphans-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'orphans.heapsnapshot')
  writeFileSync(file, JSON.stringify(weakenEdges(JSON.parse(readFileSync(files[0], 'latin1')))))
  const comparison = await compareWithDevtools(file)
  t.is(totalNodeMismatches(comparison) + comparison.classMismatches, 0, describeComparison(comparison))

  const { warnings } = comparison.analysis
  const problems = comparison.oracle.problems
  t.is(warnings.length, 2, warnings.join('\n'))
  const unreachable = Number(/^Heap snapshot: (\d+) nodes are unreachable/.exec(problems[0])?.[1])
  const stillUnreachable = Number(/Still found (\d+) unreachable nodes/.exec(problems.join('\n'))?.[1])
  t.true(unreachable > stillUnreachable && stillUnreachable > 0, problems.join('\n'))
  t.true(warnings[0].startsWith(`${unreachable} nodes are unreachable from the root`), warnings[0])
  t.true(warnings[1].startsWith(`${stillUnreachable} more nodes`), warnings[1])
  const idsIn = (/** @type {string[]} */ lines) => new Set(lines.join(' ').match(/@\d+/g))
  t.deepEqual(idsIn(warnings), idsIn(problems.slice(1)))
})

/**
 * Turns into weak edges: the strong slot that keeps the WeakRef target cycle alive during its job
 * (leaving a cycle held only weakly) and the first two `payload` properties (leaving two arrays
 * with only weak retainers). Works on the parsed JSON of a real snapshot.
 * @param {any} json
 */
function weakenEdges (json) {
  const { meta } = json.snapshot
  const nodeFields = meta.node_fields.length
  const edgeFields = meta.edge_fields.length
  const edgeTypes = meta.edge_types[0]
  const weak = edgeTypes.indexOf('weak')
  const internal = edgeTypes.indexOf('internal')
  const property = edgeTypes.indexOf('property')
  const keepDuringJob = json.strings.indexOf('weak_refs_keep_during_job')
  const payload = json.strings.indexOf('payload')
  const mapName = json.strings.indexOf('map')
  const edgeCountOffset = meta.node_fields.indexOf('edge_count')
  const nodeCount = json.nodes.length / nodeFields
  const firstEdge = new Uint32Array(nodeCount + 1)
  for (let o = 0; o < nodeCount; o++) firstEdge[o + 1] = firstEdge[o] + json.nodes[o * nodeFields + edgeCountOffset]
  const edges = json.edges
  let payloads = 0
  for (let e = 0; e < edges.length / edgeFields; e++) {
    const at = e * edgeFields
    if (edges[at] === property && edges[at + 1] === payload && payloads < 2) {
      edges[at] = weak
      payloads++
    }
    if (edges[at] === internal && edges[at + 1] === keepDuringJob) {
      const list = edges[at + 2] / nodeFields
      for (let f = firstEdge[list]; f < firstEdge[list + 1]; f++) {
        if (edges[f * edgeFields] === internal && edges[f * edgeFields + 1] !== mapName) edges[f * edgeFields] = weak
      }
    }
  }
  return json
}
