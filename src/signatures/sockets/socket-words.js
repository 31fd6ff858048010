// The words of a retained-sockets finding, for each of its shapes: sockets kept in a collection of
// the program, outgoing connections left open, sockets checked out of a pool and never given back,
// the note that claims the other ends of connections this process opened to itself, and the reasons
// for the confidence.

import { HOLDER_ROLES } from '../holder-location.js'
import { bytesText, countText, notesOf } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
/** @import {SourceLocation} from '../finding.js' */
/** @import {HolderLocation} from '../holder-location.js' */

/** The signature's id, never renamed. */
export const ID = 'retained-sockets'

/** How the code at a pool's use site relates to it, for the card. */
export const USE_ROLE = 'hands the pool to a request'
export const POOL_CONSTRUCTOR_ROLE = 'constructor of the pool'
export const HOLDER_CONSTRUCTOR_ROLE = 'constructor of the object holding the sockets'

const OTHER_ENDS = 'their other ends, accepted by a server in this process,'

/** Why the confidence is what it is: one clause per fact the matchers weigh. */
export const SOCKET_REASONS = Object.freeze({
  /** @param {number} share  of the growth row's new objects, what the sockets retain */
  share: (share) => `the sockets retain ${percent(share)} of the growth row's new objects`,
  /** @param {number} share  of the new sockets, the closed ones */
  closed: (share) => `${percent(share)} of the new sockets are closed (no handle): nothing but this reference keeps them`,
  stillOpen: 'the new sockets are still open: a connection pool or long-lived clients may explain them',
  /** @param {SourceLocation} location  the code holding the collection */
  heldAt: (location) => `held by code at ${location.file}:${location.line}`,
  /**
   * @param {number} freshHolders  new objects among those holding the open sockets
   * @param {string} className  their class
   * @param {number} perHolder  new open sockets per new holder
   */
  newHolders: (freshHolders, className, perHolder) => `${freshHolders} of the ${className} objects holding them are new, ~${perHolder.toFixed(1)} sockets each: one is made per call`,
  openOnly: 'the sockets are open (they have a handle) and nothing in the program holds their owners: only the connection keeps them',
  /** @param {string} name  the pool's name */
  checkedOut: (name) => `the sockets are checked out of ${name}, which takes a socket back only when its response has been read to the end`,
  /** @param {number} share  of the new sockets, those holding a complete response nobody read */
  unread: (share) => `${percent(share)} of the new ones hold a complete response nobody read`,
  waiting: 'their responses have not fully arrived: a slow upstream or a request never ended would look the same'
})

/**
 * @param {number[]} counts
 */
function countsText (counts) {
  return counts.map(countText).join(' → ')
}

/**
 * Sockets kept in a collection of the program.
 * @param {string} name   the collection's name
 * @param {string} className
 * @param {number[]} counts  sockets per snapshot
 * @param {number} closed    closed ones among the new ones
 */
export function keptTitle (name, className, counts, closed) {
  return closed > 0
    ? `Closed sockets are kept in ${name} (${className}): ${countsText(counts)} sockets, ${countText(closed)} of the new ones closed.`
    : `Open connections pile up in ${name} (${className}): ${countsText(counts)} sockets, none of the new ones closed.`
}

/**
 * @param {number} newSockets
 * @param {number} closed
 * @param {number} bytes  what the new sockets retain
 */
export function keptNotes (newSockets, closed, bytes) {
  return notesOf([
    `${countText(newSockets)} new sockets, ${closed === newSockets ? 'all' : closed === 0 ? 'none' : countText(closed)} closed, still referenced`,
    `~${bytesText(bytes / newSockets)} per socket`
  ])
}

/**
 * @param {HolderLocation['how']} how  how the code the finding points at holds the collection
 */
export function keptRole (how) {
  return how === 'closure' ? 'function that receives or holds the sockets' : HOLDER_ROLES[how]
}

/**
 * @param {string} name   the collection's name
 * @param {string} className
 * @param {number} closed  closed ones among the new sockets
 * @returns {{summary: string, snippet: string}}
 */
export function keptFix (name, className, closed) {
  if (closed === 0) {
    return {
      summary: `the connections are still open: their peers never disconnect. Close the ones whose work is done, and time out idle ones so that peers that go quiet cannot pile up in ${name} (for WebSockets, a ping heartbeat that terminates peers that stop answering).`,
      snippet: 'socket.setTimeout(60_000, () => socket.destroy()) // idle connections end; the close handler drops them'
    }
  }
  const variable = /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'connections'
  return { summary: `drop a socket from ${name} when it closes (and destroy idle ones you no longer need).`, snippet: removalSnippet(className, variable) }
}

/**
 * @param {string} kind the collection's class
 * @param {string} variable
 */
function removalSnippet (kind, variable) {
  if (kind === 'Map') return `${variable}.set(id, socket)\nsocket.once('close', () => ${variable}.delete(id))`
  if (kind === 'Array') return `${variable}.push(socket)\nsocket.once('close', () => ${variable}.splice(${variable}.indexOf(socket), 1))`
  return `${variable}.add(socket)\nsocket.once('close', () => ${variable}.delete(socket))`
}

/**
 * Outgoing connections left open.
 * @param {number[]} counts  open sockets per snapshot
 * @param {string} className  the class of the objects holding them
 * @param {string} from  ` from <package>`, ` (node:<module>)` or ''
 * @param {number} freshHolders  new ones among those objects
 */
export function openTitle (counts, className, from, freshHolders) {
  return `Outgoing connections are left open: ${countsText(counts)} open sockets held by ${className} objects${from}, ${countText(freshHolders)} of them new.`
}

/**
 * @param {number} fresh  new open sockets
 * @param {number} bytesPerSocket
 * @param {number} freshHolders
 * @param {string} className
 */
export function openNotes (fresh, bytesPerSocket, freshHolders, className) {
  return notesOf([
    `${countText(fresh)} new open sockets, ~${bytesText(bytesPerSocket)} each with what they keep`,
    `${countText(freshHolders)} new ${className} objects hold them; the program keeps none of them`
  ])
}

/**
 * @param {string} className
 * @param {string | null} close  the method that closes one of them
 * @param {string} variable  how the snippet names one
 * @returns {{summary: string, snippet: string}}
 */
export function openFix (className, close, variable) {
  return {
    summary: `${/^[AEIOU]/.test(className) ? 'an' : 'a'} ${className} is made per call and never closed, so its connection stays open${close === null ? '' : ` until ${close}() is called`}. Create one at start-up and share it, or close each one when its work is done.`,
    snippet: `const ${variable} = new ${className}(/* ... */) // once, at start-up, shared by every call${close === null ? '' : `\n// or per call: try { /* ... */ } finally { await ${variable}.${close}() }`}`
  }
}

/**
 * Sockets checked out of a pool and never given back.
 * @param {string} name  the pool's name
 * @param {string} className
 * @param {number[]} counts  checked out sockets per snapshot
 * @param {number | null} unread  new ones whose whole response sits unread, when most of them do
 */
export function checkedOutTitle (name, className, counts, unread) {
  return unread !== null
    ? `Responses are never read, so their connections never go back to ${name} (${className}): ${countsText(counts)} sockets checked out, ${countText(unread)} of the new ones with the whole response unread.`
    : `Requests never finish, so their connections never go back to ${name} (${className}): ${countsText(counts)} sockets checked out.`
}

/**
 * @param {string} name  the pool's name
 * @param {{fresh: number, bytesPerSocket: number, unread: number, waiting: number}} sockets
 * @param {Array<{file: string, line: number, column: number}>} alsoUsed  other lines that use the pool
 */
export function checkedOutNotes (name, { fresh, bytesPerSocket, unread, waiting }, alsoUsed) {
  return notesOf([
    `${countText(fresh)} new sockets checked out and never returned, ~${bytesText(bytesPerSocket)} each with what they keep`,
    `${countText(unread)} of them hold a complete response whose body nobody read; ${countText(waiting)} still wait for a response`,
    ...alsoUsed.map((at) => `also uses ${name} at ${at.file}:${at.line}:${at.column}`)
  ])
}

/**
 * @param {string} name  the pool's name
 * @param {boolean} unread  most new sockets hold a whole response nobody read
 * @returns {{summary: string, snippet: string}}
 */
export function checkedOutFix (name, unread) {
  const readFix = 'read or discard every response body, on every path: res.resume() when the body is not needed (with fetch, await res.text() or res.body.cancel()).'
  if (!unread) {
    return {
      summary: `end every request and give it a deadline, so a stalled upstream cannot keep sockets checked out; and ${readFix}`,
      snippet: 'const req = http.get(url, { agent, timeout: 10_000 }, (res) => { /* read or res.resume() */ })\nreq.on(\'timeout\', () => req.destroy(new Error(\'upstream timeout\')))'
    }
  }
  const agent = /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'agent'
  return {
    summary: readFix,
    snippet: `http.get(url, { ${agent === 'agent' ? 'agent' : `agent: ${agent}`} }, (res) => {\n  res.resume() // or read it to the end: for await (const chunk of res) { /* ... */ }\n  /* ... */\n})`
  }
}

/**
 * Where the other ends of connections this process opened to itself are: `pile up in clients (Set)`.
 * @param {string} name
 * @param {string} className
 */
export function pileUpIn (name, className) {
  return `pile up in ${name} (${className})`
}

/** The other ends of connections this process opened to itself stay open without a collection to name. */
export const STAY_OPEN = 'stay open too'

/**
 * The finding's notes with the note that its connections' other ends are claimed, once.
 * @param {string[]} notes
 * @param {string} where  pileUpIn() or STAY_OPEN
 */
export function withOtherEndsNote (notes, where) {
  return notes.some((note) => note.startsWith(OTHER_ENDS)) ? notes : [...notes, `${OTHER_ENDS} ${where}`]
}
