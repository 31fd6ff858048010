// Source locations from inside the snapshot. V8 writes one `locations` record (ordinal, script id,
// line, column; 0-based) for closures and for objects whose constructor has a script, in no
// particular order. Script ids become names by following a located closure to its Script:
//
//   closure --internal "shared"--> SharedFunctionInfo --internal "script_or_debug_info"--> Script
//                                                       (newer V8: "script"; with a DebugInfo in
//                                                        between, one more hop)
//
// and the Script node's name is its URL (`/abs/path/app.js`, `node:fs`, `file:///...mjs`).

import { searchSortedPositions, sortPositionsByKey } from './sorted-index.js'

/** @import {HeapGraph} from './heap-graph.js' */

const LOCATION_FIELDS = 4
const SCRIPT_EDGE_NAMES = ['script_or_debug_info', 'script']

/**
 * A location as V8 records it: 0-based line and column of the function's start.
 * @typedef {object} NodeLocation
 * @property {number} scriptId
 * @property {string | null} scriptName  null when no closure of the script leads to its Script node
 * @property {number} line    0-based
 * @property {number} column  0-based
 */

/**
 * A location for people and reports: 1-based line and column, as editors and the JSON report show.
 * @typedef {object} SourcePosition
 * @property {string | null} file
 * @property {number} line    1-based
 * @property {number} column  1-based
 */

export class NodeLocations {
  #graph
  /** @type {Uint32Array} record ordinal per record (the sort key) */
  #recordOrdinals
  /** @type {Uint32Array} record numbers sorted by ordinal */
  #sorted
  /** @type {Map<number, string> | undefined} script id -> URL; few hundred entries, one per script */
  #scriptNames
  /** @type {{shared: number, script: number[], source: number} | undefined} string indexes of the edge names from a function to its Script */
  #edgeNames

  /**
   * @param {HeapGraph} graph
   * @param {{recordOrdinals: Uint32Array, sorted: Uint32Array}} [parts]  the index another thread
   *   made of this graph (toParts), instead of sorting the records again
   */
  constructor (graph, parts) {
    this.#graph = graph
    if (parts !== undefined) {
      this.#recordOrdinals = parts.recordOrdinals
      this.#sorted = parts.sorted
      return
    }
    const count = graph.locationCount
    const locations = graph.locations
    const recordOrdinals = new Uint32Array(count)
    for (let r = 0; r < count; r++) recordOrdinals[r] = locations[r * LOCATION_FIELDS]
    this.#recordOrdinals = recordOrdinals
    this.#sorted = sortPositionsByKey(recordOrdinals)
  }

  /** The index's arrays, to send it to another thread with its graph. */
  toParts () {
    return { recordOrdinals: this.#recordOrdinals, sorted: this.#sorted }
  }

  /**
   * The location record number of a node, or -1. When V8 wrote two records for one node the last
   * one wins, as in DevTools.
   * @param {number} ordinal
   */
  recordOf (ordinal) {
    return searchSortedPositions(this.#sorted, this.#recordOrdinals, ordinal)
  }

  /**
   * recordOf for ordinals asked in ascending order, in one pass over the sorted records instead of
   * a bisection per node. Asking for a smaller ordinal than the previous one gives a wrong answer.
   * @returns {(ordinal: number) => number}
   */
  ascendingRecordLookup () {
    const sorted = this.#sorted
    const ordinals = this.#recordOrdinals
    let k = 0
    return (ordinal) => {
      while (k < sorted.length && ordinals[sorted[k]] <= ordinal) k++
      // The last of several records of one node, as recordOf gives.
      return k > 0 && ordinals[sorted[k - 1]] === ordinal ? sorted[k - 1] : -1
    }
  }

  /**
   * Every located node once, in ascending ordinal order, with its record (the last of several, as
   * recordOf gives): one pass over the records, for questions asked of all located nodes.
   * @param {(ordinal: number, record: number) => void} visit
   */
  forEachLocated (visit) {
    const sorted = this.#sorted
    const ordinals = this.#recordOrdinals
    for (let k = 0; k < sorted.length; k++) {
      const ordinal = ordinals[sorted[k]]
      if (k + 1 < sorted.length && ordinals[sorted[k + 1]] === ordinal) continue
      visit(ordinal, sorted[k])
    }
  }

  /**
   * The script id of record `record`.
   * @param {number} record
   */
  recordScriptId (record) {
    return this.#graph.locations[record * LOCATION_FIELDS + 1]
  }

  /**
   * The node record `record` belongs to.
   * @param {number} record
   */
  recordOrdinal (record) {
    return this.#recordOrdinals[record]
  }

  /**
   * Script id, line and column (0-based) of record `record`, straight from the columns.
   * @param {number} record
   * @returns {[scriptId: number, line: number, column: number]}
   */
  recordFields (record) {
    const base = record * LOCATION_FIELDS
    const locations = this.#graph.locations
    return [locations[base + 1], locations[base + 2], locations[base + 3]]
  }

  /**
   * Where the node's function (a closure's own, an object's constructor) starts, 0-based, or null.
   * @param {number} ordinal
   * @returns {NodeLocation | null}
   */
  locationOf (ordinal) {
    const record = this.recordOf(ordinal)
    if (record < 0) return null
    const [scriptId, line, column] = this.recordFields(record)
    return { scriptId, scriptName: this.scriptName(scriptId), line, column }
  }

  /**
   * The URL of a script id, or null when no located closure leads to it.
   * @param {number} scriptId
   */
  scriptName (scriptId) {
    if (!this.#scriptNames) this.#scriptNames = this.#buildScriptNames()
    return this.#scriptNames.get(scriptId) ?? null
  }

  /**
   * Every script id the heap leads to, with its URL.
   * @returns {ReadonlyMap<number, string>}
   */
  scriptNames () {
    if (!this.#scriptNames) this.#scriptNames = this.#buildScriptNames()
    return this.#scriptNames
  }

  /**
   * The function name for a closure (its own name, else its SharedFunctionInfo's), or the
   * constructor name for an object; '' for anonymous functions and other nodes.
   * @param {number} ordinal
   */
  functionName (ordinal) {
    const graph = this.#graph
    const type = graph.nodeTypes[ordinal]
    if (type === graph.nodeType.object) return graph.nodeName(ordinal)
    if (type !== graph.nodeType.closure) return ''
    const name = graph.nodeName(ordinal)
    if (name !== '') return name
    const shared = graph.findEdge(ordinal, graph.edgeType.internal, graph.strings.indexOf('shared'))
    return shared < 0 ? '' : graph.nodeName(graph.edgeTargets[shared])
  }

  #buildScriptNames () {
    const graph = this.#graph
    /** @type {Map<number, string>} */
    const names = new Map()
    const locations = graph.locations
    for (let r = 0; r < graph.locationCount; r++) {
      const base = r * LOCATION_FIELDS
      const scriptId = locations[base + 1]
      const ordinal = locations[base]
      if (names.has(scriptId) || graph.nodeTypes[ordinal] !== graph.nodeType.closure) continue
      const script = this.scriptOf(ordinal)
      if (script >= 0) names.set(scriptId, graph.nodeName(script))
    }
    return names
  }

  /**
   * The Script node of a function (a closure), or -1: closure -shared-> SharedFunctionInfo
   * -script-> Script, with a DebugInfo between the two while the inspector has touched it.
   * @param {number} closure
   * @param {number[]} [route] when given, gets the nodes the way passes through: the
   *   SharedFunctionInfo, the DebugInfo if any, the Script and its source (what makes it a Script)
   */
  scriptOf (closure, route) {
    const graph = this.#graph
    const internal = graph.edgeType.internal
    const names = (this.#edgeNames ??= {
      shared: graph.strings.indexOf('shared'),
      script: SCRIPT_EDGE_NAMES.map((name) => graph.strings.indexOf(name)),
      source: graph.strings.indexOf('source')
    })
    const sharedEdge = names.shared < 0 ? -1 : graph.findEdge(closure, internal, names.shared)
    if (sharedEdge < 0) return -1
    const shared = graph.edgeTargets[sharedEdge]
    const target = this.#followNamed(shared, names.script)
    if (target < 0) return -1
    let script = this.#isScript(target) ? target : -1
    if (script < 0) {
      const { firstEdge, edgeTargets } = graph
      for (let e = firstEdge[target], end = firstEdge[target + 1]; e < end && script < 0; e++) {
        if (this.#isScript(edgeTargets[e])) script = edgeTargets[e]
      }
    }
    if (script >= 0 && route) {
      route.push(shared, ...(script === target ? [] : [target]), script)
      route.push(graph.edgeTargets[graph.findEdge(script, internal, names.source)])
    }
    return script
  }

  /**
   * Target of the first internal edge of `ordinal` named one of `nameIndexes`, or -1.
   * @param {number} ordinal
   * @param {number[]} nameIndexes
   */
  #followNamed (ordinal, nameIndexes) {
    const graph = this.#graph
    for (const name of nameIndexes) {
      const edge = graph.findEdge(ordinal, graph.edgeType.internal, name)
      if (edge >= 0) return graph.edgeTargets[edge]
    }
    return -1
  }

  /**
   * A Script is a `code` node with an internal `source` edge (its source text).
   * @param {number} ordinal
   */
  #isScript (ordinal) {
    const graph = this.#graph
    const source = this.#edgeNames?.source ?? graph.strings.indexOf('source')
    return graph.nodeTypes[ordinal] === graph.nodeType.code && source >= 0 && graph.findEdge(ordinal, graph.edgeType.internal, source) >= 0
  }
}

/**
 * Convert a 0-based snapshot location to the 1-based line and column people and reports use.
 * @param {NodeLocation} location
 * @returns {SourcePosition}
 */
export function toOneBasedPosition (location) {
  return { file: location.scriptName, line: location.line + 1, column: location.column + 1 }
}
