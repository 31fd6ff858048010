// The leak signatures in the order they are tried. Specific shapes come before general ones: a
// listener list is also an array and a timer also holds a closure, so the listener and timer
// matchers claim their growth rows before the collection and closure matchers see them.
//
// A pending promise's reactions and a set of sockets usually hold closures too, so
// pending-promises and retained-sockets come before closure-retention (retained-sockets skips
// sockets it finds under a new closure or scope: those are a closure's doing). closure-retention
// comes before unbounded-collection and growing-array: a list or map whose new entries are closures
// of one function is claimed by it only when those closures' captured variables hold most of the
// row's growth (then what the closure captures is the fix, beside the bound); closures that hold
// little (a callback capturing a number) are left to the collection matchers.
//
// growing-queue comes last: timer lists, listener lists and promise reactions are linked lists too,
// and their own signatures explain them.
//
// middleware-accumulation comes first: a router's stack of Layer records or a client's interceptor
// records under `handlers` would also pass for an observer list, but registering once at start-up
// is their fix; it leaves bare functions under listener names and listener records to
// listener-accumulation. async-context-retention comes before pending-promises: when a promise
// created in a request's AsyncLocalStorage context is what keeps the request's store, the store is
// most of what leaks and leaving the context is the fix. open-handles comes after retained-sockets,
// which knows more about a socket than that its handle is open.
//
// Adding a signature is a matcher module (`export const name = { id, match }`; a folder beside it
// for its shapes and its words, as listeners/ and sockets/ are), two lines here (its import and
// its place in the list) and its id in ids.js, which the CLI reads without loading the matchers. The imports follow the list's order, so both lines go in at the same place.
// The order cannot come from the imports themselves: a module's namespace object lists its
// exports alphabetically, and a list of paths loaded with import() would hide the modules from
// tsc and eslint.

import { middlewareAccumulation } from './middleware-accumulation.js'
import { listenerAccumulation } from './listener-accumulation.js'
import { forgottenTimer } from './forgotten-timer.js'
import { asyncContextRetention } from './async-context-retention.js'
import { pendingPromises } from './pending-promises.js'
import { retainedSockets } from './retained-sockets.js'
import { openHandles } from './open-handles.js'
import { closureRetention } from './closure-retention.js'
import { unboundedCollection } from './unbounded-collection.js'
import { growingArray } from './growing-array.js'
import { growingQueue } from './growing-queue.js'
import { prototypeChain } from './prototype-chain.js'
/** @import {Signature} from './finding.js' */

/** @type {Signature[]} */
export const SIGNATURES = [
  middlewareAccumulation,
  listenerAccumulation,
  forgottenTimer,
  asyncContextRetention,
  pendingPromises,
  retainedSockets,
  openHandles,
  closureRetention,
  unboundedCollection,
  growingArray,
  prototypeChain,
  growingQueue
]
