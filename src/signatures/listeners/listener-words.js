// The words of a listener-accumulation finding: its title, its fix and its notes, for each case the
// matcher tells apart (listeners added and never removed, once() listeners whose event never
// comes, listeners of library objects never closed, iterators or subscriptions never ended), and
// the reasons for its confidence.

import { bytesText, countText, notesOf } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
import { variableFor } from '../snippet-names.js'
/** @import {SourceLocation} from '../finding.js' */
/** @import {UnclosedMaker} from '../unclosed-makers.js' */
/** @import {ListenerList} from './listener-lists.js' */

/** How the code at a finding's location relates to the listeners, for the card. */
export const LISTENER_ROLE = 'listener'
export const SUBSCRIBE_ROLE = 'subscribes to it'
export const USE_ROLE = 'hands it to the library'

/** Why the confidence is what it is: one clause per fact the matcher weighs. */
export const LISTENER_REASONS = Object.freeze({
  /** @param {ListenerList['kind']} kind  an emitter's kind of list, not an observer list */
  list: (kind) => `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind} listener list, counted in every snapshot`,
  observerList: 'an array of functions kept under a listener-like name',
  /**
   * @param {number} fromLocation  new listeners from the located function
   * @param {number} fresh  new listeners
   * @param {SourceLocation} location
   */
  location: (fromLocation, fresh, location) => `${fromLocation} of ${fresh} new listeners (${percent(fromLocation / fresh)}) come from ${location.file}:${location.line}`,
  /** @param {number} share  of the row's new bytes, what the new listeners keep alive */
  share: (share) => `the new listeners keep ${percent(share)} of the row's new bytes alive`,
  /** @param {UnclosedMaker} maker */
  maker: (maker) => `${maker.count} of ${maker.sampled} sampled listeners hold a new ${maker.className} (${maker.from}) that offers ${maker.method}()`,
  /**
   * @param {number} scopes  the new listeners' scopes
   * @param {string} closer  the function in them that would end the listeners
   */
  closer: (scopes, closer) => `the listeners share ${countText(scopes)} scopes with ${closer}(), the function that would end them`
})

/**
 * What the matcher found out about the listeners, beyond the list.
 * @typedef {object} ListenerCase
 * @property {UnclosedMaker | null} maker  the library object each listener belongs to, never closed
 * @property {{take: string, give: string | null} | null} takeBack  the emitter's methods that take
 *   one of those objects back and give one
 * @property {string | null} closer  a function in the listeners' scopes that would end them
 * @property {boolean} nodeIterator  Node's events.on() made the listeners
 * @property {boolean} once  the new listeners were added with once() and still wait
 * @property {{variable: string, event: string} | null} ending  what ends the work the listener serves
 * @property {string | null} ownedBy  the package whose own code the listeners are, when nothing of
 *   the program's (an object it made, a line that subscribes) ends them
 */

/**
 * @param {ListenerList} list
 * @param {string} name  the emitter's name
 * @param {string} emitterClass
 * @param {number} listCount  lists of the row that grew
 * @param {ListenerCase} found
 */
export function listenerTitle (list, name, emitterClass, listCount, { maker, takeBack, closer, nodeIterator, once, ownedBy }) {
  if (maker !== null) return unclosedTitle(list, name, emitterClass, maker, takeBack)
  if (closer !== null) return iteratorTitle(list, name, emitterClass, nodeIterator)
  if (ownedBy !== null) return `${eventListener(list)} of ${ownedBy}'s own code is added to ${name} (${emitterClass}) over and over and never removed.`
  return titleOf(list, name, emitterClass, listCount, once)
}

/**
 * @param {ListenerList} list
 * @param {string} name  the emitter's name
 * @param {ListenerCase} found
 * @param {string | null} verb        the removal method the emitter (or registry holder) offers
 * @param {string | null} recordVerb  the one a list entry offers (a Subscription's unsubscribe)
 * @returns {{summary: string, snippet: string}}
 */
export function listenerFix (list, name, { maker, takeBack, closer, nodeIterator, once, ending, ownedBy }, verb, recordVerb) {
  if (maker !== null) return unclosedFix(list, name, maker, ending, takeBack)
  if (closer !== null) return iteratorFix(list, name, ending, nodeIterator)
  if (ownedBy !== null) return ownListenersFix(list, name, ownedBy)
  return once ? onceFix(list, name, ending) : fixFor(list, name, verb, recordVerb, ending)
}

/**
 * The card's lines.
 * @param {ListenerList} list
 * @param {string} emitterClass
 * @param {{fresh: number, location: SourceLocation | null, fromLocation: number, atSite: boolean, listCount: number,
 *   buffered: {variable: string, className: string, retained: number[]} | null,
 *   waiting: {count: number, of: number} | null}} facts  fresh: new listeners; atSite: the finding points
 *   at the line that subscribes, not at the listener; waiting: once() listeners still waiting, of the new ones
 */
export function listenerNotes (list, emitterClass, { fresh, location, fromLocation, atSite, listCount, buffered, waiting }) {
  return notesOf([
    `${countText(fresh)} listeners added since the first snapshot${location === null ? '' : `, ${countText(fromLocation)} of them by ${atSite ? `the function at ${location.file}:${location.line}:${location.column}` : 'this function'}`}`,
    buffered !== null && `their shared scopes keep ${buffered.variable}${buffered.className === '' ? '' : ` (${buffered.className})`}: ${buffered.retained.map(bytesText).join(' → ')}`,
    listCount > 1 && `${countText(listCount)} ${emitterClass} objects whose ${list.event === '' ? '' : `'${list.event}' `}list grew, summed`,
    waiting !== null && `${countText(waiting.count)} of the ${countText(waiting.of)} new listeners were added with once() and are still waiting for '${list.event}'`
  ])
}

/**
 * @param {ListenerList} list
 * @param {string} name
 * @param {string} emitterClass
 * @param {number} listCount
 * @param {boolean} [once] the new listeners were added with once() and still wait
 */
function titleOf (list, name, emitterClass, listCount, once = false) {
  const target = listCount > 1 ? `${listCount} objects like ${name} (${emitterClass})` : `${name} (${emitterClass})`
  if (list.kind === 'observer list') return `Functions are added to ${list.event} of ${target} over and over and never removed.`
  if (list.kind === 'diagnostics channel') return `A subscriber is added to diagnostics channel ${channelText(list)} over and over and never unsubscribed.`
  if (once && list.event !== '') return `A once('${list.event}') listener is added to ${target} over and over, and '${list.event}' never comes to remove it.`
  return `${eventListener(list)} is added to ${target} over and over and never removed.`
}

/**
 * @param {ListenerList} list
 * @param {string} name
 * @param {string | null} verb        the removal method the emitter (or registry holder) offers
 * @param {string | null} recordVerb  the one a list entry offers (a Subscription's unsubscribe)
 * @param {{variable: string, event: string} | null} ending  what ends the work the listener serves (endOfWork)
 * @returns {{summary: string, snippet: string}}
 */
function fixFor (list, name, verb, recordVerb, ending) {
  const done = `${ending?.variable ?? 'res'}.once('${ending?.event ?? 'close'}', `
  const bare = name.replace(/^#/, '')
  // A dotted name reaches an emitter kept in a field (`pubsub.ee`).
  const emitter = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(bare) ? bare : 'emitter'
  const owner = /^[A-Za-z_$][\w$]*/.exec(bare)?.[0] ?? 'emitter'
  if (recordVerb !== null) {
    return {
      summary: `keep what the call that added it returned and call its ${recordVerb}() when the request ends; each entry of ${list.event === '' ? 'the list' : list.event} is such a handle, and none was ever released.`,
      snippet: `const handle = ${owner}.subscribe(onValue)  // the call that adds to ${list.event === '' ? 'the list' : list.event}\n${done}() => handle.${recordVerb}())`
    }
  }
  if (verb !== null && (list.kind === 'observer list' || list.kind === 'event map')) {
    const event = list.kind === 'event map' && list.event !== '' ? `'${list.event}', ` : ''
    return {
      summary: `remove the function with ${owner}.${verb}() when the code that added it is done.`,
      snippet: `const onEvent = () => { /* ... */ }\n${owner}.on(${event}onEvent)\n${done}() => ${owner}.${verb}(${event}onEvent))`
    }
  }
  if (list.kind === 'diagnostics channel') {
    const channel = list.event === '' ? 'name' : `'${list.event}'`
    return {
      summary: 'unsubscribe the function when the work it serves ends, with the channel\'s name and the same function, or subscribe once at start-up and find the request from the message.',
      snippet: `const onMessage = (message) => { /* ... */ }\ndiagnostics_channel.subscribe(${channel}, onMessage)\n${done}() => diagnostics_channel.unsubscribe(${channel}, onMessage))`
    }
  }
  const event = list.event === '' ? 'event' : list.event
  const note = 'Raising setMaxListeners() hides the warning, not the leak.'
  if (list.kind === 'EventTarget') {
    return {
      summary: `remove the listener when the work it belongs to ends (or add it with { once: true } or { signal }). ${note}`,
      snippet: `const onEvent = () => { /* ... */ }\n${emitter}.addEventListener('${event}', onEvent, { once: true })\n${done}() => ${emitter}.removeEventListener('${event}', onEvent))`
    }
  }
  if (list.kind === 'observer list' || list.kind === 'event map') {
    return {
      summary: `take the function out of ${event} when the code that added it is done (return an unsubscribe function).`,
      snippet: `const unsubscribe = subscribe(fn)  // removes fn from ${event}\n${done}unsubscribe)`
    }
  }
  return {
    summary: `remove the listener when the request ends (or use once(), or pass { signal } to events.on()). ${note}`,
    snippet: `const onEvent = () => { /* ... */ }\n${emitter}.on('${event}', onEvent)\n${done}() => ${emitter}.off('${event}', onEvent))`
  }
}

/**
 * The remedy for once() listeners whose event does not come: once() is no way out for them.
 * @param {ListenerList} list
 * @param {string} name
 * @param {{variable: string, event: string} | null} ending  what ends the work the listener serves
 * @returns {{summary: string, snippet: string}}
 */
function onceFix (list, name, ending) {
  const emitter = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(name) ? name : 'emitter'
  const event = list.event
  const done = `${ending?.variable ?? 'res'}.once('${ending?.event ?? 'close'}', `
  return {
    summary: `once() removes a listener only when its event comes, and '${event}' did not come while the snapshots were taken: every listener added since still waits. Remove it when the request ends (off() takes the function given to once()); for an event that happens once, such as a 'ready', check whether it already happened instead of waiting for it.`,
    snippet: `const onEvent = () => { /* ... */ }\n${emitter}.once('${event}', onEvent)\n${done}() => ${emitter}.off('${event}', onEvent))`
  }
}

/**
 * @param {ListenerList} list
 * @param {string} name
 * @param {string} emitterClass
 * @param {UnclosedMaker} maker
 * @param {{take: string, give: string | null} | null} takeBack  the emitter's methods that take one
 *   of them back and give one
 */
function unclosedTitle (list, name, emitterClass, maker, takeBack) {
  if (takeBack !== null) {
    const event = list.event === '' ? 'a listener' : `${/^[aeiou]/i.test(list.event) ? 'an' : 'a'} '${list.event}' listener`
    return `${maker.className} objects (${maker.from}) are added to ${name} (${emitterClass}) over and over and never taken back with ${takeBack.take}(): each adds ${event} on it.`
  }
  if (list.kind === 'diagnostics channel') return `${maker.className} objects (${maker.from}) are made over and over and never ${pastOf(maker.method)}: each subscribes to diagnostics channel ${channelText(list)}.`
  const what = list.kind === 'observer list' ? `a function to ${list.event} of` : `${list.event === '' ? 'a' : `${/^[aeiou]/i.test(list.event) ? 'an' : 'a'} '${list.event}'`} listener on`
  return `${maker.className} objects (${maker.from}) are made over and over and never ${pastOf(maker.method)}: each adds ${what} ${name} (${emitterClass}).`
}

/**
 * @param {ListenerList} list
 * @param {string} name
 * @param {UnclosedMaker} maker
 * @param {{variable: string, event: string} | null} ending
 * @param {{take: string, give: string | null} | null} takeBack
 * @returns {{summary: string, snippet: string}}
 */
function unclosedFix (list, name, maker, ending, takeBack) {
  const variable = variableFor(maker.className)
  const done = `${ending?.variable ?? 'res'}.once('${ending?.event ?? 'close'}', `
  const holder = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(name) ? name : 'emitter'
  if (takeBack !== null) {
    return {
      summary: `${holder} keeps every ${maker.className} it is given, with its listener: give it one ${maker.className} at start-up and share it, or take each one back with ${holder}.${takeBack.take}(${variable}) when the work it was added for ends.`,
      snippet: `const ${variable} = /* the call that makes the ${maker.className} */\n${takeBack.give === null ? `/* the call that gives ${variable} to ${holder} */` : `${holder}.${takeBack.give}(${variable})`}\n${done}() => ${holder}.${takeBack.take}(${variable}))`
    }
  }
  return {
    summary: `the listeners belong to the ${maker.className} objects, not to the program: make one ${maker.className} at start-up and share it, or call ${variable}.${maker.method}() on each one when the work it was made for ends, which takes its listener off ${name}.`,
    snippet: `const ${variable} = /* the call that makes the ${maker.className} */\n${done}() => ${variable}.${maker.method}())`
  }
}

/**
 * `close` → `closed`, `return` → `returned`, `stop` → `stopped`.
 * @param {string} method
 */
function pastOf (method) {
  if (method.endsWith('e')) return `${method}d`
  if (/[^aeiou][aeiou][bdgmnpt]$/.test(method) && method.length <= 4) return `${method}${method.at(-1)}ed`
  return `${method}ed`
}

/**
 * @param {ListenerList} list
 * @param {string} name
 * @param {string} emitterClass
 * @param {boolean} nodeIterator whether Node's events.on() made the listeners
 */
function iteratorTitle (list, name, emitterClass, nodeIterator) {
  const event = list.event === '' ? 'events' : `'${list.event}' events`
  const what = nodeIterator ? `events.on() iterators over ${event} of` : `Subscriptions to ${event} of`
  return `${nodeIterator ? 'Async ' : ''}${what} ${name} (${emitterClass}) are made over and over and never ended: each keeps its listener and buffers every later event.`
}

/**
 * @param {ListenerList} list
 * @param {string} name
 * @param {{variable: string, event: string} | null} ending
 * @param {boolean} nodeIterator
 * @returns {{summary: string, snippet: string}}
 */
function iteratorFix (list, name, ending, nodeIterator) {
  const done = `${ending?.variable ?? 'res'}.once('${ending?.event ?? 'close'}', `
  const bare = name.replace(/^#/, '')
  const emitter = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(bare) ? bare : 'emitter'
  const event = list.event === '' ? 'event' : list.event
  if (nodeIterator) {
    return {
      summary: `end each iterator when the request ends: pass { signal } to events.on() and abort it, or call iterator.return() (a for await loop does when it breaks or returns). An iterator left open keeps its listeners on ${emitter} and queues every event for a reader that never comes.`,
      snippet: `const ac = new AbortController()\n${done}() => ac.abort())\nconst iterator = on(${emitter}, '${event}', { signal: ac.signal })`
    }
  }
  return {
    summary: `end each subscription when the request ends: call the iterator's return() (or leave its for await loop), or pass the library an AbortSignal that is aborted then. Until it ends, it keeps its listeners on ${emitter} and buffers every event.`,
    snippet: `const iterator = /* the call that subscribes to ${emitter} */\n${done}() => iterator.return())`
  }
}

/**
 * A diagnostics channel as the program names it: `'app:db-query'`, or `(named by a symbol)`.
 * @param {ListenerList} list
 */
function channelText (list) {
  return list.event === '' ? '(named by a symbol)' : `'${list.event}'`
}

/**
 * "An 'error' listener", "A listener", "A function" (an observer list's entry).
 * @param {ListenerList} list
 */
function eventListener (list) {
  if (list.kind === 'observer list') return 'A function'
  if (list.event === '') return 'A listener'
  return `${/^[aeiou]/i.test(list.event) ? 'An' : 'A'} '${list.event}' listener`
}

/**
 * The remedy for a package's own listeners that it adds per call and never removes: the program
 * cannot take them off, only call less, or not in the way that adds them.
 * @param {ListenerList} list
 * @param {string} name
 * @param {string} library
 * @returns {{summary: string, snippet: string}}
 */
function ownListenersFix (list, name, library) {
  const listener = eventListener(list)
  const what = listener.charAt(0).toLowerCase() + listener.slice(1)
  return {
    summary: `these listeners are ${library}'s own: a package adds one to ${name} for each call the program makes through it and never takes it off, so each keeps what its call made. The program cannot remove them: make that call once and reuse what it returns, or leave out the option that makes the package add them; a package that adds ${what} per call and never removes it has a bug, which a newer version may have fixed.`,
    snippet: `// ${library} adds ${what} to ${name} per call and never removes it:\n// reuse one result instead of calling again, leave out the option that adds it, or update the package`
  }
}
