// Sockets checked out of a shared connection pool and never given back. A keep-alive agent (Node's
// http.Agent, and everything built like it) takes a socket back only when the response has been
// read to its end; a program that looks at the status and never reads the body keeps one socket
// busy per call, each with its request, its response and the unread bytes. Counted per pool in
// every snapshot (open-sockets.js); the response each socket waits on says whether the body
// arrived unread.

import { oddballValue } from '../../query/heap-values.js'
import { propertyTarget } from '../../query/references.js'
import { retainerPath } from '../../analysis/retainer-paths.js'
import { holderName } from '../collection-growth.js'
import { evidenceOf, judgeGrowth } from '../growth-evidence.js'
import { HOLDER_ROLES, holderLocation } from '../holder-location.js'
import { constructorOf } from '../library-handle.js'
import { useOffsets, writeSites } from '../write-sites.js'
import { ID, POOL_CONSTRUCTOR_ROLE, SOCKET_REASONS, USE_ROLE, checkedOutFix, checkedOutNotes, checkedOutTitle } from './socket-words.js'
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */
/** @import {Match, SignatureInput, SourceLocation} from '../finding.js' */
/** @import {HolderLocation} from '../holder-location.js' */
/** @import {OpenSockets} from './open-sockets.js' */

/**
 * The finding for sockets checked out of one pool that grow in every step.
 * @param {SignatureInput} input
 * @param {number} group the growth row of the sockets, or -1
 * @param {OpenSockets} tally the last snapshot's
 * @param {number[]} fresh the new sockets among them
 * @param {number[]} counts per snapshot
 * @param {number[]} retained per snapshot
 * @returns {Match}
 */
export function checkedOutMatch (input, group, tally, fresh, counts, retained) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  const { graph } = last
  const pool = tally.holders[0]
  const { name: className, location: constructorAt } = constructorOf(last, pool, cwd, names)
  const path = retainerPath(last, pool, { readable: true, names })
  const name = holderName(path) ?? `${className} @${graph.nodeIds[pool]}`
  const unread = fresh.filter((o) => responseOf(graph, o) === 'unread').length
  const waiting = fresh.filter((o) => responseOf(graph, o) === 'waiting').length
  const unreadShare = unread / fresh.length
  const holder = holderLocation(last, path, cwd, names)
  // The line that hands the pool to a request is where its response is dropped; the function
  // the heap places the pool's holder in is any of the module's.
  const uses = writeSites(last, path, holder, { offsetsOf: useOffsets, role: USE_ROLE, names })
  const located = poolLocation(path, uses, holder, constructorAt)
  const bytesPerSocket = (retained[retained.length - 1] - retained[0]) / Math.max(1, counts[counts.length - 1] - counts[0])
  const { confidence, reasons } = judgeGrowth(counts, [
    { weight: 0.1, reason: SOCKET_REASONS.checkedOut(name) },
    unread > 0
      ? { weight: 0.05 * unreadShare, reason: SOCKET_REASONS.unread(unreadShare) }
      : { weight: 0, reason: SOCKET_REASONS.waiting }
  ])
  const mostUnread = unread * 2 >= fresh.length
  return {
    group,
    finding: {
      signature: ID,
      title: checkedOutTitle(name, className, counts, mostUnread ? unread : null),
      confidence,
      reasons,
      owner: { id: graph.nodeIds[pool], name: className, type: graph.nodeTypeName(pool) },
      path,
      evidence: {
        ...evidenceOf('sockets', counts, retained, 1),
        newSockets: fresh.length,
        closedSockets: 0,
        bytesPerSocket: Math.round(bytesPerSocket),
        unreadResponses: unread,
        awaitingResponse: waiting,
        notes: checkedOutNotes(name, { fresh: fresh.length, bytesPerSocket, unread, waiting }, uses === null ? [] : uses.also),
        locationRole: located?.role ?? null
      },
      location: located?.location ?? null,
      members: fresh,
      fix: checkedOutFix(name, mostUnread)
    }
  }
}

/**
 * Where a pool's finding points: the line that hands the pool to a request, else the code holding
 * the pool, else the pool's constructor. Without the script's text, a pool in a module scope has
 * no line of its own: every function of the module closes over that scope (the holder location
 * would be any of them), and the path already names the module and the variable.
 * @param {Step[]} path ends at the pool
 * @param {import('../write-sites.js').WriteSites | null} uses
 * @param {HolderLocation | null} holder
 * @param {SourceLocation | null} constructorAt
 * @returns {{location: SourceLocation, role: string} | null}
 */
function poolLocation (path, uses, holder, constructorAt) {
  if (uses !== null) return { location: uses.location, role: uses.role }
  const inModule = path.length >= 2 && path[path.length - 2].module !== undefined
  if (holder !== null && !(inModule && holder.how === 'closure')) return { location: holder.location, role: HOLDER_ROLES[holder.how] }
  return !inModule && constructorAt !== null ? { location: constructorAt, role: POOL_CONSTRUCTOR_ROLE } : null
}

/**
 * What the request on a socket waits for: 'unread' when its response has fully arrived
 * (`complete`) and still sits there, 'waiting' when no response has come, else 'other'.
 * @param {HeapGraph} graph
 * @param {number} socket
 * @returns {'unread' | 'waiting' | 'other'}
 */
function responseOf (graph, socket) {
  const request = propertyTarget(graph, socket, '_httpMessage')
  if (request < 0 || oddballValue(graph, request) !== null) return 'other'
  const response = propertyTarget(graph, request, 'res')
  if (response < 0 || oddballValue(graph, response) !== null) return 'waiting'
  return oddballValue(graph, propertyTarget(graph, response, 'complete')) === 'true' ? 'unread' : 'other'
}
