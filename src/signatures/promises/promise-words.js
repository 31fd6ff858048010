// The words of a pending-promises finding, for each of its shapes: one promise that never settles
// and collects a reaction per call, and pending promises kept in a collection (the program's list
// of waiters, or a library's). Titles, notes, fixes and the reasons for the confidence.

import { bytesText, countText, notesOf } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
import { librarySubject } from '../collections/collection-words.js'
/** @import {SourceLocation} from '../finding.js' */
/** @import {LibraryHandle} from '../library-handle.js' */

/** The signature's id, never renamed. */
export const ID = 'pending-promises'

/** How the code at a use site relates to the promise, for the card. */
export const USE_ROLE = 'uses it'

/** Why the confidence is what it is: one clause per fact the matcher weighs. */
export const PROMISE_REASONS = Object.freeze({
  pending: 'the promise is still pending: a settled promise drops its reactions',
  /** @param {number} share  of the growth row's retained growth, what the reactions retain */
  reactions: (share) => `its reactions retain ${percent(share)} of the growth row's retained growth`,
  /**
   * @param {number} share  of the new reactions' program handlers, those from the located code
   * @param {SourceLocation} location
   */
  handlers: (share, location) => `${percent(share)} of the new reactions' program handlers come from ${location.file}:${location.line}`,
  builtInHandlers: 'the handlers are built-in functions (await or Promise.race), so the heap does not name the code that subscribes',
  /** @param {number} share  of the growth row's new objects, what the pending promises retain */
  held: (share) => `pending promises retain ${percent(share)} of the growth row's new objects`,
  awaited: 'each is awaited or has handlers and none has settled: whatever waits on them stays suspended',
  /**
   * @param {number} share  of the promises, those awaited by the located code
   * @param {SourceLocation} location
   */
  awaitedAt: (share, location) => `${percent(share)} of them are awaited by code at ${location.file}:${location.line}`
})

/**
 * One promise that never settles.
 * @param {string | null} name  the promise's name on its path
 * @param {number} promiseId
 * @param {number[]} counts  reactions per snapshot
 */
export function reactionsTitle (name, promiseId, counts) {
  const what = name === null ? `Promise @${promiseId}` : `${name} (Promise)`
  return `${what} never settles and collects a reaction per call: ${counts.map(countText).join(' → ')} reactions.`
}

/**
 * @param {number} newReactions
 * @param {number} bytesEach  what one reaction keeps
 * @param {boolean} builtIn  the handlers are built-ins that do not name the caller
 * @param {string | null} name  the promise's name on its path
 * @param {{also: SourceLocation[]} | null} uses  where the program uses the promise, when the
 *   finding's location is one of those uses
 */
export function reactionsNotes (newReactions, bytesEach, builtIn, name, uses) {
  return notesOf([
    `${countText(newReactions)} reactions added since the first snapshot, ~${bytesText(bytesEach)} each`,
    builtIn && `handlers are await or Promise.race built-ins: the heap does not name the caller${uses === null ? '' : `; the location is where the program uses ${name ?? 'the promise'}`}`,
    ...(uses === null ? [] : uses.also.map((at) => `also uses it at ${at.file}:${at.line}:${at.column}${at.function === '' ? '' : ` (${at.function})`}`))
  ])
}

/**
 * @returns {{summary: string, snippet: string}}
 */
export function reactionsFix () {
  return {
    summary: 'do not subscribe per request to a promise that may never settle (nor race against one): listen on an AbortSignal and remove the listener when the request ends, or settle the promise.',
    snippet: "const onAbort = () => res.destroy()\nsignal.addEventListener('abort', onAbort, { once: true })\nres.on('close', () => signal.removeEventListener('abort', onAbort))"
  }
}

/**
 * Pending promises kept in a collection.
 * @param {string | null} name  the collection's name on its path
 * @param {string} ownerClass  the class of the row's owner
 * @param {LibraryHandle | null} handle  the library object the collection belongs to
 * @param {SourceLocation | null} location  the code that awaits most of them
 * @param {number[]} counts  pending promises per snapshot
 */
export function heldTitle (name, ownerClass, handle, location, counts) {
  const where = location === null || location.function === '' ? '' : ` (awaited in ${location.function})`
  const kept = name === null ? ownerClass : `${name} (${ownerClass})`
  const subject = handle === null ? kept : `${kept} of ${librarySubject(handle)}`
  return `Promises that never settle are kept in ${subject}${where}: ${counts.map(countText).join(' → ')} pending promises.`
}

/**
 * @param {number} count  new pending promises
 * @param {number} bytesEach  what one keeps, with the entry that holds it
 * @param {LibraryHandle | null} handle
 */
export function heldNotes (count, bytesEach, handle) {
  return notesOf([
    `${countText(count)} new pending promises, ~${bytesText(bytesEach)} each, none settled`,
    handle !== null && `the list belongs to ${handle.library}; the program awaits what it hands out`
  ])
}

/**
 * The remedy when the program's own list keeps the waiters.
 * @param {string | null} name  the list's name on its path
 * @returns {{summary: string, snippet: string}}
 */
export function waitersFix (name) {
  const list = name !== null && /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'waiters'
  return {
    summary: 'settle every promise you hand out: resolve or reject the waiters (on success, error and timeout) and remove them from the list, or give each wait a deadline.',
    snippet: `for (const waiter of ${list}.splice(0)) waiter.resolve(value) // on success\nfor (const waiter of ${list}.splice(0)) waiter.reject(error) // on failure and on timeout`
  }
}

/**
 * The remedy when the waiters sit in a library's object: what they wait for (a resource given back,
 * a task finishing, a server's reply) never comes, so the program has to give back what it takes
 * and put a deadline on each wait; the object's own methods are named as the heap shows them.
 * @param {LibraryHandle} handle
 * @param {string | null} release  the object's method that gives a resource back
 * @param {string | null} clear  its method that drops what still waits
 * @returns {{summary: string, snippet: string}}
 */
export function libraryWaitFix (handle, release, clear) {
  const variable = /^[A-Za-z_$][\w$.]*$/.test(handle.accessor) ? handle.accessor : 'client'
  const drop = clear === null ? '' : ` ${variable}.${clear}() drops what still waits (on shutdown, say).`
  const what = `${handle.className} from ${handle.library}`
  if (release !== null) {
    return {
      summary: `callers wait on ${variable} (${what}) for something that is never given back: give back what you take on every path, errors included (try/finally), and set a deadline on the wait.${drop}`,
      snippet: `const resource = await ${variable}.acquire()\ntry {\n  /* ... */\n} finally {\n  ${variable}.${release}(resource)\n}`
    }
  }
  return {
    summary: `calls into ${variable} (${what}) wait for work that never finishes or a reply that never comes: put a deadline on every call (a timeout option of the library, or an AbortSignal.timeout()) so that it settles, and cap how many may wait.${drop}`,
    snippet: '// every call settles, one way or the other\nconst result = await Promise.race([call(), rejectAfter(5_000)])'
  }
}
