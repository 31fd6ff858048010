// Small reads of JS values as V8 lays them out in a snapshot (heapsnapshot-format.md 7): the
// value of an oddball (true, false, null, undefined), a named property's target, the function a
// bound function wraps, the variable that holds an object, and whether a location is program code
// rather than Node's own.

/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {SourceLocation} from './finding.js' */

/**
 * The target of the property (or internal field) `name` of `ordinal`, or -1 when it has none
 * (Smis have no edge).
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {string} name
 */
export function propertyTarget (graph, ordinal, name) {
  const nameIndex = graph.strings.indexOf(name)
  if (nameIndex < 0) return -1
  let edge = graph.findEdge(ordinal, graph.edgeType.property, nameIndex)
  if (edge < 0) edge = graph.findEdge(ordinal, graph.edgeType.internal, nameIndex)
  return edge < 0 ? -1 : graph.edgeTargets[edge]
}

/**
 * The name of a variable or property that holds `ordinal` (a scope's `retries`, an object's
 * `cache`), or null when no retainer names it so. Needs the retainer index.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {string | null}
 */
export function variableName (graph, ordinal) {
  const { context, property } = graph.edgeType
  for (let slot = graph.firstRetainer[ordinal], end = graph.firstRetainer[ordinal + 1]; slot < end; slot++) {
    const e = graph.retainerEdges[slot]
    const type = graph.edgeTypes[e]
    if (type !== context && type !== property) continue
    const name = graph.edgeName(e)
    if (/^#?[A-Za-z_$][\w$]*$/.test(name)) return name
  }
  return null
}

/**
 * The value of an oddball node ('true', 'false', 'null', 'undefined', 'hole', ...), or null for
 * any other node. An Oddball's first slot (after its map) is its `to_string` string. V8 11 names
 * every oddball `system / Oddball`; V8 12 and later (Node 22, 24) name it after that string.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @returns {string | null}
 */
export function oddballValue (graph, ordinal) {
  if (ordinal < 0 || graph.nodeTypes[ordinal] !== graph.nodeType.hidden) return null
  const name = graph.nodeName(ordinal)
  for (let e = graph.firstEdge[ordinal], end = graph.firstEdge[ordinal + 1]; e < end; e++) {
    const target = graph.edgeTargets[e]
    if (graph.edgeTypes[e] !== graph.edgeType.hidden || graph.nodeTypes[target] !== graph.nodeType.string) continue
    const value = graph.nodeName(target)
    return name === 'system / Oddball' || name === value ? value : null
  }
  return null
}

/**
 * The function a closure runs: itself, or for a bound function (`native_bind`) the target it wraps.
 * @param {HeapGraph} graph
 * @param {number} closure
 */
export function unwrapBound (graph, closure) {
  let current = closure
  for (let hops = 0; hops < 4 && current >= 0; hops++) {
    const target = propertyTarget(graph, current, 'bound_function')
    if (target < 0 || graph.nodeTypes[target] !== graph.nodeType.closure) return current
    current = target
  }
  return current
}

/**
 * Whether a location is in the program (or its dependencies) rather than in Node's own modules.
 * @param {SourceLocation | null} location
 * @returns {location is SourceLocation}
 */
export function isProgramLocation (location) {
  return location !== null && !location.file.startsWith('node:')
}

/**
 * The key closures of one function share across snapshots of one process.
 * @param {SourceLocation} location
 */
export function locationKey (location) {
  return `${location.file}:${location.line}:${location.column}`
}

/**
 * The location most of the given code comes from: the tally behind "N of the new listeners come
 * from this function".
 * @param {Iterable<{location: SourceLocation, count: number}>} located  one entry per located item
 * @returns {{location: SourceLocation, count: number, total: number} | null}  total: all counts
 */
export function mostCommonLocation (located) {
  /** @type {Map<string, {location: SourceLocation, count: number}>} few entries: one per source location */
  const byKey = new Map()
  let total = 0
  for (const { location, count } of located) {
    total += count
    const key = locationKey(location)
    const tally = byKey.get(key)
    if (tally) tally.count += count
    else byKey.set(key, { location, count })
  }
  let best = null
  for (const tally of byKey.values()) if (best === null || tally.count > best.count) best = tally
  return best === null ? null : { ...best, total }
}
