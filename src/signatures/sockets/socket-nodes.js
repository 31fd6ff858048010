// What a socket is in the heap and the state it is in: a net.Socket or tls.TLSSocket is a duplex
// stream (both stream states); an open one has a handle object, a closed one has null
// (heapsnapshot-format.md 7); one a server of this process accepted has its `server` set.

import { dominatedNodes } from '../../query/dominator-subtree.js'
import { oddballValue } from '../../query/heap-values.js'
import { propertyTarget } from '../../query/references.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */

const SOCKET_CLASSES = new Set(['Socket', 'TLSSocket'])
/** Fewer new sockets than this is too little to call a leak. */
export const MIN_NEW_SOCKETS = 20

/**
 * Class indexes of socket classes, as flags.
 * @param {HeapAnalysis} analysis
 */
export function socketClasses (analysis) {
  return Uint8Array.from(analysis.classes.names, (name) => (SOCKET_CLASSES.has(name) ? 1 : 0))
}

/**
 * A Socket is a duplex stream: it has both stream states.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {Uint8Array} isSocket
 */
export function isSocketNode (analysis, o, isSocket) {
  const { graph } = analysis
  return isSocket[analysis.classOf[o]] === 1 && graph.nodeTypes[o] === graph.nodeType.object &&
    propertyTarget(graph, o, '_readableState') >= 0 && propertyTarget(graph, o, '_writableState') >= 0
}

/**
 * An open socket has a handle object (a closed one has null, heapsnapshot-format.md 7).
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
export function isOpen (analysis, o) {
  const { graph } = analysis
  let handle = propertyTarget(graph, o, '_handle')
  if (handle < 0) handle = propertyTarget(graph, o, '<symbol kHandle>')
  return handle >= 0 && graph.nodeTypes[handle] === graph.nodeType.object && oddballValue(graph, handle) === null
}

/**
 * A closed (or never connected) socket has no handle: `_handle` (a symbol in newer Node) is null.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
export function isClosed (analysis, o) {
  const { graph } = analysis
  let handle = propertyTarget(graph, o, '_handle')
  if (handle < 0) handle = propertyTarget(graph, o, '<symbol kHandle>')
  return handle >= 0 && oddballValue(graph, handle) === 'null'
}

/**
 * A socket a server of this process accepted has its `server` set (null on outgoing sockets).
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
export function isAccepted (analysis, o) {
  const server = propertyTarget(analysis.graph, o, 'server')
  return server >= 0 && oddballValue(analysis.graph, server) === null
}

/**
 * Sockets the owners keep alive in one snapshot, and the bytes they retain.
 * @param {HeapAnalysis} analysis
 * @param {number[]} ownerIds
 */
export function countSockets (analysis, ownerIds) {
  const present = ownerIds.map((id) => analysis.graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (present.length === 0) return { sockets: 0, bytes: 0 }
  const { nodes } = dominatedNodes(analysis, present)
  const isSocket = socketClasses(analysis)
  let sockets = 0
  let bytes = 0
  for (const o of nodes) {
    if (!isSocketNode(analysis, o, isSocket)) continue
    sockets++
    bytes += analysis.retainedSizes.at(o)
  }
  return { sockets, bytes }
}
