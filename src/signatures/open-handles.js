// open-handles: native handles opened again and again and never closed (an fs.watch, a server, a
// child process or a socket per request). Node keeps each open handle's JS object alive from the
// roots, so nothing in the program owns them: the diff makes each handle object an owner of its own
// below a root, and this matcher reads such a row. V8 11 (Node 20) shows the handle's own embedder
// node (`Node / FSEventWrap`, `Node / TCPWrap`, ...) as that root; V8 12 and later (Node 22, 24)
// reach the object first from `(Global handles)`, with the embedder node as a second retainer
// (`native_to_javascript`). Either way the embedder node names the handle. Its evidence is the number of objects of the handle's class the roots
// hold in every snapshot; its location is the function handed to the handle (the watch listener,
// the connection handler), the code the program wrote around the call that opened it. Its words
// are in handles/handle-words.js.

import { countRootHeld } from '../diff/root-held.js'
import { dominatedNodes } from '../query/dominator-subtree.js'
import { CLOSE_METHODS, offeredMethod } from '../query/heap-methods.js'
import { isProgramLocation, mostCommonLocation } from './program-location.js'
import { EdgeCursor, findRetainer } from '../query/references.js'
import { growsEveryStep, judgeGrowth, perStepOf } from './growth-evidence.js'
import { sourceLocation } from './source-location.js'
import { HANDLE_REASONS, handleFix, handleNotes, handleTitle } from './handles/handle-words.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */

export const ID = 'open-handles'

/** @type {Signature} */
export const openHandles = { id: ID, match: matchOpenHandles }

/** Owners looked at for the program's wrapper object and its close method. */
const SAMPLE_OWNERS = 50

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchOpenHandles (input) {
  const { result, detail, cwd } = input
  const { analyses } = detail
  const last = analyses[analyses.length - 1]
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const row = result.growth[g]
    const root = row.path.at(-2)
    // New owners right below a root: handles, not objects the program keeps.
    if (!row.leak || row.retainedBefore !== 0 || root === undefined || root.nodeType !== 'synthetic') continue
    const native = root.node.startsWith('(') ? nativeHandleName(last, last.graph.findOrdinalById(row.owner.id)) : root.node
    if (native === null) continue
    const className = row.owner.name
    const names = new Set([className])
    const held = analyses.map((analysis) => countRootHeld(analysis, names).get(className))
    const counts = held.map((tally) => tally?.count ?? 0)
    const retained = held.map((tally) => tally?.bytes ?? 0)
    if (!growsEveryStep(counts)) continue

    const owners = detail.groupOwners[g]
    const wrapper = programWrapper(last, owners)
    const location = handedFunction(last, owners, cwd, input.names)
    const kind = wrapper.name === className ? className : `${wrapper.name} (${className})`
    const { confidence, reasons } = judgeGrowth(counts, [
      { weight: 0.15, reason: HANDLE_REASONS.native(native) },
      ...(location ? [{ weight: 0.05, reason: HANDLE_REASONS.handed(location.count, location.total) }] : [])
    ])
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: handleTitle(kind, counts, native),
        confidence,
        reasons,
        owner: row.owner,
        path: row.path,
        evidence: {
          unit: 'handles',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: row.ownerCount,
          handleClass: className,
          wrapperClass: wrapper.name,
          notes: handleNotes(row.ownerCount, location !== null)
        },
        location: location?.location ?? null,
        fix: handleFix(wrapper.close ?? 'close', location?.location ?? null)
      }
    })
  }
  return matches
}

/** The embedder graph's edge from a native handle to its JS object (Node's src/base_object.cc). */
const NATIVE_TO_JS = 'native_to_javascript'

/**
 * The name of the embedder node (`Node / FSEventWrap`) whose JS object `o` is, or null.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @returns {string | null}
 */
function nativeHandleName (analysis, o) {
  const { graph } = analysis
  const native = findRetainer(graph, o, (edge) => {
    const type = graph.nodeTypes[edge.source]
    return edge.is('internal', NATIVE_TO_JS) && (type === graph.nodeType.native || type === graph.nodeType.synthetic)
  })
  return native < 0 ? null : graph.nodeName(native)
}

/**
 * The object the program was given for a handle: the handle object itself or an object one
 * property away (Node's FSWatcher for an FSEvent handle, a Socket for a TCP one) that offers a
 * close method, named by its class.
 * @param {HeapAnalysis} analysis
 * @param {number[]} owners
 * @returns {{name: string, close: string | null}}
 */
function programWrapper (analysis, owners) {
  const { graph, classOf, classes } = analysis
  const { nodeTypes } = graph
  const edge = new EdgeCursor(graph)
  for (const owner of owners.slice(0, SAMPLE_OWNERS)) {
    for (edge.references(owner); edge.next();) {
      const target = edge.target
      if (nodeTypes[target] !== graph.nodeType.object || classes.names[classOf[target]].startsWith('(')) continue
      const close = offeredMethod(graph, target, CLOSE_METHODS)
      if (close !== null) return { name: classes.names[classOf[target]], close }
    }
  }
  const owner = owners[0]
  return { name: classes.names[classOf[owner]], close: offeredMethod(graph, owner, CLOSE_METHODS) }
}

/**
 * The program function most of the handles hold (a listener or callback given to them).
 * @param {HeapAnalysis} analysis
 * @param {number[]} owners
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation, count: number, total: number} | null}
 */
function handedFunction (analysis, owners, cwd, names) {
  const { graph } = analysis
  const { nodes } = dominatedNodes(analysis, owners)
  /** @type {Array<{location: SourceLocation, count: number}>} */
  const located = []
  for (const o of nodes) {
    if (graph.nodeTypes[o] !== graph.nodeType.closure) continue
    const location = sourceLocation(analysis, o, cwd, names)
    if (isProgramLocation(location) && !location.file.includes('node_modules/')) located.push({ location, count: 1 })
  }
  return mostCommonLocation(located)
}
