// retained-sockets: connections a program keeps, one module per shape in sockets/:
//
//   open-connections.js     outgoing connections left open: a client made per call and never
//                           closed keeps its socket open, held by its native handle (no growth row)
//   checked-out-sockets.js  sockets checked out of a keep-alive pool and never given back, because
//                           their responses are never read to the end
//   other-ends.js           the accepted ends of connections this process opened to itself, claimed
//                           by the finding of the side that opens them
//   kept-sockets.js         sockets a collection of the program keeps after they close (or open
//                           ones piling up), recognised by the class of a growth row's new objects
//
// A socket is a net.Socket or tls.TLSSocket: an object with readable and writable stream state
// (sockets/socket-nodes.js).

import { keptSockets } from './sockets/kept-sockets.js'
import { openConnections } from './sockets/open-connections.js'
import { claimAcceptedEnds } from './sockets/other-ends.js'
import { ID } from './sockets/socket-words.js'
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export { ID }

/** @type {Signature} */
export const retainedSockets = { id: ID, match: matchRetainedSockets }

/**
 * Outgoing connections left open (and sockets checked out of a pool) first, then the rows that are
 * their other ends, then the rows whose sockets a collection of the program keeps.
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchRetainedSockets (input) {
  const { detail } = input
  const matches = openConnections(input, detail.ownerRows.only(input.candidates))
  claimAcceptedEnds(input, matches)
  matches.push(...keptSockets(input, matches))
  return matches.sort((a, b) => a.group - b.group)
}
