// The module scopes of the program's own scripts: the Context that holds a file's top-level
// variables once a closure captures them. Node compiles each CommonJS file as a wrapper function
// and each ES module as a module function, so a file's top-level `const cache = new Map()` lives in
// the outermost Context of that function:
//
//   closure (located in /app/src/cache.js) --internal "context"--> Context (maybe a nested one)
//     --internal "previous"--> ... --> Context (module scope) --internal "previous"--> NativeContext
//
// An ES module's scope Context also has `extension` -> `system / SourceTextModule`; a CommonJS
// wrapper's has none. Both end in the NativeContext, which is how the outermost one is found.
// Scripts named `node:...` are Node's own and are left out: their scopes are what a person does
// not recognise (timer lists, async hooks, the module loader).

/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {NodeLocations} from '../graph/locations.js' */

/**
 * Module-scope Contexts, sorted by ordinal, with the URL of the script each belongs to.
 * @typedef {object} ModuleScopes
 * @property {Uint32Array} ordinals  ascending
 * @property {string[]} scripts      script URL per entry of `ordinals`, as V8 names it
 */

/** @type {WeakMap<HeapGraph, ModuleScopes>} */
const FOUND = new WeakMap()

/**
 * findModuleScopes, found once per graph: readable paths and the names of variables both ask.
 * @param {HeapGraph} graph
 * @param {NodeLocations} locations  the graph's
 * @returns {ModuleScopes}
 */
export function moduleScopesOf (graph, locations) {
  let scopes = FOUND.get(graph)
  if (scopes === undefined) FOUND.set(graph, (scopes = findModuleScopes(graph, locations)))
  return scopes
}

/**
 * Finds the module-scope Context of every script of the program that has a located closure. One
 * pass over the location records; each Context's `previous` chain is walked once.
 * @param {HeapGraph} graph
 * @param {NodeLocations} locations
 * @returns {ModuleScopes}
 */
export function findModuleScopes (graph, locations) {
  const { nodeTypes, nodeNames, edgeTargets, strings } = graph
  const closureType = graph.nodeType.closure
  const internalType = graph.edgeType.internal
  const contextEdge = strings.indexOf('context')
  const previousEdge = strings.indexOf('previous')
  const contextName = strings.indexOf('system / Context')
  /** @type {Array<[number, string]>} */
  const found = []
  if (contextEdge < 0 || contextName < 0) return { ordinals: new Uint32Array(0), scripts: [] }
  const visited = new Uint8Array(graph.nodeCount)
  for (let record = 0; record < graph.locationCount; record++) {
    const closure = graph.locations[record * 4]
    if (nodeTypes[closure] !== closureType) continue
    const edge = graph.findEdge(closure, internalType, contextEdge)
    if (edge < 0) continue
    let context = edgeTargets[edge]
    if (nodeNames[context] !== contextName || visited[context] === 1) continue
    const [scriptId] = locations.recordFields(record)
    const script = locations.scriptName(scriptId)
    if (script === null || script === '' || script.startsWith('node:')) continue
    // Climb to the outermost Context; a Context met before was climbed from already.
    while (true) {
      visited[context] = 1
      const previous = graph.findEdge(context, internalType, previousEdge)
      const next = previous < 0 ? -1 : edgeTargets[previous]
      if (next < 0 || nodeNames[next] !== contextName) {
        found.push([context, script])
        break
      }
      if (visited[next] === 1) break
      context = next
    }
  }
  found.sort((a, b) => a[0] - b[0])
  return { ordinals: Uint32Array.from(found, ([ordinal]) => ordinal), scripts: found.map(([, script]) => script) }
}

/**
 * The script of a module-scope Context, or null when `ordinal` is not one.
 * @param {ModuleScopes} scopes
 * @param {number} ordinal
 */
export function moduleScriptOf (scopes, ordinal) {
  const { ordinals } = scopes
  let low = 0
  let high = ordinals.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (ordinals[middle] < ordinal) low = middle + 1
    else high = middle
  }
  return low < ordinals.length && ordinals[low] === ordinal ? scopes.scripts[low] : null
}
