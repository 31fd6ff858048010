// listener-accumulation: one event's listener list keeps growing, usually because code running per
// request or per connection subscribes to a long-lived emitter and never unsubscribes. The list
// shapes (EventEmitter, EventTarget, event map, observer list) are in listeners/listener-lists.js;
// this module picks the list of a growth row that grew in every step, sums the lists of a row of
// several owners, and weighs what the listeners say about who added them and what ends them.

import { shownClassName } from '../analysis/shown-names.js'
import { AGE_OLD } from '../query/ages.js'
import { collectionOfStore } from '../query/collection-entries.js'
import { heldClasses, recognisedClasses } from '../query/held-objects.js'
import { UNSUBSCRIBE_METHODS, offeredMethod } from '../query/heap-methods.js'
import { findReference } from '../query/references.js'
import { growsEveryStep, judgeGrowth, perStepOf } from './growth-evidence.js'
import { packageOf } from './library-handle.js'
import { takeBackMethod, unclosedMaker } from './unclosed-makers.js'
import { emitterEntries, isOnceWrapper } from './listeners/event-emitter.js'
import { findListenerLists, measureList } from './listeners/listener-lists.js'
import { namedEmitter } from './listeners/listener-names.js'
import { bufferedGrowth, closerIn, endOfWork } from './listeners/listener-scopes.js'
import { dominantLocation, programSite } from './listeners/listener-sites.js'
import { LISTENER_REASONS, LISTENER_ROLE, listenerFix, listenerNotes, listenerTitle } from './listeners/listener-words.js'
import { leakingRows } from './leaking-rows.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {EdgeCursor} from '../query/references.js' */
/** @import {Finding, Match, Signature, SignatureInput} from './finding.js' */
/** @import {ListenerList} from './listeners/listener-lists.js' */
/** @import {ListenerCase} from './listeners/listener-words.js' */

export const ID = 'listener-accumulation'

/** @type {Signature} */
export const listenerAccumulation = { id: ID, match: matchListenerAccumulation }

const MIN_NEW_LISTENERS = 10
/** Owners of one row read per match; a row of more is summed over its largest ones. */
const MAX_OWNERS = 10_000

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchListenerAccumulation (input) {
  const { detail, cwd } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  /** @type {Match[]} */
  const matches = []
  for (const { group: g, owner: ordinal } of leakingRows(input)) {
    // A list's backing store stays old while it has room, and is then the owner the diff names.
    const owner = collectionOfStore(graph, ordinal)
    let best = null
    for (const list of findListenerLists(graph, owner)) {
      const counts = analyses.map((analysis) => measureList(analysis, list).count)
      // A list that gains fewer than MIN_NEW_LISTENERS counts when its emitter is an old one, and
      // then only with the row's other lists (below): a service with an emitter per user gains a
      // few listeners on each of thousands. A new emitter's first listeners came with it (a
      // watcher made per request and never closed: open-handles says so).
      if (!growsEveryStep(counts) || (counts[counts.length - 1] - counts[0] < MIN_NEW_LISTENERS && ages[list.emitter] !== AGE_OLD)) continue
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
      if (!list || !more || !growsEveryStep(more) || (more[more.length - 1] - more[0] < MIN_NEW_LISTENERS && ages[list.emitter] !== AGE_OLD)) continue
      lists.push(list)
      more.forEach((count, i) => { counts[i] += count })
    }
    if (counts[counts.length - 1] - counts[0] < MIN_NEW_LISTENERS) continue
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
 * @returns {Finding}
 */
function describe (input, g, lists, counts, last, ages, cwd) {
  const row = input.result.growth[g]
  const { graph } = last
  const [list] = lists
  const retained = input.detail.analyses.map((analysis) => lists.reduce((sum, l) => sum + measureList(analysis, l).retained, 0))
  const fresh = lists.flatMap((l) => measureList(last, l).listeners.filter((o) => ages[o] !== AGE_OLD))
  const scopes = lists.flatMap((l) => measureList(last, l).scopes).filter((o) => ages[o] !== AGE_OLD)
  const scopeGrowth = scopes.length > 0 ? bufferedGrowth(input.detail.analyses, lists, input.names) : null
  // Shown when it is a good part of what the list keeps: an iterator's queue, not a helper.
  const buffered = scopeGrowth !== null && 3 * (scopeGrowth.retained[scopeGrowth.retained.length - 1] - scopeGrowth.retained[0]) >= retained[retained.length - 1] - retained[0] ? scopeGrowth : null

  const held = heldClasses(last, [...fresh, ...scopes], ages)
  const keeps = recognisedClasses(held)
  const rowBytes = row.leakedBytes + row.recentBytes
  const share = rowBytes > 0 ? Math.min(1, held.bytes / rowBytes) : 0

  const { location, fromLocation } = dominantLocation(last, fresh, cwd, input.names)
  const { name, remover, named } = namedEmitter(last, row.path, list, shownClassName(last, list.emitter, input.names), input.names)
  const emitterClass = shownClassName(last, named, input.names)
  // A list entry that is a record may carry its own way out (a Subscription).
  const firstEntry = list.kind !== 'EventTarget' ? findReference(graph, graph.findOrdinalById(list.listId), isElement) : -1
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
  const site = libraryListener ? programSite(last, row.path, list.emitter, cwd, input.names, maker !== null) : null

  const facts = []
  if (list.kind !== 'observer list') facts.push({ weight: 0.1, reason: LISTENER_REASONS.list(list.kind) })
  else facts.push({ weight: 0.03, reason: LISTENER_REASONS.observerList })
  if (fresh.length > 0 && location !== null) {
    const locationShare = fromLocation / fresh.length
    facts.push({ weight: locationShare >= 0.8 ? 0.1 : 0, reason: LISTENER_REASONS.location(fromLocation, fresh.length, location) })
  }
  facts.push({ weight: 0.09 * share, reason: LISTENER_REASONS.share(share) })
  if (maker !== null) facts.push({ weight: 0, reason: LISTENER_REASONS.maker(maker) })
  if (closer !== null) facts.push({ weight: 0, reason: LISTENER_REASONS.closer(scopes.length, closer) })
  const { confidence, reasons } = judgeGrowth(counts, facts)
  /** @type {ListenerCase} */
  const found = {
    maker,
    takeBack,
    closer,
    nodeIterator: closer !== null && location !== null && location.file === 'node:events',
    once,
    ending: endOfWork(last, fresh, ages, input.names, maker?.classIndex ?? -1),
    // A package's own listeners with nothing of the program's to end them: the package adds one
    // per call and never takes it off (got's cache adds an 'error' listener to its Keyv per request).
    ownedBy: maker === null && closer === null && site === null && location !== null ? packageOf(location.file) : null
  }

  return {
    signature: ID,
    title: listenerTitle(list, name, emitterClass, lists.length, found),
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
      locationRole: site === null ? LISTENER_ROLE : site.role,
      ...(maker === null ? {} : { madeBy: { className: maker.className, from: maker.from, method: takeBack?.take ?? maker.method, ...(takeBack === null ? {} : { of: 'emitter' }) } }),
      ...(buffered === null ? {} : { buffered }),
      ...(site === null || location === null ? {} : { listenerLocation: location }),
      notes: listenerNotes(list, emitterClass, {
        fresh: fresh.length,
        location,
        fromLocation,
        atSite: site !== null,
        listCount: lists.length,
        buffered,
        waiting: once ? { count: waiting, of: newEntries.length } : null
      })
    },
    location: site?.location ?? location,
    fix: listenerFix(list, name, found, verb, recordVerb)
  }
}

/**
 * An element of an array.
 * @param {EdgeCursor} edge
 */
function isElement (edge) {
  return edge.is('element')
}
