// prototype-chain's words: the title, the notes and the fix of objects chained by their
// prototypes, each made from the one before, whose newest one something keeps.

import { bytesText, countText } from '../evidence-notes.js'
import { librarySubject } from '../collections/collection-words.js'
/** @import {LibraryHandle} from '../library-handle.js' */

export const ID = 'prototype-chain'

/** The reasons for a finding's confidence, a clause per fact. */
export const CHAIN_REASONS = Object.freeze({
  newest: 'what keeps the chain keeps its newest object, made since the first snapshot'
})

/**
 * @param {string} name  what keeps the newest object, as the program or the library names it
 *   (`ns.active`)
 * @param {string} nodeClass  the chained objects' class
 * @param {LibraryHandle | null} handle  the library's object that keeps it, when a library's
 * @param {number[]} counts  objects in the chain per snapshot
 */
export function chainTitle (name, nodeClass, handle, counts) {
  const keeper = handle === null ? name : `${name} of ${librarySubject(handle)}`
  return `${nodeClass} objects are chained by their prototypes, each made from the one before, and ${keeper} keeps the newest, so it keeps them all: ${counts.map(countText).join(' → ')} in the chain.`
}

/**
 * @param {{bytesPerObject: number, library: string | null}} facts
 * @returns {string[]}
 */
export function chainNotes ({ bytesPerObject, library }) {
  const notes = [`~${bytesText(bytesPerObject)} per object, with what it holds`]
  if (library !== null) notes.push(`the chain belongs to ${library}: each object it makes inherits from the one it made before`)
  return notes
}

/**
 * @param {LibraryHandle | null} handle
 * @returns {{summary: string, snippet: string}}
 */
export function chainFix (handle) {
  if (handle !== null) {
    return {
      summary: `${handle.library} makes each new object from the newest one (Object.create(current)) and keeps the newest: one that is entered and never left, or one made inside the one before, stays as the prototype of every later one. End each one it starts when its work is done (its exit or run with a callback, not enter alone); for a context per request, Node's AsyncLocalStorage keeps none of them after the request.`,
      snippet: "import { AsyncLocalStorage } from 'node:async_hooks'\nconst storage = new AsyncLocalStorage()\nstorage.run({ user }, () => handle(req, res))  // the store ends with the request"
    }
  }
  return {
    summary: 'each new object is made from the newest one (Object.create(current)), and what keeps the newest keeps every object before it through the prototypes. Make each from a fixed base instead, or put the one before back when the new one is done.',
    snippet: '// from a fixed base, not from the newest\nconst context = Object.create(base)\n// or, when nesting is meant, put the one before back when done\nconst previous = current\ncurrent = Object.create(previous)\ntry { work(current) } finally { current = previous }'
  }
}
