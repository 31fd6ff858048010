// DevTools parity on the heap with one of each tricky shape (fixtures/programs/engine/mixed-heap.js):
// Map/Set tables folded into their owners, WeakMap ephemeron edges, shared closure contexts,
// interfaces, located classes, detached embedder nodes. Then the same file with a few edges turned
// weak and others removed, so that nodes are unreachable from the root: the orphan rules must match
// DevTools' too, and only a sizable share that nothing holds is worth a warning.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { compareDominators } from '../helpers/dominator-check.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { analyzeHeap } from '../../src/analysis/analyze-heap.js'
import { parseSnapshot } from '../../src/parse/parse-snapshot.js'
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

  // Node 20 and 22 mark Node's BindingData nodes detached, Node 24 marks no node at all: each node
  // the snapshot marks detached is named so, and nothing else is.
  const { graph, classOf } = analysis
  const detachedNames = new Set()
  let marked = 0
  for (let o = 0; o < graph.nodeCount; o++) {
    if (graph.nodeTypeName(o) !== 'native' || (graph.detachedness[o] & 3) !== 2) continue
    marked++
    detachedNames.add(classes.names[classOf[o]])
  }
  t.true([...detachedNames].every((name) => name.startsWith('Detached ')), [...detachedNames].join(', '))
  t.is(classes.names.some((name, c) => name.startsWith('Detached ') && classes.counts[c] > 0), marked > 0, 'detached embedder nodes are renamed, and only they')
})

test('unreachable nodes hang under the root with the same sizes as in DevTools; a warning only for a sizable share nothing holds', async (t) => {
  const { files } = await mixedHeap
  // The fixture's directory is shared with other test files: the changed copies go elsewhere.
  const dir = mkdtempSync(join(tmpdir(), 'leakdiff-orphans-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'orphans.heapsnapshot')
  const json = weakenEdges(JSON.parse(readFileSync(files[0], 'latin1')))
  const bufferId = dropRetainers(json, 'buffer')
  writeFileSync(file, JSON.stringify(json))
  const comparison = await compareWithDevtools(file)
  t.is(totalNodeMismatches(comparison) + comparison.classMismatches, 0, describeComparison(comparison))
  // Extra starts and leftovers the same way in both dominator algorithms.
  const byLengauerTarjan = compareDominators(comparison.analysis.graph, comparison.analysis.dominators, 'lengauer-tarjan')
  t.is(byLengauerTarjan.mismatches, 0, byLengauerTarjan.examples)

  const { warnings, graph } = comparison.analysis
  const idsIn = (/** @type {string[]} */ lines) => new Set(lines.join(' ').match(/@\d+/g))
  const reported = idsIn(comparison.oracle.problems)
  const unheld = unheldIds(json)
  const buffer = graph.findOrdinalById(bufferId)
  t.is(graph.nodeName(buffer), 'ArrayBuffer')
  t.true(unheld.has(`@${bufferId}`), 'the ArrayBuffer has no retainer left')
  t.true(comparison.analysis.retainedSizes.at(buffer) >= 1 << 20, 'it holds its 1 MiB backing store, over 1% of the heap')
  t.is(warnings.length, 1, warnings.join('\n'))
  t.regex(warnings[0], new RegExp(`^${unheld.size} nodes holding [\\d.]+ [kM]B \\(\\d+\\.\\d% of the heap\\) have no path from the root`))
  t.deepEqual(idsIn(warnings), unheld, 'the warning lists what nothing holds')
  // DevTools names the nodes that start each orphaned part, the ArrayBuffer among them, and the
  // weakly held ones too (the arrays behind the weakened `payload`s, the cycle behind the WeakRef):
  // V8 keeps such nodes in every heap, so they are no warning here.
  const problems = comparison.oracle.problems.join('\n')
  t.true(reported.has(`@${bufferId}`), problems)
  t.true([...reported].filter((id) => !unheld.has(id)).length >= 4, problems)
})

test('a few bytes that nothing holds, as Node 24 writes in every process, hang under the root without a warning', async (t) => {
  const { files } = await mixedHeap
  const json = JSON.parse(readFileSync(files[0], 'latin1'))
  const taggedId = dropRetainers(json, 'tagged')
  const dir = mkdtempSync(join(tmpdir(), 'leakdiff-orphans-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'small-orphan.heapsnapshot')
  writeFileSync(file, JSON.stringify(json))
  const analysis = analyzeHeap(await parseSnapshot(file))
  const unheld = [...unheldIds(json)].map((id) => analysis.graph.findOrdinalById(Number(id.slice(1))))
  const { graph, dominators } = analysis
  const tagged = graph.findOrdinalById(taggedId)
  t.true(unheld.includes(tagged) && unheld.length >= 2, 'the tagged object and what it holds have no path from the root')
  t.is(dominators[tagged], graph.rootOrdinal)
  t.true(unheld.every((o) => dominators[o] === graph.rootOrdinal || unheld.includes(dominators[o])), 'what it holds hangs under it')
  t.deepEqual(analysis.warnings, [])
})

/**
 * Removes every edge into the object that the fixture's `mixedHeap.<property>` points to, leaving
 * it with no retainer at all. Works on the parsed JSON of a real snapshot, in place.
 * @param {any} json
 * @param {string} property
 * @returns {number} the object's id
 */
function dropRetainers (json, property) {
  const { meta, nodeFields, edgeFields, edgeCountOffset, idOffset, toAt, nodeCount } = rowLayout(json)
  const typeAt = meta.edge_fields.indexOf('type')
  const nameAt = meta.edge_fields.indexOf('name_or_index')
  const propertyType = meta.edge_types[typeAt].indexOf('property')
  const firstEdge = new Uint32Array(nodeCount + 1)
  for (let o = 0; o < nodeCount; o++) firstEdge[o + 1] = firstEdge[o] + json.nodes[o * nodeFields + edgeCountOffset]
  /** @param {number} node @param {number} wanted the name's string index */
  const follow = (node, wanted) => {
    for (let e = firstEdge[node]; e < firstEdge[node + 1]; e++) {
      const at = e * edgeFields
      if (json.edges[at + typeAt] === propertyType && json.edges[at + nameAt] === wanted) return json.edges[at + toAt] / nodeFields
    }
    return -1
  }
  const mixedHeapName = json.strings.indexOf('mixedHeap')
  let holder = -1
  for (let o = 0; o < nodeCount && holder < 0; o++) holder = follow(o, mixedHeapName)
  const target = holder < 0 ? -1 : follow(holder, json.strings.indexOf(property))
  if (target < 0) throw new Error(`no mixedHeap.${property} in the snapshot`)
  /** @type {number[]} */
  const edges = []
  for (let o = 0; o < nodeCount; o++) {
    let kept = 0
    for (let e = firstEdge[o]; e < firstEdge[o + 1]; e++) {
      const at = e * edgeFields
      if (json.edges[at + toAt] === target * nodeFields) continue
      for (let f = 0; f < edgeFields; f++) edges.push(json.edges[at + f])
      kept++
    }
    json.nodes[o * nodeFields + edgeCountOffset] = kept
  }
  json.edges = edges
  json.snapshot.edge_count = edges.length / edgeFields
  return json.nodes[target * nodeFields + idOffset]
}

/**
 * Ids ("@123") of the nodes that no path from the root reaches, whatever the edge types.
 * @param {any} json
 */
function unheldIds (json) {
  const { nodeFields, edgeFields, edgeCountOffset, idOffset, toAt, nodeCount } = rowLayout(json)
  const firstEdge = new Uint32Array(nodeCount + 1)
  for (let o = 0; o < nodeCount; o++) firstEdge[o + 1] = firstEdge[o] + json.nodes[o * nodeFields + edgeCountOffset]
  const seen = new Uint8Array(nodeCount)
  const stack = [0]
  seen[0] = 1
  while (stack.length > 0) {
    const o = /** @type {number} */ (stack.pop())
    for (let e = firstEdge[o]; e < firstEdge[o + 1]; e++) {
      const to = json.edges[e * edgeFields + toAt] / nodeFields
      if (seen[to] === 0) {
        seen[to] = 1
        stack.push(to)
      }
    }
  }
  const ids = new Set()
  for (let o = 0; o < nodeCount; o++) if (seen[o] === 0) ids.add(`@${json.nodes[o * nodeFields + idOffset]}`)
  return ids
}

/**
 * Where the fields sit in the rows of a parsed snapshot's `nodes` and `edges`.
 * @param {any} json
 */
function rowLayout (json) {
  const { meta } = json.snapshot
  const nodeFields = meta.node_fields.length
  return {
    meta,
    nodeFields,
    edgeFields: meta.edge_fields.length,
    edgeCountOffset: meta.node_fields.indexOf('edge_count'),
    idOffset: meta.node_fields.indexOf('id'),
    toAt: meta.edge_fields.indexOf('to_node'),
    /** @type {number} */
    nodeCount: json.nodes.length / nodeFields
  }
}

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
