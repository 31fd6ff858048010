// Locations resolved from inside the snapshot: closures and class instances of the fixture program
// point at its file and at the line where the function or constructor is written.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { NodeLocations, toOneBasedPosition } from '../../src/graph/locations.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { snapshotGraph } from '../helpers/parsed-snapshots.js'

/** @import {HeapGraph} from '../../src/graph/heap-graph.js' */

const PROGRAM = fileURLToPath(new URL('../../fixtures/programs/engine/mixed-heap.js', import.meta.url))
const sourceLines = readFileSync(PROGRAM, 'utf8').split('\n')

const graphPromise = captureFixture('engine/mixed-heap').then(({ files }) => snapshotGraph(files[0]))

/**
 * 1-based line and column of the first occurrence of `text` in the fixture's source.
 * @param {string} text
 */
function positionInSource (text) {
  const index = sourceLines.findIndex((line) => line.includes(text))
  if (index < 0) throw new Error(`${text} not in ${PROGRAM}`)
  return { line: index + 1, column: sourceLines[index].indexOf(text) + 1 }
}

/**
 * Script names are URLs for ES modules (`file:///...`) and paths for CommonJS.
 * @param {string | null} name
 */
function toPath (name) {
  return name?.startsWith('file:') ? fileURLToPath(name) : name
}

/**
 * Ordinals of the nodes of a type with a name.
 * @param {HeapGraph} graph
 * @param {string} type
 * @param {string} name
 */
function nodesNamed (graph, type, name) {
  const ordinals = []
  for (let o = 0; o < graph.nodeCount; o++) {
    if (graph.nodeTypeName(o) === type && graph.nodeName(o) === name) ordinals.push(o)
  }
  return ordinals
}

test('a closure resolves to the fixture file and the line of its definition', async (t) => {
  const graph = await graphPromise
  const locations = new NodeLocations(graph)
  const listeners = nodesNamed(graph, 'closure', 'onData')
  t.true(listeners.length >= 1)
  const expected = positionInSource('function onData (')
  for (const ordinal of listeners) {
    const location = locations.locationOf(ordinal)
    t.truthy(location)
    const position = toOneBasedPosition(/** @type {NonNullable<typeof location>} */ (location))
    t.is(toPath(position.file), PROGRAM)
    t.is(position.line, expected.line)
    // V8 records the function's start position: the parameter list's "(".
    t.is(position.column, expected.column + 'function onData '.length)
    t.is(locations.functionName(ordinal), 'onData')
  }
})

test('class instances are located at their constructor', async (t) => {
  const graph = await graphPromise
  const locations = new NodeLocations(graph)
  const holders = nodesNamed(graph, 'object', 'LeakyHolder')
  t.true(holders.length > 1)
  const expected = positionInSource('constructor (index)')
  const location = locations.locationOf(holders[0])
  t.is(location?.line, expected.line - 1, 'snapshot lines are 0-based')
  t.is(toPath(location?.scriptName ?? null), PROGRAM)
  t.is(locations.functionName(holders[0]), 'LeakyHolder')
})

test('script ids map to node: built-ins too, and nodes without a record have no location', async (t) => {
  const graph = await graphPromise
  const locations = new NodeLocations(graph)
  let builtins = 0
  let unnamed = 0
  for (let r = 0; r < graph.locationCount; r++) {
    const [scriptId] = locations.recordFields(r)
    const name = locations.scriptName(scriptId)
    if (name === null) unnamed++
    else if (name.startsWith('node:')) builtins++
  }
  t.true(builtins > 100, `${builtins} located functions in node: modules`)
  t.true(unnamed < graph.locationCount / 10, `${unnamed} of ${graph.locationCount} records without a script name`)
  t.is(locations.locationOf(graph.rootOrdinal), null)
  t.is(locations.functionName(graph.rootOrdinal), '')
})
