// pending-promises: promises that never settle keep what waits on them. Two shapes, a module each
// in promises/:
//
//   reaction-chains.js  one long-lived pending promise collects a reaction per call (`.then`,
//                       `await`, each input of Promise.race): a shutdown signal, a "ready" promise
//                       that failed silently
//   kept-promises.js    a collection keeps a pending promise per call (usually through its resolve
//                       function, in a list of waiters nobody resolves): each awaiting async
//                       function stays suspended with its locals
//
// How the heap holds a promise's reactions and their handlers is in promises/promise-reactions.js,
// the words in promises/promise-words.js.

import { keptPromises } from './promises/kept-promises.js'
import { ID } from './promises/promise-words.js'
import { reactionChains } from './promises/reaction-chains.js'
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export { ID }

/** @type {Signature} */
export const pendingPromises = { id: ID, match: matchPendingPromises }

/**
 * Promises that collect reactions first, then, among the rows that are no promise's, the
 * collections of pending promises.
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchPendingPromises (input) {
  const { matches, otherRows } = reactionChains(input)
  matches.push(...keptPromises(input, otherRows))
  return matches.sort((a, b) => a.group - b.group)
}
