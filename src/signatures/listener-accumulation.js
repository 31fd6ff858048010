// listener-accumulation: one event's listener list keeps growing, usually because code running per
// request or per connection subscribes to a long-lived emitter and never unsubscribes. Three list
// shapes (heapsnapshot-format.md 7, and observed on Node 20):
//
//   EventEmitter   emitter ._events → Object .<event> → closure (one listener) | Array [i] → closure
//   EventTarget    target .<symbol kEvents> → Map {table} → {slot} → Object .next → Listener .next
//                  → Listener ...   (a linked list; each Listener has .callback → closure)
//   observer list  holder .<listeners|subscribers|handlers|...> → Array [i] → closure | record
//   event map      holder .<name> → Map {table} → {slot} → Array [i] → closure | record (mitt and
//                  other registries keyed by event name)
//
// A record is an object that leads to the function within a few property steps: eventemitter3's
// `{fn, context}`, axios' `{fulfilled, rejected}`, an rxjs Subscriber (→ destination →
// partialObserver → next). The function the program wrote is preferred over library functions.
//
// The diff names one node of the list as the growth owner (the Array, the `_events` object, the
// last Listener that existed in the baseline); the list is found from there, and its listeners are
// counted again in every snapshot through ids that do not change.

import { shownClassName, shownEdgeName } from '../analysis/shown-names.js'
import { AGE_OLD } from '../query/ages.js'
import { collectionKind, collectionOfStore } from '../query/collection-entries.js'
import { heldClasses, recognisedClasses } from '../query/held-objects.js'
import { UNSUBSCRIBE_METHODS, offeredMethod } from '../query/heap-methods.js'
import { EdgeCursor, findReference, findRetainer, propertyTarget, reference, referencedNodes, retainer, retainers } from '../query/references.js'
import { unwrapBound } from '../query/heap-values.js'
import { growsEveryStep, judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { bytesText, countText, notesOf } from './evidence-notes.js'
import { HOLDER_ROLES, holderLocation } from './holder-location.js'
import { packageOf } from './library-handle.js'
import { sourceLocation } from './source-location.js'
import { takeBackMethod, unclosedMaker, variableFor } from './unclosed-makers.js'
import { useOffsets, writeSites } from './write-sites.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */

export const ID = 'listener-accumulation'

/** @type {Signature} */
export const listenerAccumulation = { id: ID, match: matchListenerAccumulation }

/** Property names under which event libraries keep lists of callbacks. */
const OBSERVER_NAMES = /(?:listener|subscriber|observer|handler|callback|watcher|hook|interceptor)s?$/i
/** Event types that come from a string in the heap are shown only when they look like a name. */
const EVENT_NAME = /^[A-Za-z][\w:.-]{0,40}$/
const MIN_NEW_LISTENERS = 10
/** Where listener records of event libraries keep the function, tried before any other field. */
const LISTENER_FIELDS = ['fn', 'listener', 'callback', 'handler']
/** Property steps from a listener record to the function it calls, and nodes looked at on the way. */
const MAX_RECORD_DEPTH = 3
const MAX_RECORD_NODES = 64
/** Owners of one row read per match; a row of more is summed over its largest ones. */
const MAX_OWNERS = 100
const EVENTS_KEY = '<symbol kEvents>'

/**
 * @typedef {object} ListenerList
 * @property {'EventEmitter' | 'EventTarget' | 'observer list' | 'event map'} kind
 * @property {number} emitter  ordinal (last snapshot) of the object the listeners are added to
 * @property {string} event    the event name ('' when the heap does not say)
 * @property {number} listId   V8 id that finds the list in every snapshot: the emitter (EventEmitter),
 *                             the list's head object (EventTarget), the array (observer list)
 */

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchListenerAccumulation (input) {
  const { result, detail, cwd } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const row = result.growth[g]
    if (!row.leak) continue
    const ordinal = graph.findOrdinalById(row.owner.id)
    if (ordinal < 0) continue
    // A list's backing store stays old while it has room, and is then the owner the diff names.
    const owner = collectionOfStore(graph, ordinal)
    let best = null
    for (const list of findListenerLists(graph, owner)) {
      const counts = analyses.map((analysis) => measureList(analysis, list).count)
      if (!growsEveryStep(counts) || counts[counts.length - 1] - counts[0] < MIN_NEW_LISTENERS) continue
      const growth = counts[counts.length - 1] - counts[0]
      const bestGrowth = best === null ? 0 : best.counts[best.counts.length - 1] - best.counts[0]
      // An 'error' listener usually comes along with the subscription it guards (events.on() adds
      // both): on a tie the other event names the leak.
      if (best === null || growth > bestGrowth || (growth === bestGrowth && best.list.event === 'error' && list.event !== 'error')) best = { list, counts }
    }
    if (best === null) continue
    // A row of several owners is one list shape repeated (a list per connection): sum the lists
    // of the same kind and event that grew too.
    const lists = [best.list]
    const counts = best.counts.slice()
    for (const other of detail.groupOwners[g].slice(0, MAX_OWNERS)) {
      const start = collectionOfStore(graph, other)
      if (start === owner) continue
      const list = findListenerLists(graph, start).find((l) => l.kind === best.list.kind && l.event === best.list.event)
      const more = list && analyses.map((analysis) => measureList(analysis, list).count)
      if (!list || !more || !growsEveryStep(more)) continue
      lists.push(list)
      more.forEach((count, i) => { counts[i] += count })
    }
    matches.push({ group: g, finding: describe(input, g, lists, counts, last, ages, cwd) })
  }
  return matches
}

/**
 * @param {SignatureInput} input
 * @param {number} g
 * @param {ListenerList[]} lists  the row's lists, the largest first
 * @param {number[]} counts       their listeners per snapshot, summed
 * @param {HeapAnalysis} last
 * @param {Uint8Array} ages
 * @param {string} cwd
 * @returns {import('./finding.js').Finding}
 */
function describe (input, g, lists, counts, last, ages, cwd) {
  const row = input.result.growth[g]
  const { graph } = last
  const [list] = lists
  const retained = input.detail.analyses.map((analysis) => lists.reduce((sum, l) => sum + measureList(analysis, l).retained, 0))
  const fresh = lists.flatMap((l) => measureList(last, l).listeners.filter((o) => ages[o] !== AGE_OLD))
  const scopes = lists.flatMap((l) => measureList(last, l).scopes ?? []).filter((o) => ages[o] !== AGE_OLD)
  const scopeGrowth = scopes.length > 0 ? bufferedGrowth(input.detail.analyses, lists, input.names) : null
  // Shown when it is a good part of what the list keeps: an iterator's queue, not a helper.
  const buffered = scopeGrowth !== null && 3 * (scopeGrowth.retained[scopeGrowth.retained.length - 1] - scopeGrowth.retained[0]) >= retained[retained.length - 1] - retained[0] ? scopeGrowth : null

  const held = heldClasses(last, [...fresh, ...scopes], ages)
  const keeps = recognisedClasses(held)
  const rowBytes = row.leakedBytes + row.recentBytes
  const share = rowBytes > 0 ? Math.min(1, held.bytes / rowBytes) : 0

  const { location, fromLocation } = dominantLocation(last, fresh, cwd, input.names)
  const emitterClass = shownClassName(last, list.emitter, input.names)
  let name = nameOnPath(row.path, graph.nodeIds[list.emitter]) ?? innerName(graph, row.path, list.emitter) ?? retainerName(last, list.emitter, input.names) ?? emitterClass
  // The object that offers the way out: the emitter, or for an event map the object holding the Map
  // (mitt's `emitter.all`); a list entry that is a record may carry its own (a Subscription).
  let remover = list.emitter
  if (list.kind === 'event map') {
    const up = findRetainer(graph, list.emitter, (edge) => edge.is('property') && !edge.is('property', '__proto__'))
    if (up >= 0) {
      remover = up
      const holder = nameOnPath(row.path, graph.nodeIds[up]) ?? retainerName(last, up, input.names)
      if (holder !== null) name = `${holder}.${name}`
    }
  }
  const listArray = graph.findOrdinalById(list.listId)
  const firstEntry = list.kind !== 'EventTarget' ? findReference(graph, listArray, (edge) => edge.is('element')) : -1
  const recordVerb = firstEntry >= 0 && graph.nodeTypes[firstEntry] === graph.nodeType.object ? offeredMethod(graph, firstEntry, UNSUBSCRIBE_METHODS) : null
  const verb = offeredMethod(graph, remover, UNSUBSCRIBE_METHODS)
  // once() listeners still waiting: their event never came (a 'ready' emitted at start-up), so
  // once() never removed them.
  const newEntries = emitterEntries(graph, list).filter((o) => ages[o] !== AGE_OLD)
  const waiting = newEntries.filter((o) => isOnceWrapper(graph, o)).length
  const once = newEntries.length > 0 && waiting >= 0.8 * newEntries.length
  // A listener the program did not write was added by a library object the program made.
  const libraryListener = location === null || location.file.startsWith('node:') || packageOf(location.file) !== null
  const maker = libraryListener ? unclosedMaker(last, fresh, ages, list.emitter, cwd, input.names) : null
  // An emitter that keeps the made objects itself and offers a method taking one back (a logger's
  // remove(transport)) is the way out the library means.
  const takeBack = maker === null ? null : takeBackMethod(last, list.emitter, maker)
  // Listeners that share a scope with the function ending them were added by an iterator or a
  // subscription object the program dropped before it ended (events.on() without return()).
  const closer = libraryListener && maker === null ? closerIn(last, scopes, input.names) : null
  // The program's line is where it subscribes to the emitter when the listener is not its own, or
  // where it hands the emitter to the library object that subscribes.
  const site = !libraryListener
    ? null
    : maker === null
      ? subscribeSite(last, row.path, list.emitter, cwd, input.names, subscribeOffsets, SUBSCRIBE_ROLE, true)
      : subscribeSite(last, row.path, list.emitter, cwd, input.names, useOffsets, USE_ROLE, false)

  const facts = []
  if (list.kind !== 'observer list') facts.push({ weight: 0.1, reason: `an ${list.kind} listener list, counted in every snapshot` })
  else facts.push({ weight: 0.03, reason: 'an array of functions kept under a listener-like name' })
  if (fresh.length > 0 && location !== null) {
    const locationShare = fromLocation / fresh.length
    facts.push({ weight: locationShare >= 0.8 ? 0.1 : 0, reason: `${fromLocation} of ${fresh.length} new listeners (${percent(locationShare)}) come from ${location.file}:${location.line}` })
  }
  facts.push({ weight: 0.09 * share, reason: `the new listeners keep ${percent(share)} of the row's new bytes alive` })
  if (maker !== null) facts.push({ weight: 0, reason: `${maker.count} of ${maker.sampled} sampled listeners hold a new ${maker.className} (${maker.from}) that offers ${maker.method}()` })
  if (closer !== null) facts.push({ weight: 0, reason: `the listeners share ${countText(scopes.length)} scopes with ${closer}(), the function that would end them` })
  const { confidence, reasons } = judgeGrowth(counts, facts)
  const ending = endOfWork(last, fresh, ages, input.names, maker?.classIndex ?? -1)
  const nodeIterator = closer !== null && location !== null && location.file === 'node:events'

  return {
    signature: ID,
    title: maker !== null ? unclosedTitle(list, name, emitterClass, maker, takeBack) : closer !== null ? iteratorTitle(list, name, emitterClass, nodeIterator) : titleOf(list, name, emitterClass, lists.length, once),
    confidence,
    reasons,
    owner: row.owner,
    path: row.path,
    evidence: {
      unit: 'listeners',
      counts,
      retained,
      perStep: perStepOf(counts),
      ownerCount: lists.length,
      event: list.event,
      emitterClass,
      listKind: list.kind,
      newListeners: fresh.length,
      fromLocation,
      bytesPerListener: fresh.length > 0 ? Math.round(held.bytes / fresh.length) : 0,
      keepsAlive: keeps,
      locationRole: site === null ? 'listener' : site.role,
      ...(maker === null ? {} : { madeBy: { className: maker.className, from: maker.from, method: takeBack?.take ?? maker.method, ...(takeBack === null ? {} : { of: 'emitter' }) } }),
      ...(buffered === null ? {} : { buffered }),
      ...(site === null || location === null ? {} : { listenerLocation: location }),
      notes: notesOf([
        `${countText(fresh.length)} listeners added since the first snapshot${location === null ? '' : `, ${countText(fromLocation)} of them by ${site === null ? 'this function' : `the function at ${location.file}:${location.line}:${location.column}`}`}`,
        buffered !== null && `their shared scopes keep ${buffered.variable}${buffered.className === '' ? '' : ` (${buffered.className})`}: ${buffered.retained.map(bytesText).join(' → ')}`,
        lists.length > 1 && `${countText(lists.length)} ${emitterClass} objects whose ${list.event === '' ? '' : `'${list.event}' `}list grew, summed`,
        once && `${countText(waiting)} of the ${countText(newEntries.length)} new listeners were added with once() and are still waiting for '${list.event}'`
      ])
    },
    location: site?.location ?? location,
    fix: maker !== null ? unclosedFix(list, name, maker, ending, takeBack) : closer !== null ? iteratorFix(list, name, ending, nodeIterator) : once ? onceFix(list, name, ending) : fixFor(list, name, verb, recordVerb, ending)
  }
}

/**
 * The entries of an EventEmitter's list for the event (`_events[event]`: an array, or the one
 * function it holds alone); none for other kinds of list.
 * @param {HeapGraph} graph
 * @param {ListenerList} list
 * @returns {number[]}
 */
function emitterEntries (graph, list) {
  if (list.kind !== 'EventEmitter') return []
  const emitter = graph.findOrdinalById(list.listId)
  const events = emitter < 0 ? -1 : reference(graph, emitter, '_events')
  const entries = events < 0 ? -1 : reference(graph, events, list.event)
  if (entries < 0) return []
  return graph.nodeName(entries) === 'Array' ? referencedNodes(graph, entries, 'element') : [entries]
}

/**
 * Whether a listener entry is the wrapper once() adds. Node 20 and 22 bind a function to a state
 * object that holds the function passed (`{fired, wrapFn, target, type, listener}`); Node 24 makes
 * a closure with a `listener` property whose scope holds `fired`.
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isOnceWrapper (graph, o) {
  if (graph.nodeTypes[o] !== graph.nodeType.closure) return false
  let state = reference(graph, o, 'bound_this', 'internal')
  if (state < 0) state = reference(graph, o, 'bound_this', 'shortcut')
  if (state >= 0) return reference(graph, state, 'fired') >= 0 && reference(graph, state, 'listener') >= 0
  const scope = reference(graph, o, 'context', 'internal')
  return scope >= 0 && reference(graph, o, 'listener') >= 0 && reference(graph, scope, 'fired', 'context') >= 0
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
 * @param {import('./unclosed-makers.js').UnclosedMaker} maker
 * @param {{take: string, give: string | null} | null} takeBack  the emitter's methods that take one
 *   of them back and give one
 */
function unclosedTitle (list, name, emitterClass, maker, takeBack) {
  if (takeBack !== null) {
    const event = list.event === '' ? 'a listener' : `${/^[aeiou]/i.test(list.event) ? 'an' : 'a'} '${list.event}' listener`
    return `${maker.className} objects (${maker.from}) are added to ${name} (${emitterClass}) over and over and never taken back with ${takeBack.take}(): each adds ${event} on it.`
  }
  const what = list.kind === 'observer list' ? `a function to ${list.event} of` : `${list.event === '' ? 'a' : `${/^[aeiou]/i.test(list.event) ? 'an' : 'a'} '${list.event}'`} listener on`
  return `${maker.className} objects (${maker.from}) are made over and over and never ${pastOf(maker.method)}: each adds ${what} ${name} (${emitterClass}).`
}

/**
 * @param {ListenerList} list
 * @param {string} name
 * @param {import('./unclosed-makers.js').UnclosedMaker} maker
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
 * @param {number} listCount
 * @param {boolean} [once] the new listeners were added with once() and still wait
 */
function titleOf (list, name, emitterClass, listCount, once = false) {
  const target = listCount > 1 ? `${listCount} objects like ${name} (${emitterClass})` : `${name} (${emitterClass})`
  if (list.kind === 'observer list') return `Functions are added to ${list.event} of ${target} over and over and never removed.`
  if (once && list.event !== '') return `A once('${list.event}') listener is added to ${target} over and over, and '${list.event}' never comes to remove it.`
  const event = list.event === '' ? 'A' : `${/^[aeiou]/i.test(list.event) ? 'An' : 'A'} '${list.event}'`
  return `${event} listener is added to ${target} over and over and never removed.`
}

/**
 * The listener lists a growth owner belongs to, found by walking from it to the emitter.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {ListenerList[]}
 */
export function findListenerLists (graph, owner) {
  /** @type {ListenerList[]} */
  const lists = []
  // EventEmitter: the owner is the emitter, its `_events` object, or one event's array.
  /** @type {Array<[emitter: number, events: number, only: string | null]>} */
  const emitters = []
  const events = reference(graph, owner, '_events')
  if (events >= 0) emitters.push([owner, events, null])
  const edge = new EdgeCursor(graph)
  const up = new EdgeCursor(graph)
  for (edge.retainers(owner); edge.next();) {
    if (!edge.is('property')) continue
    if (edge.is('property', '_events')) emitters.push([edge.source, owner, null])
    else for (up.retainers(edge.source); up.next();) if (up.is('property', '_events')) emitters.push([up.source, edge.source, edge.name])
  }
  // An object that keeps its own emitter and also files each listener elsewhere (a pub/sub engine's
  // `ee` beside its table of subscriptions) dominates the listeners itself: look one step down.
  if (events < 0) {
    for (edge.references(owner); edge.next();) {
      if (!edge.is('property') || edge.is('property', '__proto__')) continue
      const inner = reference(graph, edge.target, '_events')
      if (inner >= 0) emitters.push([edge.target, inner, null])
    }
  }
  for (const [emitter, eventsObject, only] of emitters) {
    for (edge.references(eventsObject); edge.next();) {
      if (!edge.is('property') || edge.is('property', '__proto__')) continue
      const event = edge.name
      if (only === null || event === only) lists.push({ kind: 'EventEmitter', emitter, event, listId: graph.nodeIds[emitter] })
    }
  }

  // EventTarget: from a Listener back to the list head, or from the target down to its heads.
  for (const head of eventTargetHeads(graph, owner)) {
    const target = eventTargetOf(graph, head)
    if (target === null) continue
    lists.push({ kind: 'EventTarget', emitter: target.target, event: target.event, listId: graph.nodeIds[head] })
  }

  // Observer lists: an array of functions under a listener-like name.
  if (graph.nodeName(owner) === 'Array') {
    const registry = eventMapOf(graph, owner)
    if (registry !== null) lists.push({ kind: 'event map', emitter: registry.map, event: registry.event, listId: graph.nodeIds[owner] })
    for (edge.retainers(owner); edge.next();) {
      if (!edge.is('property')) continue
      const name = edge.name
      if (OBSERVER_NAMES.test(name) || findRetainer(graph, edge.source, (held) => held.is('property') && OBSERVER_NAMES.test(held.name)) >= 0) {
        lists.push({ kind: 'observer list', emitter: edge.source, event: name, listId: graph.nodeIds[owner] })
      }
    }
  }
  return lists
}

/**
 * The Map an array is a value of, and the string key it is stored under, or null.
 * @param {HeapGraph} graph
 * @param {number} array
 * @returns {{map: number, event: string} | null}
 */
function eventMapOf (graph, array) {
  for (const slot = retainers(graph, array); slot.next();) {
    if (!slot.is('internal') || Number.isNaN(slot.index)) continue
    const map = collectionOfStore(graph, slot.source)
    if (map === slot.source || collectionKind(graph, map) !== 'Map') continue
    // The key sits in the slot before its value.
    const key = reference(graph, slot.source, String(slot.index - 1), 'internal')
    const type = key >= 0 && graph.nodeTypes[key] === graph.nodeType.string ? graph.nodeName(key) : ''
    return { map, event: EVENT_NAME.test(type) ? type : '' }
  }
  return null
}

/**
 * The EventTarget list heads reachable from a growth owner.
 * @param {HeapGraph} graph
 * @param {number} owner
 * @returns {number[]}
 */
function eventTargetHeads (graph, owner) {
  if (isListener(graph, owner)) {
    // Walk back to the head; the walk is bounded by the list's length.
    let node = owner
    for (let steps = 0; isListener(graph, node) && steps < graph.nodeCount; steps++) node = reference(graph, node, 'previous')
    return node >= 0 && isHead(graph, node) ? [node] : []
  }
  if (isHead(graph, owner)) return [owner]
  let map = reference(graph, owner, EVENTS_KEY)
  if (map < 0 && retainer(graph, owner, EVENTS_KEY) >= 0) map = owner
  if (map < 0) {
    const up = retainer(graph, owner, 'table', 'internal')
    if (up >= 0 && retainer(graph, up, EVENTS_KEY) >= 0) map = up
  }
  if (map < 0) return []
  const table = reference(graph, map, 'table', 'internal')
  return table < 0 ? [] : referencedNodes(graph, table, 'internal').filter((o) => isHead(graph, o))
}

/**
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isListener (graph, o) {
  return o >= 0 && reference(graph, o, 'previous') >= 0 && reference(graph, o, 'callback') >= 0
}

/**
 * The object at the start of an EventTarget's list for one type: `{size, next}`, held in the
 * kEvents Map's table.
 * @param {HeapGraph} graph
 * @param {number} o
 */
function isHead (graph, o) {
  return reference(graph, o, 'callback') < 0 && isListener(graph, reference(graph, o, 'next')) &&
    findRetainer(graph, o, (slot) => slot.is('internal') && !Number.isNaN(slot.index)) >= 0
}

/**
 * The EventTarget and the event type of a list head.
 * @param {HeapGraph} graph
 * @param {number} head
 * @returns {{target: number, event: string} | null}
 */
function eventTargetOf (graph, head) {
  for (const slot = retainers(graph, head); slot.next();) {
    if (!slot.is('internal') || Number.isNaN(slot.index)) continue
    const map = retainer(graph, slot.source, 'table', 'internal')
    const target = map < 0 ? -1 : retainer(graph, map, EVENTS_KEY)
    if (target < 0) continue
    // The key sits in the slot before its value.
    const key = reference(graph, slot.source, String(slot.index - 1), 'internal')
    const type = key >= 0 && graph.nodeTypes[key] === graph.nodeType.string ? graph.nodeName(key) : ''
    return { target, event: EVENT_NAME.test(type) ? type : '' }
  }
  return null
}

/**
 * The list's listener closures, their count and the list's retained size in one snapshot.
 * @param {HeapAnalysis} analysis
 * @param {ListenerList} list
 * @returns {{count: number, retained: number, listeners: number[], scopes?: number[]}}
 */
function measureList (analysis, list) {
  const { graph, retainedSizes } = analysis
  const o = graph.findOrdinalById(list.listId)
  /** @type {number[]} */
  const listeners = []
  if (o < 0) return { count: 0, retained: 0, listeners }
  if (list.kind === 'EventTarget') {
    let retained = retainedSizes.at(o)
    let node = reference(graph, o, 'next')
    for (let steps = 0; isListener(graph, node) && steps < graph.nodeCount; steps++) {
      listeners.push(reference(graph, node, 'callback'))
      node = reference(graph, node, 'next')
    }
    if (retained === 0 && listeners.length > 0) retained = retainedSizes.at(listeners[0])
    return { count: listeners.length, retained, listeners }
  }
  let list_ = o
  if (list.kind === 'EventEmitter') {
    const events = reference(graph, o, '_events')
    list_ = events < 0 ? -1 : reference(graph, events, list.event)
    if (list_ < 0) return { count: 0, retained: 0, listeners }
    if (graph.nodeName(list_) !== 'Array') {
      const single = listenerFunction(analysis, list_)
      return single < 0 ? { count: 0, retained: 0, listeners } : { count: 1, retained: retainedSizes.at(list_), listeners: [single] }
    }
  }
  if (graph.nodeName(list_) !== 'Array') return { count: 0, retained: 0, listeners }
  for (const entry of referencedNodes(graph, list_, 'element')) {
    const listener = listenerFunction(analysis, entry, list.kind === 'observer list')
    if (listener >= 0) listeners.push(listener)
  }
  let retained = retainedSizes.at(list_)
  const scopes = list.kind === 'EventEmitter' ? sharedScopes(analysis, listeners, o) : []
  for (const scope of scopes) retained += retainedSizes.at(scope)
  return { count: listeners.length, retained, listeners, scopes }
}

/**
 * The scopes of listeners that the emitter or its `_events` object keeps alive rather than the
 * listener itself: two listeners made by one call (events.on() adds one for the event and one
 * for 'error') share their scope, and whatever it buffers is dominated above the list. Counted
 * once each.
 * @param {HeapAnalysis} analysis
 * @param {number[]} listeners
 * @param {number} emitter
 * @returns {number[]}
 */
function sharedScopes (analysis, listeners, emitter) {
  const { graph, dominators } = analysis
  const events = reference(graph, emitter, '_events')
  /** @type {Set<number>} */
  const scopes = new Set()
  for (const fn of listeners) {
    const scope = propertyTarget(graph, unwrapBound(graph, fn), 'context')
    if (scope >= 0 && (dominators[scope] === emitter || dominators[scope] === events)) scopes.add(scope)
  }
  return [...scopes]
}

/**
 * The function a list entry calls, or -1: the entry itself when it is a function (a `once` wrapper
 * unwrapped), or the function a listener record leads to (eventemitter3 keeps `{fn, context, once}`,
 * an rxjs Subscriber keeps it three steps down). A record's search is breadth first over property
 * edges, bounded, and prefers a function of the program over one of a library or of Node.
 * @param {HeapAnalysis} analysis
 * @param {number} entry
 * @param {boolean} [deep] search records beyond the usual fields: only for lists whose name already
 *   says they hold callbacks, since almost any object reaches some function in a few steps
 */
function listenerFunction (analysis, entry, deep = false) {
  const { graph } = analysis
  if (graph.nodeTypes[entry] === graph.nodeType.closure) return unwrapOnce(graph, entry)
  if (graph.nodeTypes[entry] !== graph.nodeType.object) return -1
  for (const name of LISTENER_FIELDS) {
    const fn = reference(graph, entry, name)
    if (fn >= 0 && graph.nodeTypes[fn] === graph.nodeType.closure) return fn
  }
  if (!deep) return -1
  const seen = new Set([entry])
  const edge = new EdgeCursor(graph)
  let level = [entry]
  let fallback = -1
  for (let depth = 1; depth <= MAX_RECORD_DEPTH && level.length > 0; depth++) {
    /** @type {number[]} */
    const next = []
    for (const o of level) {
      for (edge.references(o); seen.size < MAX_RECORD_NODES && edge.next();) {
        if (!edge.is('property') || edge.is('property', '__proto__')) continue
        const target = edge.target
        if (seen.has(target)) continue
        seen.add(target)
        if (graph.nodeTypes[target] === graph.nodeType.closure) {
          const place = analysis.locations.locationOf(target)
          const script = place?.scriptName ?? ''
          if (script !== '' && !script.startsWith('node:') && packageOf(script) === null) return target
          if (fallback < 0) fallback = target
        } else if (graph.nodeTypes[target] === graph.nodeType.object) next.push(target)
      }
    }
    level = next
  }
  return fallback
}

/**
 * A `once` listener is a wrapper that holds the function that was passed: a bound function whose
 * state object has it as `listener` (Node 20, 22), or a closure with a `listener` property (Node 24).
 * @param {HeapGraph} graph
 * @param {number} closure
 */
function unwrapOnce (graph, closure) {
  let state = reference(graph, closure, 'bound_this', 'internal')
  if (state < 0) state = reference(graph, closure, 'bound_this', 'shortcut')
  const listener = reference(graph, state < 0 ? closure : state, 'listener')
  return listener >= 0 && graph.nodeTypes[listener] === graph.nodeType.closure ? listener : closure
}

/**
 * The source location most of the listeners come from, and how many come from it.
 * @param {HeapAnalysis} analysis
 * @param {number[]} closures
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, fromLocation: number}}
 */
function dominantLocation (analysis, closures, cwd, names) {
  /** @type {Map<string, {ordinal: number, count: number}>} */
  const byPlace = new Map()
  for (const bound of closures) {
    // A bound function has no code of its own: the function it wraps says where it comes from.
    const o = analysis.locations.locationOf(bound) === null ? unwrapBound(analysis.graph, bound) : bound
    const place = analysis.locations.locationOf(o)
    if (place === null) continue
    const key = `${place.scriptId}:${place.line}:${place.column}`
    const entry = byPlace.get(key)
    if (entry) entry.count++
    else byPlace.set(key, { ordinal: o, count: 1 })
  }
  let best = null
  for (const entry of byPlace.values()) if (best === null || entry.count > best.count) best = entry
  if (best === null) return { location: null, fromLocation: 0 }
  const location = sourceLocation(analysis, best.ordinal, cwd, names)
  return { location, fromLocation: location === null ? 0 : best.count }
}

/**
 * The name of the variable or property that holds the node with V8 id `id` on a path.
 * @param {Step[]} path
 * @param {number} id
 */
function nameOnPath (path, id) {
  const at = path.findIndex((s) => s.id === id)
  const step = path[at]
  if (!step || (step.edgeType !== 'property' && step.edgeType !== 'context')) return null
  // A variable of an accessor's closure is read through the accessor: Node 24's global `process`
  // is a getter whose scope holds `_process`, and the program writes `process`.
  const accessor = step.edgeType === 'context' ? path[at - 2] : undefined
  if (accessor?.edgeType === 'property' && path[at - 1]?.edge === 'context' && /^get [A-Za-z_$][\w$]*$/.test(accessor.edge)) return accessor.edge.slice(4)
  return step.edge
}

/**
 * `owner.field` for an emitter held in a field of the row's owner (the path ends at the owner).
 * @param {HeapGraph} graph
 * @param {Step[]} path
 * @param {number} emitter
 */
function innerName (graph, path, emitter) {
  const last = path[path.length - 1]
  if (!last) return null
  const outer = nameOnPath(path, last.id)
  if (outer === null) return null
  for (const edge = retainers(graph, emitter); edge.next();) {
    if (edge.is('property') && graph.nodeIds[edge.source] === last.id) return `${outer}.${edge.name}`
  }
  return null
}

/**
 * The first property or variable name that holds a node, or null.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {NameResolver} names
 */
function retainerName (analysis, o, names) {
  const edge = retainers(analysis.graph, o)
  while (edge.next()) if (edge.is('property') && !edge.is('property', '__proto__')) return edge.name
  for (edge.retainers(o); edge.next();) if (edge.is('context')) return shownEdgeName(analysis, edge.number, names, edge.name)
  return null
}

/** Events that end the work of a per-request emitter, in the order a fix prefers them. */
const ENDING_EVENTS = ['close', 'disconnect']
/** New listeners looked at for the emitter they close over. */
const ENDING_SAMPLE = 50

/**
 * The per-request emitter the new listeners close over (a response, a socket, a socket.io
 * connection) and the event that ends its work: the fix removes the listener on that event. A
 * variable counts when at least half of the sampled listeners hold a new emitter under that name;
 * its event is the first of ENDING_EVENTS the emitter already has listeners for (socket.io's Socket
 * has the program's 'disconnect' handler), else 'close'. Null when they capture none: the fix then
 * says `res`, the common case.
 * @param {HeapAnalysis} analysis
 * @param {number[]} fresh  new listener functions
 * @param {Uint8Array} ages
 * @param {NameResolver} names
 * @param {number} [skipClass]  the class of the library object that made the listeners: it is what
 *   the fix closes, not what ends the work
 * @returns {{variable: string, event: string} | null}
 */
function endOfWork (analysis, fresh, ages, names, skipClass = -1) {
  const { graph } = analysis
  const sample = fresh.slice(-ENDING_SAMPLE)
  /** @type {Map<string, {count: number, emitter: number}>} */
  const byName = new Map()
  const edge = new EdgeCursor(graph)
  for (const fn of sample) {
    const context = propertyTarget(graph, unwrapBound(graph, fn), 'context')
    if (context < 0) continue
    for (edge.references(context); edge.next();) {
      if (!edge.is('context')) continue
      const value = edge.target
      if (ages[value] === AGE_OLD || analysis.classOf[value] === skipClass || propertyTarget(graph, value, '_events') < 0) continue
      const name = shownEdgeName(analysis, edge.number, names)
      const entry = byName.get(name) ?? { count: 0, emitter: value }
      entry.count++
      byName.set(name, entry)
    }
  }
  // Between a request and its response, both held by every listener, the response's 'close' is
  // the end of the exchange.
  const rank = (/** @type {{count: number, emitter: number}} */ entry) => 2 * entry.count + (analysis.classes.names[analysis.classOf[entry.emitter]] === 'ServerResponse' ? 1 : 0)
  /** @type {{name: string, count: number, emitter: number} | null} */
  let best = null
  for (const [name, entry] of byName) {
    if (entry.count * 2 >= sample.length && /^[A-Za-z_$][\w$]*$/.test(name) && (best === null || rank(entry) > rank(best))) best = { name, ...entry }
  }
  if (best === null) return null
  const events = propertyTarget(graph, best.emitter, '_events')
  return { variable: best.name, event: ENDING_EVENTS.find((event) => propertyTarget(graph, events, event) >= 0) ?? 'close' }
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
 * What the listeners' shared scopes keep that grows the most (an iterator's queue of events
 * nobody reads), summed over the scopes of every snapshot; null when nothing in them grows.
 * @param {HeapAnalysis[]} analyses
 * @param {ListenerList[]} lists
 * @param {NameResolver} names
 * @returns {{variable: string, className: string, retained: number[]} | null}
 */
function bufferedGrowth (analyses, lists, names) {
  /** @type {Map<string, {className: string, retained: number[]}>} */
  const byName = new Map()
  analyses.forEach((analysis, i) => {
    const { graph, dominators, retainedSizes } = analysis
    const edge = new EdgeCursor(graph)
    for (const list of lists) {
      for (const scope of measureList(analysis, list).scopes ?? []) {
        for (edge.references(scope); edge.next();) {
          const value = edge.target
          if (!edge.is('context') || dominators[value] !== scope) continue
          const name = shownEdgeName(analysis, edge.number, names)
          const entry = byName.get(name) ?? { className: '', retained: analyses.map(() => 0) }
          entry.retained[i] += retainedSizes.at(value)
          if (i === analyses.length - 1) entry.className = analysis.classes.names[analysis.classOf[value]]
          byName.set(name, entry)
        }
      }
    }
  })
  let best = null
  for (const [variable, entry] of byName) {
    const growth = entry.retained[entry.retained.length - 1] - entry.retained[0]
    if (growth > 0 && /^[A-Za-z_$][\w$]*$/.test(variable) && (best === null || growth > best.retained[best.retained.length - 1] - best.retained[0])) best = { variable, ...entry }
  }
  return best
}

/** Names of the functions that end an iterator or a subscription from inside its own scope. */
const CLOSER = /^(?:close|return|end|finish|stop|dispose|cancel|unsubscribe|remove)[A-Z]?\w*$/

/**
 * The name of a function that at least half of the scopes hold and whose name says it ends the
 * work they serve (`closeHandler`, `removeAll`), or null.
 * @param {HeapAnalysis} analysis
 * @param {number[]} scopes
 * @param {NameResolver} names
 * @returns {string | null}
 */
function closerIn (analysis, scopes, names) {
  const { graph } = analysis
  /** @type {Map<string, number>} */
  const counts = new Map()
  const edge = new EdgeCursor(graph)
  for (const scope of scopes.slice(-ENDING_SAMPLE)) {
    for (edge.references(scope); edge.next();) {
      if (!edge.is('context') || graph.nodeTypes[edge.target] !== graph.nodeType.closure) continue
      const name = shownEdgeName(analysis, edge.number, names)
      if (CLOSER.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1)
    }
  }
  const sampled = Math.min(scopes.length, ENDING_SAMPLE)
  let best = null
  for (const [name, count] of counts) if (count * 2 >= sampled && (best === null || count > best.count)) best = { name, count }
  return best?.name ?? null
}

/** Calls that subscribe with the emitter as their first argument (`on(emitter, ...)`), or as their receiver. */
const SUBSCRIBING = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'addEventListener', 'subscribe'])

/**
 * Offsets where `name` is handed to a call that subscribes to it; a `for ... of` over the
 * subscription is not one, since leaving the loop ends it.
 * @type {import('./write-sites.js').SiteFinder}
 */
function subscribeOffsets (syntax, name, member) {
  return syntax.usesOf(name, member).filter(({ call, method }) => {
    if (call !== null && call.argument === 0 && SUBSCRIBING.has(call.callee)) return !call.iterated
    return method !== null && SUBSCRIBING.has(method)
  }).map((use) => use.offset)
}

/**
 * Where the program subscribes to the emitter: a call handing the emitter's variable to a
 * subscribing call in the script that holds it (or any use of it, for a library object that
 * subscribes), else the program function that holds it; null when neither is the program's.
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path the row's path, through the emitter
 * @param {number} emitter
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {import('./write-sites.js').SiteFinder} offsetsOf
 * @param {string} role
 * @param {boolean} orHolder  fall back on the function that holds the emitter
 * @returns {{location: SourceLocation, role: string} | null}
 */
function subscribeSite (analysis, path, emitter, cwd, names, offsetsOf, role, orHolder) {
  const at = path.findIndex((step) => step.id === analysis.graph.nodeIds[emitter])
  if (at < 1) return null
  const toEmitter = path.slice(0, at + 1)
  const holder = holderLocation(analysis, toEmitter, cwd, names)
  if (holder === null || holder.location.file.startsWith('node:') || packageOf(holder.location.file) !== null) return null
  const sites = writeSites(analysis, toEmitter, holder, { offsetsOf, role, names })
  // A use at the top level of a module runs once: it is not what repeats.
  if (sites !== null && (sites.role === role || orHolder)) return { location: sites.location, role: sites.role }
  return orHolder ? { location: holder.location, role: HOLDER_ROLES[holder.how] } : null
}

const SUBSCRIBE_ROLE = 'subscribes to it'
const USE_ROLE = 'hands it to the library'

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
