// The words of an open-handles finding: its title, its notes, its fix and the reasons for its
// confidence.

import { countText, notesOf } from '../evidence-notes.js'
/** @import {SourceLocation} from '../finding.js' */

/** Why the confidence is what it is: one clause per fact the matcher weighs. */
export const HANDLE_REASONS = Object.freeze({
  /** @param {string} native  the embedder node that holds each handle (`Node / FSEventWrap`) */
  native: (native) => `each is held only by its native handle (${native}), so it stays until it is closed`,
  /**
   * @param {number} count  functions from the most common place
   * @param {number} total  located functions the handles hold
   */
  handed: (count, total) => `${countText(count)} of ${countText(total)} functions they hold come from one place`
})

/**
 * @param {string} kind  the handle's class, with the program's wrapper class before it when they differ
 * @param {number[]} counts  open handles per snapshot
 * @param {string} native
 */
export function handleTitle (kind, counts, native) {
  return `${kind} handles are opened and never closed: ${counts.map(countText).join(' → ')} open, each held by its native handle (${native}).`
}

/**
 * @param {number} opened  new handles still open
 * @param {boolean} handed  the finding's location is a function handed to the handles
 */
export function handleNotes (opened, handed) {
  return notesOf([
    `${countText(opened)} opened since the first snapshot and still open`,
    handed && 'the location is a function handed to them: the call that opens each handle is next to it'
  ])
}

/**
 * @param {string} method  the method that closes one
 * @param {SourceLocation | null} handed  where the function handed to the handles is
 * @returns {{summary: string, snippet: string}}
 */
export function handleFix (method, handed) {
  return {
    summary: `keep what opened the handle and call its ${method}() when the work it serves ends (the request, the connection); unref() only stops it keeping the process alive, it stays open.`,
    snippet: `const handle = /* the call that opens it, next to ${handed ? `line ${handed.line}` : 'the code above'} */\nres.once('close', () => handle.${method}())`
  }
}
