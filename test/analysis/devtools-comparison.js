// Node-by-node and class-by-class comparison of a HeapAnalysis with DevTools' own numbers for the
// same file (test/helpers/devtools-oracle.js). Shared by the parity tests; not a test file itself.
import { runDevtoolsOracle } from '../helpers/devtools-oracle.js'
import { analysedSnapshot } from '../helpers/parsed-snapshots.js'

/** @import {HeapAnalysis} from '../../src/analysis/analyze-heap.js' */
/** @import {OracleResult} from '../helpers/devtools-oracle.js' */

const MAX_EXAMPLES = 5

/**
 * @typedef {object} Comparison
 * @property {HeapAnalysis} analysis
 * @property {OracleResult} oracle
 * @property {Record<string, number>} nodeMismatches per field: nodes whose value differs
 * @property {number} classMismatches classes missing on either side or with any differing number
 * @property {string[]} examples the first few differences, for assertion messages
 */

/**
 * Analyze `file` with leakdiff and with DevTools and compare every node and every class.
 * @param {string} file
 * @returns {Promise<Comparison>}
 */
export async function compareWithDevtools (file) {
  const [analysis, oracle] = await Promise.all([analysedSnapshot(file), runDevtoolsOracle(file)])
  const { graph, shallowSizes, retainedSizes, dominators, distances, classOf, classes } = analysis
  /** @type {string[]} */
  const examples = []
  const note = (/** @type {string} */ text) => { if (examples.length < MAX_EXAMPLES) examples.push(text) }

  /** @type {Record<string, number>} */
  const nodeMismatches = { count: 0, id: 0, self: 0, retained: 0, dominator: 0, distance: 0, className: 0, classKey: 0 }
  if (graph.nodeCount !== oracle.nodeCount) {
    nodeMismatches.count = 1
    note(`node count ${graph.nodeCount}, DevTools ${oracle.nodeCount}`)
  }
  const nodes = oracle.nodes
  const n = Math.min(graph.nodeCount, oracle.nodeCount)
  /** @type {[string, (o: number) => unknown, (o: number) => unknown][]} */
  const fields = [
    ['id', (o) => graph.nodeIds[o], (o) => nodes.ids[o]],
    ['self', (o) => shallowSizes.at(o), (o) => nodes.self[o]],
    ['retained', (o) => retainedSizes.at(o), (o) => nodes.retained[o]],
    ['dominator', (o) => graph.nodeIds[dominators[o]], (o) => nodes.dominatorId[o]],
    ['distance', (o) => distances[o], (o) => nodes.distance[o]],
    ['className', (o) => classes.names[classOf[o]], (o) => nodes.className[o]],
    ['classKey', (o) => classes.keys[classOf[o]], (o) => nodes.classKey[o]]
  ]
  for (const [field, ours, theirs] of fields) {
    for (let o = 0; o < n; o++) {
      const a = ours(o)
      const b = theirs(o)
      if (a === b) continue
      nodeMismatches[field]++
      note(`${field} of @${graph.nodeIds[o]} (${graph.nodeTypeName(o)} ${JSON.stringify(graph.nodeName(o).slice(0, 40))}): ${a}, DevTools ${b}`)
    }
  }

  /** @type {Map<string, number>} */
  const ourClasses = new Map()
  for (let c = 0; c < classes.names.length; c++) {
    if (classes.counts[c] > 0) ourClasses.set(classes.keys[c], c)
  }
  let classMismatches = 0
  for (const row of oracle.classes) {
    const c = ourClasses.get(row.key)
    ourClasses.delete(row.key)
    if (c === undefined) {
      classMismatches++
      note(`class ${row.key} missing (DevTools: ${row.count} objects)`)
      continue
    }
    const ours = { name: classes.names[c], count: classes.counts[c], self: classes.selfSizes[c], retained: classes.retainedSizes[c], distance: classes.minDistances[c] }
    const theirs = { name: row.name, count: row.count, self: row.self, retained: row.retained, distance: row.distance }
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
      classMismatches++
      note(`class ${row.key}: ${JSON.stringify(ours)}, DevTools ${JSON.stringify(theirs)}`)
    }
  }
  for (const key of ourClasses.keys()) {
    classMismatches++
    note(`class ${key} not in DevTools' Summary`)
  }
  return { analysis, oracle, nodeMismatches, classMismatches, examples }
}

/**
 * Total of all node mismatch counters.
 * @param {Comparison} comparison
 */
export function totalNodeMismatches (comparison) {
  return Object.values(comparison.nodeMismatches).reduce((sum, count) => sum + count, 0)
}

/**
 * One line for assertion messages.
 * @param {Comparison} comparison
 */
export function describeComparison (comparison) {
  return `${totalNodeMismatches(comparison)} node mismatches ${JSON.stringify(comparison.nodeMismatches)}, ` +
    `${comparison.classMismatches} class mismatches of ${comparison.oracle.classes.length} classes` +
    (comparison.examples.length > 0 ? ':\n  ' + comparison.examples.join('\n  ') : '')
}
