// Open outgoing sockets in one snapshot, by what owns them: the pool a socket is checked out of (an
// object with `sockets`, busy sockets in an array per origin, and `freeSockets`, idle ones: Node's
// http.Agent and every agent built like it), else the nearest object past Node's connection
// machinery that reaches the socket (clients and agents emit their connection events).

import { membersOf } from '../../query/class-members.js'
import { EdgeCursor, findRetainer, propertyTarget } from '../../query/references.js'
import { constructorOf } from '../library-handle.js'
import { isAccepted, isOpen, isSocketNode, socketClasses } from './socket-nodes.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {HeapGraph} from '../../graph/heap-graph.js' */

/** Node's own connection machinery: the handle, parsers and request wrappers that point at every
 * socket. The object that owns a connection is looked for past them. */
const MACHINERY = new Set(['TCP', 'Pipe', 'TLSWrap', 'HTTPParser', 'HTTPServerAsyncResource', 'HTTPClientAsyncResource',
  'WriteWrap', 'ShutdownWrap', 'TCPConnectWrap', 'ReadableState', 'WritableState', 'Socket', 'TLSSocket', 'Object', 'Array'])
/** Retainer steps climbed from a socket to the object that owns it (an agent keeps its idle
 * sockets in an array per origin, in an object: three steps). */
const MAX_HOLDER_STEPS = 3

/**
 * Open outgoing sockets of one kind in one snapshot.
 * @typedef {object} OpenSockets
 * @property {number[]} sockets  ordinals
 * @property {number[]} holders  per socket, the object that owns it (its pool, when pooled)
 * @property {number} bytes      retained by the sockets
 * @property {boolean} pooled    checked out of one pool (checkedOutOf), the key's
 */

/**
 * Open outgoing sockets (not accepted by a server in this process) by the class of their owner,
 * or by the pool they are checked out of.
 * @param {HeapAnalysis} analysis
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {Map<string, OpenSockets>}
 */
export function tallyOpenSockets (analysis, cwd, names) {
  const { graph, retainedSizes } = analysis
  const isSocket = socketClasses(analysis)
  /** @type {Map<string, OpenSockets>} */
  const byKey = new Map()
  const edge = new EdgeCursor(graph)
  for (const o of membersOf(analysis, isSocket)) {
    if (!isSocketNode(analysis, o, isSocket) || !isOpen(analysis, o) || isAccepted(analysis, o)) continue
    const pool = checkedOutOf(graph, o)
    const holder = pool >= 0 ? pool : socketOwner(analysis, o, edge)
    if (holder < 0) continue
    // A pool is one object for the whole process: its own id keys it across snapshots.
    let key = `pool @${graph.nodeIds[pool]}`
    if (pool < 0) {
      const { name, location } = constructorOf(analysis, holder, cwd, names)
      key = `${name} ${location === null ? '' : location.file}`
    }
    let tally = byKey.get(key)
    if (!tally) byKey.set(key, (tally = { sockets: [], holders: [], bytes: 0, pooled: pool >= 0 }))
    tally.sockets.push(o)
    tally.holders.push(holder)
    tally.bytes += retainedSizes.at(o)
  }
  return byKey
}

/**
 * The pool a socket is checked out of: an object with `sockets` (busy sockets in an array per
 * origin) and `freeSockets` (idle ones) whose `sockets` lists this one; -1 when there is none.
 * Only the shape counts, so agents of other packages built like Node's are pools too.
 * @param {HeapGraph} graph
 * @param {number} socket
 */
function checkedOutOf (graph, socket) {
  if (graph.strings.indexOf('sockets') < 0) return -1
  const list = findRetainer(graph, socket, isOriginList)
  const byOrigin = list < 0 ? -1 : findRetainer(graph, list, isPoolTable)
  return byOrigin < 0 ? -1 : findRetainer(graph, byOrigin, isPool)
}

/**
 * An element retainer from an origin's list of busy sockets in a pool.
 * @param {EdgeCursor} edge
 */
function isOriginList (edge) {
  return edge.is('element') && findRetainer(edge.graph, edge.source, isPoolTable) >= 0
}

/**
 * A property retainer from a pool's table of busy sockets by origin.
 * @param {EdgeCursor} edge
 */
function isPoolTable (edge) {
  return edge.is('property') && findRetainer(edge.graph, edge.source, isPool) >= 0
}

/**
 * The `sockets` of a pool: the object holding it also has `freeSockets`.
 * @param {EdgeCursor} edge
 */
function isPool (edge) {
  return edge.is('property', 'sockets') && propertyTarget(edge.graph, edge.source, 'freeSockets') >= 0
}

/**
 * The object a socket belongs to: among the objects that reach it over property and element
 * references within MAX_HOLDER_STEPS, past Node's connection machinery and plain containers, the
 * nearest emitter (clients and agents emit their connection events; a parser or a request record
 * that also points at the socket does not), else the nearest one; -1 when there is none.
 * @param {HeapAnalysis} analysis
 * @param {number} socket
 * @param {EdgeCursor} edge  a cursor of the analysis's graph to walk with
 */
function socketOwner (analysis, socket, edge) {
  const { graph, classes, classOf } = analysis
  let level = [socket]
  const seen = new Set(level)
  let nearest = -1
  for (let step = 0; step < MAX_HOLDER_STEPS && level.length > 0; step++) {
    /** @type {number[]} */
    const next = []
    for (const o of level) {
      for (edge.retainers(o); edge.next();) {
        if (!edge.is('property') && !edge.is('element')) continue
        const source = edge.source
        if (seen.has(source) || graph.nodeTypes[source] !== graph.nodeType.object) continue
        seen.add(source)
        const name = classes.names[classOf[source]]
        if (MACHINERY.has(name) || name.startsWith('system /') || name.startsWith('{')) {
          next.push(source)
          continue
        }
        if (propertyTarget(graph, source, '_events') >= 0) return source
        if (nearest < 0) nearest = source
      }
    }
    if (nearest >= 0) return nearest
    level = next
  }
  return -1
}
