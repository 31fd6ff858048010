// The words of a middleware-accumulation finding: its title, its notes, its fix (middleware, or an
// interceptor) and the reasons for its confidence.

import { bytesText, countText, namedBytes, notesOf } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
/** @import {SourceLocation} from '../finding.js' */

/** How the code at the finding's location relates to the list, for the card. */
export const REGISTER_ROLE = 'registered per request'

/** Why the confidence is what it is: one clause per fact the matcher weighs. */
export const MIDDLEWARE_REASONS = Object.freeze({
  /** @param {number} share  of the growth row's retained growth, what the new elements hold */
  share: (share) => `its new elements hold ${percent(share)} of the growth row's retained growth`,
  /**
   * @param {number} share  of the new handlers, those that are one function
   * @param {SourceLocation} location  that function's
   */
  location: (share, location) => `${percent(share)} of the new handlers are one function, at ${location.file}:${location.line}`,
  /** @param {string} listName */
  listName: (listName) => `the array is kept under '${listName}', a handler-list name`,
  /** @param {string[]} recordFields */
  records: (recordFields) => `its entries are handler records ({${recordFields.join(', ')}})`
})

/**
 * @param {boolean} interceptor  the handlers are interceptors, not middleware
 * @param {string} where  the list as the program reaches it (`app.stack`)
 * @param {string} holderClass  the class of the object holding it, '' when unknown
 * @param {number[]} counts  handlers per snapshot
 */
export function middlewareTitle (interceptor, where, holderClass, counts) {
  const kind = interceptor ? 'An interceptor' : 'A middleware function'
  return `${kind} is registered on ${where}${holderClass === '' ? '' : ` (${holderClass})`} on every request and never removed: ${counts.map((c) => countText(c)).join(' → ')} handlers.`
}

/**
 * The card's lines.
 * @param {{fromLocation: number, handlers: number, recordFields: string[], bytesEach: number,
 *   variables: Array<{name: string, bytes: number}>}} facts  fromLocation: new handlers that are the
 *   located function, of `handlers` new ones; bytesEach: what one keeps; variables: what their scopes keep
 */
export function middlewareNotes ({ fromLocation, handlers, recordFields, bytesEach, variables }) {
  return notesOf([
    `${countText(fromLocation)} of ${countText(handlers)} new handlers are this function${recordFields.length === 0 ? '' : `, each in a {${recordFields.join(', ')}} record`}`,
    `~${bytesText(bytesEach)} per handler${variables.length === 0 ? '' : `; they capture ${namedBytes(variables)}`}`,
    'every later request runs through all of them'
  ])
}

/**
 * @param {string | null} dotted  the list as the path names it (`client.interceptors.request.handlers`)
 * @param {boolean} interceptor
 * @returns {{summary: string, snippet: string}}
 */
export function middlewareFix (dotted, interceptor) {
  const names = (dotted ?? '').split('.').slice(0, -1)
  const target = names.length > 0 && names.every((name) => /^[A-Za-z_$][\w$]*$/.test(name)) ? names.join('.') : interceptor ? 'client.interceptors.request' : 'app'
  if (interceptor) {
    return {
      summary: 'register the interceptor once at start-up, not per request; one that must be per request is ejected when the request ends.',
      snippet: `// at start-up, once:\n${target}.use(addAuth)\n// per request only with eject:\nconst id = ${target}.use(fn)\nres.once('close', () => ${target}.eject(id))`
    }
  }
  return {
    summary: 'register middleware once at start-up, not inside the request handler; pass per-request values on req or res.locals instead of in a new function.',
    snippet: `// at start-up, once:\n${target}.use(checkAudience)\n// in the handler: no ${target}.use(); hand data to it on the request\nres.locals.audience = audience`
  }
}
