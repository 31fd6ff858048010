// The words of a closure-retention finding, for its two shapes: many closures of one function
// of the program that capture per-call objects (copy what the callback reads), and one long-lived
// scope whose variable keeps growing (keep a bounded window, or reset it).

import { percent } from '../growth-evidence.js'
import { bytesText, countText, namedBytes, notesOf } from '../evidence-notes.js'
/** @import {SourceLocation} from '../finding.js' */

/** The facts behind a closure-retention finding's confidence, one clause each (the matcher weighs them). */
export const CLOSURE_REASONS = Object.freeze({
  /** @param {number} share  of the row's new objects, what the closures of one function retain */
  rowShare: (share) => `closures of this one function retain ${percent(share)} of the growth row's new objects`,
  /**
   * @param {number} share  of what the closures retain, what their captured variables hold
   * @param {string[]} names
   */
  captured: (share, names) => `${percent(share)} of that is held by captured variables (${names.join(', ')})`,
  /** @param {number} share  of what the row's new closures retain, this function's */
  oneFunction: (share) => `${percent(share)} of the bytes new closures of the row retain come from this function`,
  /**
   * @param {number} share  of the row's new objects, what the scope's variables hold
   * @param {string[]} names
   */
  scopeVariables: (share, names) => `the scope's variable${names.length === 1 ? '' : 's'} ${names.join(', ')} hold${names.length === 1 ? 's' : ''} ${percent(share)} of the row's new objects`,
  oneScope: 'one long-lived scope: the variable is reassigned to a bigger value each time'
})

/**
 * @param {SourceLocation} location  the closures' function
 * @param {string[]} names  the captured variables
 * @param {string} holder   what keeps the closures, as the card names it
 * @param {number[]} counts
 */
export function closuresTitle (location, names, holder, counts) {
  const where = location.function === '' ? 'one anonymous function' : location.function
  return `Closures created by ${where} capture ${names.join(', ')} and are kept by ${holder}: ${counts.map(countText).join(' → ')} closures.`
}

/**
 * @param {Array<{name: string, bytes: number}>} variables
 * @param {number} bytesPerClosure
 */
export function closuresNotes (variables, bytesPerClosure) {
  return notesOf([
    `captures ${namedBytes(variables)} (all closures together)`,
    `~${bytesText(bytesPerClosure)} per closure`
  ])
}

/**
 * @param {string[]} names  captured variables, largest first
 * @returns {{summary: string, snippet: string}}
 */
export function closuresFix (names) {
  const captured = names.length > 0 ? names : ['req']
  const first = captured[0]
  return {
    summary: `capture only what the callback uses: copy the fields it reads into locals (primitives) before creating it, so it no longer keeps ${names.join(', ')} alive; and bound or drain the list that holds the callbacks.`,
    snippet: `// before: () => use(${captured.join(', ')}) keeps ${captured.join(', ')} alive\nconst value = ${first}.field // copy what the callback reads\nconst callback = () => use(value)`
  }
}

/**
 * @param {SourceLocation | null} location  the function whose scope it is
 * @param {string[]} names
 * @param {number[]} counts
 */
export function scopeTitle (location, names, counts) {
  return `The scope of ${location === null || location.function === '' ? 'a long-lived closure' : location.function} keeps growing through ${names.join(', ')}: ${counts.map(countText).join(' → ')} objects.`
}

/** @param {Array<{name: string, bytes: number}>} top */
export function scopeNotes (top) {
  return notesOf([`the scope holds ${namedBytes(top)} of new objects`])
}

/**
 * @param {string[]} names
 * @returns {{summary: string, snippet: string}}
 */
export function scopeFix (names) {
  return {
    summary: `stop accumulating in ${names.join(', ')}: keep only what is still needed (a bounded window, an aggregate), or reset the variable when its work is done.`,
    snippet: `${names[0]} = null // when done; or keep a bounded window instead of the whole history`
  }
}
