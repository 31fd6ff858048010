// Plain-object interfaces (heapsnapshot-format.md 4.7): each plain Object gets the definition with
// the most properties that are all among its own, ties to the more popular one. The matching walks
// a trie over the properties' ranks; here it is held to that rule read literally, on real
// snapshots, with a snapshot's own definitions and with the newest one's (as a diff applies them).
import test from 'ava'
import { inferInterfaceDefinitions, internPlainObjects, matchInterfaces } from '../../src/analysis/interfaces.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

/** @import {InterfaceDefinition} from '../../src/analysis/interfaces.js' */

/**
 * The rule itself: every definition checked against the list's property names.
 * @param {Set<string>} names
 * @param {InterfaceDefinition[]} definitions
 */
function bestByRule (names, definitions) {
  let best = -1
  for (let d = 0; d < definitions.length; d++) {
    const { properties } = definitions[d]
    if (!properties.every((property) => names.has(property))) continue
    if (best < 0 || properties.length > definitions[best].properties.length) best = d
  }
  return best
}

for (const program of ['engine/mixed-heap', 'diff/map-cache']) {
  test(`${program}: every property list gets the definition the rule gives it, with its own definitions and the newest snapshot's`, async (t) => {
    const { files } = await captureFixture(program)
    const graphs = await Promise.all(files.map((file) => snapshotGraph(file)))
    const newest = graphs[graphs.length - 1]
    const newestDefinitions = inferInterfaceDefinitions(newest, internPlainObjects(newest, new Uint32Array(newest.nodeCount)))
    let lists = 0
    let smaller = 0
    for (const graph of graphs) {
      const interned = internPlainObjects(graph, new Uint32Array(graph.nodeCount))
      for (const definitions of [inferInterfaceDefinitions(graph, interned), newestDefinitions]) {
        const matches = matchInterfaces(graph, interned.lists, definitions)
        const wrong = []
        for (let list = 0; list < interned.lists.size; list++) {
          const names = new Set(interned.lists.get(list).map((property) => graph.strings.get(property)))
          const expected = bestByRule(names, definitions)
          if (matches[list] !== expected) wrong.push(`[${[...names].join(', ')}]: ${matches[list]} instead of ${expected}`)
          if (expected >= 0 && definitions[expected].properties.length < names.size) smaller++
          lists++
        }
        t.deepEqual(wrong.slice(0, 5), [], `${wrong.length} lists`)
      }
    }
    t.true(lists > 500, `${lists} property lists`)
    // Objects with more properties than their definition: the rule's "all among its own" at work.
    t.true(smaller > 50, `${smaller} lists matched by a smaller definition`)
  })
}
