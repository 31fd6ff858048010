// growing-queue's words: the title, the notes and the fix of a queue (a linked list of tasks) that
// only grows.

import { bytesText, countText } from '../evidence-notes.js'
import { librarySubject } from '../collections/collection-words.js'
import { percent } from '../growth-evidence.js'
/** @import {LibraryHandle} from '../library-handle.js' */
/** @import {SourceLocation} from '../finding.js' */

export const ID = 'growing-queue'

/** The reasons for a finding's confidence, a clause per fact. */
export const QUEUE_REASONS = Object.freeze({
  fresh: (/** @type {number} */ share) => `${percent(share)} of the new entries were pushed since the first snapshot`,
  callback: 'the entries wait with the program\'s callback, which has not run'
})

/**
 * @param {string} name  the list as the program or the library names it (`queueHead`, `_tasks`)
 * @param {string} nodeClass  its nodes' class
 * @param {LibraryHandle | null} handle  the library's object that keeps it, when a library's
 * @param {number[]} counts  nodes per snapshot
 */
export function queueTitle (name, nodeClass, handle, counts) {
  const subject = handle === null ? `${name} (a linked list of ${nodeClass})` : `${name} of ${librarySubject(handle)}, a linked list of ${nodeClass}`
  return `A queue keeps growing: ${subject} holds ${counts.map(countText).join(' → ')} waiting entries, and its worker takes them out more slowly than they come, or not at all.`
}

/**
 * @param {{bytesPerNode: number, valueClasses: string[], callback: SourceLocation | null, library: string | null}} facts
 * @returns {string[]}
 */
export function queueNotes ({ bytesPerNode, valueClasses, callback, library }) {
  const notes = [`~${bytesText(bytesPerNode)} per waiting entry, with what it was given`]
  if (valueClasses.length > 0) notes.push(`the entries hold ${valueClasses.join(', ')}`)
  if (callback !== null) notes.push(`pushed with the callback at ${callback.file}:${callback.line}, which has not run for any of them`)
  if (library !== null) notes.push(`the queue belongs to ${library}; its worker is the program's`)
  return notes
}

/**
 * @param {LibraryHandle | null} handle
 * @returns {{summary: string, snippet: string}}
 */
export function queueFix (handle) {
  const queue = handle !== null && /^[A-Za-z_$][\w$.]*$/.test(handle.accessor) ? handle.accessor : 'queue'
  return {
    summary: `the worker never finishes some tasks (a callback it never calls, a promise that never settles, a reply that never comes), or finishes them more slowly than they are pushed. Give every task a deadline, so that the worker finishes it even when what it waits for does not answer, and push only while ${queue} has room (check its length against a limit, or wait for it to drain), rejecting or shedding work beyond that instead of queueing without end.`,
    snippet: `// backpressure: no more than LIMIT waiting\nif (${queue}.length() >= LIMIT) throw new Error('busy, try again later')\n// every task finishes, even when what it waits for never answers\nconst result = await Promise.race([work(task), rejectAfter(10_000)])`
  }
}
