// A package's own release call, read from the heap by its name on the object's prototype chain,
// whatever the package: winston's Container closes a named logger, Ajv removes a schema, undici's
// Client closes itself; a Map deletes and clears; an EventEmitter offers neither (removing a
// listener is not releasing an entry).
import test from 'ava'
import { clearMethod, endsItself, releaseMethod } from '../../src/query/heap-methods.js'
import { propertyTarget } from '../../src/query/references.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

/** @import {HeapGraph} from '../../src/graph/heap-graph.js' */

const graphPromise = captureFixture('alloc/package-leaks').then(({ files }) => snapshotGraph(files[files.length - 1]))

/**
 * The first instance of a class: an object of that name that is no prototype (no own `constructor`).
 * @param {HeapGraph} graph
 * @param {string} name
 */
function instanceOf (graph, name) {
  for (let o = 0; o < graph.nodeCount; o++) {
    if (graph.nodeTypes[o] === graph.nodeType.object && graph.nodeName(o) === name && propertyTarget(graph, o, 'constructor') < 0) return o
  }
  return -1
}

for (const [name, release, clear] of [
  ['Container', 'close', null],
  ['Ajv', 'removeSchema', null],
  ['Client', 'close', null],
  ['Map', 'delete', 'clear'],
  ['EventEmitter', null, null]
]) {
  test(`${name}: release ${release}, clear ${clear}`, async (t) => {
    const graph = await graphPromise
    const o = instanceOf(graph, name)
    t.true(o >= 0)
    t.is(releaseMethod(graph, o), release)
    t.is(clearMethod(graph, o), clear)
  })
}

test('no object offers nothing', async (t) => {
  const graph = await graphPromise
  t.is(releaseMethod(graph, -1), null)
  t.is(clearMethod(graph, -1), null)
})

test('a release that ends what it is called on is told apart from one that removes an entry', (t) => {
  t.true(endsItself('close') && endsItself('destroy') && endsItself('dispose') && endsItself('end'))
  t.false(endsItself('removeSchema') || endsItself('delete') || endsItself('release') || endsItself('endpoint'))
})
