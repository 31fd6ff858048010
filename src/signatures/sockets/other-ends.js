// Connections this process opened to itself: a server of the process accepts the other end of
// each outgoing connection it leaves open. Rows that hold those accepted sockets (or objects
// wrapping one each, a WebSocket over its socket) are claimed by the open-connections finding
// with about as many new sockets, with a note, rather than reported as a second leak.

import { collectionKind, collectionOfStore, forEachEntry } from '../../query/collection-entries.js'
import { EdgeCursor, findReference, propertyTarget } from '../../query/references.js'
import { MIN_NEW_SOCKETS, isAccepted, isOpen, isSocketNode, socketClasses } from './socket-nodes.js'
import { STAY_OPEN, pileUpIn, withOtherEndsNote } from './socket-words.js'
/** @import {Match, SignatureInput} from '../finding.js' */

/** Owners of a row looked into as collections of sockets (a row of many owners is not one collection). */
const MAX_COLLECTION_OWNERS = 3
/** Classes a program keeps connections in. */
const COLLECTION_CLASSES = new Set(['Set', 'Map', 'Array', 'Object'])

/**
 * Growth rows owned by open sockets that a server of this process accepted, when an open-connections
 * finding counts about as many new outgoing sockets as that server accepted: the same connections
 * seen from the other end (a client and its server in one process), claimed by that finding rather
 * than reported again as a collection of sockets.
 * @param {SignatureInput} input
 * @param {Match[]} matches the open-connections findings made so far; updated
 */
export function claimAcceptedEnds (input, matches) {
  if (matches.length === 0) return
  const { detail } = input
  const { analyses } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  const isSocket = socketClasses(last)
  const isEnd = (/** @type {number} */ o) => isSocketNode(last, o, isSocket) && isOpen(last, o) && isAccepted(last, o)
  /** @type {Map<number, {total: number, rows: number[]}>} new accepted open sockets per server */
  const perServer = new Map()
  const serverOf = (/** @type {number} */ socket) => propertyTarget(graph, socket, 'server')
  const edge = new EdgeCursor(graph)
  for (const o of detail.newNodes) {
    if (!isEnd(o)) continue
    const tally = perServer.get(serverOf(o)) ?? { total: 0, rows: [] }
    perServer.set(serverOf(o), tally)
    tally.total++
  }
  if (perServer.size === 0) return
  // Rows that are these sockets, or objects wrapping one each (a WebSocket over its socket); a row
  // whose owners are mostly other objects is a leak of its own.
  const taken = new Set(matches.flatMap((m) => [m.group, ...(m.also ?? [])]))
  for (const g of input.candidates) {
    if (taken.has(g)) continue
    const owners = detail.groupOwners[g]
    // A collection owner (Node 24's timer lists keep the sockets themselves, leaving the set that
    // holds them an owner of its table only) counts by its entries.
    const ends = owners.map((o) => (isEnd(o) ? o : wrappedSocket(edge, o, isEnd)))
      .map((end, k) => (end >= 0 || owners.length > MAX_COLLECTION_OWNERS ? end : collectedSocket(edge, owners[k], isEnd)))
    const found = ends.filter((o) => o >= 0)
    if (found.length * 2 < ends.length) continue
    perServer.get(serverOf(found[0]))?.rows.push(g)
  }
  for (const { total, rows: ends } of perServer.values()) {
    const newSockets = (/** @type {Match} */ m) => Number(m.finding.evidence.newSockets)
    const mirrors = matches.filter((m) => Math.abs(newSockets(m) - total) <= 0.1 * Math.max(total, newSockets(m)))
    if (total < MIN_NEW_SOCKETS || mirrors.length === 0 || ends.length === 0) continue
    const path = input.result.growth[ends[0]].path
    // Named only when a collection keeps them (a server's set of clients); through Node's timer
    // lists (their idle timeouts) there is no place of the program's to name.
    const named = path.findLast((step) => step.edgeType === 'property' || step.edgeType === 'context')
    const where = named !== undefined && COLLECTION_CLASSES.has(named.node) ? pileUpIn(named.edge, named.node) : STAY_OPEN
    // The heap does not say which connection an accepted socket is the other end of: with several
    // findings of the same size, the rows are claimed without naming one of them as the cause.
    addOtherEnds(mirrors[0], ends, mirrors.length === 1 ? where : null)
  }
}

/**
 * An entry of a Set, Map or array `o` stands for (or the collection whose store `o` is), when at
 * least half of its entries are sockets `isEnd` accepts or wrap one; else -1.
 * @param {EdgeCursor} edge  a cursor of the graph to walk with
 * @param {number} o
 * @param {(o: number) => boolean} isEnd
 */
function collectedSocket (edge, o, isEnd) {
  const { graph } = edge
  const collection = collectionOfStore(graph, o)
  const kind = collectionKind(graph, collection)
  if (kind === null || kind === 'object') return -1
  let entries = 0
  let ends = 0
  let first = -1
  forEachEntry(graph, collection, kind, (key, value) => {
    entries++
    const end = [key, value].map((x) => (x < 0 ? -1 : isEnd(x) ? x : wrappedSocket(edge, x, isEnd))).find((x) => x >= 0) ?? -1
    if (end < 0) return
    ends++
    if (first < 0) first = end
  })
  return entries > 0 && ends * 2 >= entries ? first : -1
}

/**
 * The socket an object wraps or works for: the first of its properties that `isEnd` accepts, or
 * the first element of a property that is an array (a timer's arguments: Node's idle timer of a
 * socket gets the socket so); -1 when there is none.
 * @param {EdgeCursor} edge  a cursor of the graph to walk with
 * @param {number} o
 * @param {(o: number) => boolean} isEnd
 */
function wrappedSocket (edge, o, isEnd) {
  const { graph } = edge
  const isEndElement = (/** @type {EdgeCursor} */ element) => element.is('element') && isEnd(element.target)
  for (edge.references(o); edge.next();) {
    if (!edge.is('property')) continue
    const target = edge.target
    if (isEnd(target)) return target
    if (graph.nodeTypes[target] !== graph.nodeType.object || graph.nodeName(target) !== 'Array') continue
    const element = findReference(graph, target, isEndElement)
    if (element >= 0) return element
  }
  return -1
}

/**
 * Rows that hold the other ends of a finding's open connections become that finding's, with a note.
 * @param {Match} match
 * @param {number[]} rows
 * @param {string | null} where  the end of the note (pileUpIn(), STAY_OPEN); null: no note
 */
export function addOtherEnds (match, rows, where) {
  match.also = [...(match.also ?? []), ...rows]
  if (where !== null) match.finding.evidence.notes = withOtherEndsNote(match.finding.evidence.notes ?? [], where)
}

/**
 * Whether a finding already made counts outgoing connections left open (open-connections.js: the
 * class of the objects holding them is in its evidence) growing by about `perStep`.
 * @param {Match} match
 * @param {number} perStep
 */
export function isMirror (match, perStep) {
  const { evidence } = match.finding
  return evidence.holderClass !== undefined && Math.abs(evidence.perStep - perStep) <= 0.1 * Math.max(perStep, evidence.perStep)
}
