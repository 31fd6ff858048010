// pending-promises: promises that never settle keep what waits on them. Two shapes:
//   - one long-lived pending promise collects a reaction per call (`.then`, `await`, each input of
//     Promise.race): a shutdown signal, a "ready" promise that failed silently. The promise's
//     `reactions_or_result` is the newest PromiseReaction, linked to older ones, so the promise is
//     the growth owner of every new reaction;
//   - a collection keeps a pending promise per call (usually through its resolve function, in a
//     list of waiters nobody resolves): each awaiting async function stays suspended with its locals.
// A reaction's handler is the program's own function for `.then(fn)`; for `await` it is a built-in
// whose scope holds the suspended async function, which the snapshot locates.

import { AGE_OLD } from '../query/ages.js'
import { DOMINATED, heldThroughNew, markDominatedBy, rowsOfOwners } from '../query/dominator-subtree.js'
import { isProgramLocation, mostCommonLocation } from './program-location.js'
import { findReference, propertyTarget, references, retainers } from '../query/references.js'
import { unwrapBound } from '../query/heap-values.js'
import { CLEAR_METHODS, RELEASE_METHODS, offeredMethod } from '../query/heap-methods.js'
import { growsEveryStep, judgeGrowth, percent, perStepOf, retainedById } from './growth-evidence.js'
import { bytesText, countText, notesOf } from './evidence-notes.js'
import { holderName } from './collection-growth.js'
import { holderLocation } from './holder-location.js'
import { libraryHandle } from './library-handle.js'
import { sourceLocation } from './source-location.js'
import { useOffsets, writeSites } from './write-sites.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */

export const ID = 'pending-promises'

/** @type {Signature} */
export const pendingPromises = { id: ID, match: matchPendingPromises }

const REACTION = 'system / PromiseReaction'
/** Fewer new reactions than this is too little to call a leak. */
const MIN_NEW_REACTIONS = 20
/** Reactions walked per promise at most. */
const MAX_CHAIN = 1 << 24
/** How the code at a use site relates to the promise, for the card. */
const USE_ROLE = 'uses it'

/** Handlers sampled per finding for its location. */
const MAX_HANDLERS = 10_000
/** Dominator steps climbed from a promise to the entry of its list that keeps it. */
const MAX_ENTRY_CLIMB = 64
/** Pending promises held by a collection must retain at least this share of the row's growth. */
const MIN_ROW_SHARE = 0.5

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchPendingPromises (input) {
  const { result, detail, cwd, names } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  /** @type {Match[]} */
  const matches = []
  /** @type {number[]} */
  const otherRows = []
  for (const g of input.candidates) {
    const row = result.growth[g]
    if (!row.leak) continue
    const representative = graph.findOrdinalById(row.owner.id)
    if (representative < 0) continue
    const promise = pendingPromiseOf(last, representative)
    if (promise < 0) {
      otherRows.push(g)
      continue
    }
    const promiseId = graph.nodeIds[promise]
    const counts = analyses.map((analysis) => {
      const o = analysis.graph.findOrdinalById(promiseId)
      return o < 0 ? 0 : countReactions(analysis.graph, o, () => {})
    })
    /** @type {number[]} */
    const handlers = []
    let newReactions = 0
    countReactions(graph, promise, (reaction) => {
      if (ages[reaction] === AGE_OLD) return
      newReactions++
      if (handlers.length < MAX_HANDLERS) collectHandlers(graph, reaction, handlers)
    })
    if (!growsEveryStep(counts) || newReactions < MIN_NEW_REACTIONS) continue

    const retained = retainedById(analyses, promiseId)
    const rowGrowth = row.retainedAfter - row.retainedBefore
    const share = rowGrowth > 0 ? Math.min(1, Math.max(0, (retained[retained.length - 1] - retained[0]) / rowGrowth)) : 0
    const { location: handlerAt, locationShare } = dominantHandler(last, handlers, cwd, names)
    // Built-in handlers (await, Promise.race) do not name the caller: the program's own use of the
    // promise, read from its script's text, does (`Promise.race([shutdown, work])`).
    const uses = handlerAt === null ? writeSites(last, row.path, holderLocation(last, row.path, cwd, names), { offsetsOf: useOffsets, role: USE_ROLE, cwd, names }) : null
    const location = handlerAt ?? uses?.location ?? null
    const facts = [
      { weight: 0, reason: 'the promise is still pending: a settled promise drops its reactions' },
      { weight: 0.1 * share, reason: `its reactions retain ${percent(share)} of the growth row's retained growth` }
    ]
    if (handlerAt !== null) facts.push({ weight: 0.05 * locationShare, reason: `${percent(locationShare)} of the new reactions' program handlers come from ${handlerAt.file}:${handlerAt.line}` })
    else facts.push({ weight: 0, reason: 'the handlers are built-in functions (await or Promise.race), so the heap does not name the code that subscribes' })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    const name = holderName(row.path)
    const what = name === null ? `Promise @${promiseId}` : `${name} (Promise)`
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: `${what} never settles and collects a reaction per call: ${counts.map((c) => c.toLocaleString('en-US')).join(' → ')} reactions.`,
        confidence,
        reasons,
        owner: { id: promiseId, name: last.classes.names[last.classOf[promise]], type: graph.nodeTypeName(promise) },
        path: row.path,
        evidence: {
          unit: 'reactions',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: 1,
          newReactions,
          bytesPerReaction: Math.round((retained[retained.length - 1] - retained[0]) / Math.max(1, counts[counts.length - 1] - counts[0])),
          notes: notesOf([
            `${countText(newReactions)} reactions added since the first snapshot, ~${bytesText((retained[retained.length - 1] - retained[0]) / Math.max(1, counts[counts.length - 1] - counts[0]))} each`,
            handlerAt === null && `handlers are await or Promise.race built-ins: the heap does not name the caller${uses === null ? '' : `; the location is where the program uses ${name ?? 'the promise'}`}`,
            ...(uses === null ? [] : uses.also.map((at) => `also uses it at ${at.file}:${at.line}:${at.column}${at.function === '' ? '' : ` (${at.function})`}`))
          ]),
          ...(uses === null ? {} : { locationRole: uses.role })
        },
        location,
        fix: {
          summary: 'do not subscribe per request to a promise that may never settle (nor race against one): listen on an AbortSignal and remove the listener when the request ends, or settle the promise.',
          snippet: "const onAbort = () => res.destroy()\nsignal.addEventListener('abort', onAbort, { once: true })\nres.on('close', () => signal.removeEventListener('abort', onAbort))"
        }
      }
    })
  }
  matches.push(...heldPendingPromises(input, otherRows))
  return matches.sort((a, b) => a.group - b.group)
}

/**
 * The collection shape: rows whose new objects are mostly pending promises that something awaits.
 * @param {SignatureInput} input
 * @param {number[]} rows
 * @returns {Match[]}
 */
function heldPendingPromises (input, rows) {
  const { result, detail, cwd, names } = input
  const { analyses, ages, noise, owners } = detail
  const last = analyses[analyses.length - 1]
  const { graph, retainedSizes } = last
  if (rows.length === 0) return []
  const rowOfOwner = rowsOfOwners(graph.nodeCount, detail.groupOwners, rows)
  /** @type {Map<number, {count: number, bytes: number, handlers: number[]}>} */
  const byRow = new Map()
  const counted = new Uint8Array(graph.nodeCount)
  for (let o = 0; o < graph.nodeCount; o++) {
    if (ages[o] === AGE_OLD || noise[o] === 1 || !isAwaitedPromise(last, o)) continue
    const g = rowOfOwner[owners[o]]
    // A promise that waits on another pending promise is part of that one's chain.
    if (g < 0 || heldThroughNew(last, o, rowOfOwner, g, ages, isAwaitedPromise)) continue
    let tally = byRow.get(g)
    if (!tally) byRow.set(g, (tally = { count: 0, bytes: 0, handlers: [] }))
    tally.count++
    // What the list keeps per waiter is the entry that holds the promise (a record with its resolve
    // function, a queued task closing over resolve and reject), not only the promise.
    const entry = waiterEntry(last, o, owners[o])
    if (counted[entry] === 0) {
      counted[entry] = 1
      tally.bytes += retainedSizes.at(entry)
    }
    if (tally.handlers.length < MAX_HANDLERS) collectHandlers(graph, propertyTarget(graph, o, 'reactions_or_result'), tally.handlers)
  }
  /** @type {Match[]} */
  const matches = []
  for (const g of rows) {
    const tally = byRow.get(g)
    const row = result.growth[g]
    if (tally === undefined || tally.count < MIN_NEW_REACTIONS) continue
    const rowGrowth = row.leakedBytes + row.recentBytes
    const share = rowGrowth > 0 ? Math.min(1, tally.bytes / rowGrowth) : 0
    if (share < MIN_ROW_SHARE) continue
    const ownerIds = detail.groupOwners[g].map((o) => graph.nodeIds[o])
    const counts = analyses.map((analysis) => countAwaitedPromises(analysis, ownerIds))
    if (!growsEveryStep(counts)) continue
    const retained = analyses.length === 3
      ? [row.retainedBefore, /** @type {number} */ (row.retainedMiddle), row.retainedAfter]
      : [row.retainedBefore, row.retainedAfter]
    const { location, locationShare } = dominantHandler(last, tally.handlers, cwd, names)
    // A list inside a library's object (a pool's waiting clients, a queue's tasks, a client's
    // command queue): the program did not make the promises and cannot settle them itself.
    const holder = holderLocation(last, row.path, cwd, names)
    const handle = holder === null ? null : libraryHandle(last, row.path, holder.location, cwd, names)
    const facts = [
      { weight: 0.1 * share, reason: `pending promises retain ${percent(share)} of the growth row's new objects` },
      { weight: 0, reason: 'each is awaited or has handlers and none has settled: whatever waits on them stays suspended' }
    ]
    if (location !== null) facts.push({ weight: 0.05 * locationShare, reason: `${percent(locationShare)} of them are awaited by code at ${location.file}:${location.line}` })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    const name = holderName(row.path)
    const list = name !== null && /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'waiters'
    const where = location === null || location.function === '' ? '' : ` (awaited in ${location.function})`
    const kept = name === null ? row.owner.name : `${name} (${row.owner.name})`
    const subject = handle === null ? kept : `${kept} of ${handle.name} (${handle.className}, from ${handle.library})`
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: `Promises that never settle are kept in ${subject}${where}: ${counts.map((c) => c.toLocaleString('en-US')).join(' → ')} pending promises.`,
        confidence,
        reasons,
        owner: row.owner,
        path: row.path,
        evidence: {
          unit: 'promises',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: row.ownerCount,
          newPromises: tally.count,
          bytesPerPromise: Math.round(tally.bytes / tally.count),
          notes: notesOf([
            `${countText(tally.count)} new pending promises, ~${bytesText(tally.bytes / tally.count)} each, none settled`,
            handle !== null && `the list belongs to ${handle.library}; the program awaits what it hands out`
          ]),
          library: handle === null ? null : handle.library,
          libraryLocation: handle === null || holder === null ? null : holder.location
        },
        location: location ?? handle?.location ?? null,
        fix: handle === null
          ? {
              summary: 'settle every promise you hand out: resolve or reject the waiters (on success, error and timeout) and remove them from the list, or give each wait a deadline.',
              snippet: `for (const waiter of ${list}.splice(0)) waiter.resolve(value) // on success\nfor (const waiter of ${list}.splice(0)) waiter.reject(error) // on failure and on timeout`
            }
          : libraryWaitFix(last, handle)
      }
    })
  }
  return matches
}

/**
 * The outermost node between a promise and its growth owner in the dominator tree: the entry of
 * the owner's list that keeps the promise (the promise itself when the owner holds it directly).
 * @param {HeapAnalysis} analysis
 * @param {number} promise
 * @param {number} owner
 */
function waiterEntry (analysis, promise, owner) {
  const { dominators, graph } = analysis
  let entry = promise
  for (let step = 0; step < MAX_ENTRY_CLIMB; step++) {
    const up = dominators[entry]
    if (up === owner || up === graph.rootOrdinal || up === entry) return entry
    // The owner's backing store (an array's elements, a Map's table) is part of the owner.
    if (graph.nodeTypes[up] === graph.nodeType.array && dominators[up] === owner) return entry
    entry = up
  }
  return promise
}

/**
 * The remedy when the waiters sit in a library's object: what they wait for (a resource given back,
 * a task finishing, a server's reply) never comes, so the program has to give back what it takes
 * and put a deadline on each wait; the object's own methods are named as the heap shows them.
 * @param {HeapAnalysis} analysis
 * @param {import('./library-handle.js').LibraryHandle} handle
 * @returns {{summary: string, snippet: string}}
 */
function libraryWaitFix (analysis, handle) {
  const { graph } = analysis
  const variable = /^[A-Za-z_$][\w$.]*$/.test(handle.accessor) ? handle.accessor : 'client'
  const release = offeredMethod(graph, handle.ordinal, RELEASE_METHODS)
  const clear = offeredMethod(graph, handle.ordinal, CLEAR_METHODS)
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

/**
 * A pending promise that something waits on: its reactions slot holds a PromiseReaction.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isAwaitedPromise (analysis, o) {
  if (!isPromise(analysis, o)) return false
  const head = propertyTarget(analysis.graph, o, 'reactions_or_result')
  return head >= 0 && analysis.graph.nodeName(head) === REACTION
}

/**
 * Awaited pending promises the owners keep alive in one snapshot.
 * @param {HeapAnalysis} analysis
 * @param {number[]} ownerIds
 */
function countAwaitedPromises (analysis, ownerIds) {
  const present = ownerIds.map((id) => analysis.graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (present.length === 0) return 0
  const inside = markDominatedBy(analysis, present)
  let count = 0
  for (let o = 0; o < inside.length; o++) if (inside[o] === DOMINATED && isAwaitedPromise(analysis, o)) count++
  return count
}

/**
 * The handler closures of one reaction (not of the reactions linked after it).
 * @param {HeapGraph} graph
 * @param {number} reaction
 * @param {number[]} handlers
 */
function collectHandlers (graph, reaction, handlers) {
  for (const edge = references(graph, reaction); edge.next();) {
    if (graph.nodeTypes[edge.target] === graph.nodeType.closure) handlers.push(unwrapBound(graph, edge.target))
  }
}

/**
 * The pending promise with reactions that `ordinal` is, or whose reaction list it is part of; -1.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 */
function pendingPromiseOf (analysis, ordinal) {
  const { graph } = analysis
  let current = ordinal
  // An old reaction of the list can be the owner when the promise itself is shared: climb to it.
  for (let step = 0; step < MAX_CHAIN && graph.nodeName(current) === REACTION; step++) {
    let up = -1
    for (const edge = retainers(graph, current); edge.next();) {
      const source = edge.source
      if (graph.nodeName(source) === REACTION || isPromise(analysis, source)) up = source
    }
    if (up < 0) return -1
    current = up
  }
  if (!isPromise(analysis, current)) return -1
  const head = propertyTarget(graph, current, 'reactions_or_result')
  return head >= 0 && graph.nodeName(head) === REACTION ? current : -1
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isPromise (analysis, o) {
  return analysis.graph.nodeTypes[o] === analysis.graph.nodeType.object && analysis.classes.names[analysis.classOf[o]] === 'Promise'
}

/**
 * Walks the reaction list of a pending promise, newest first; returns its length.
 * @param {HeapGraph} graph
 * @param {number} promise
 * @param {(reaction: number) => void} visit
 */
function countReactions (graph, promise, visit) {
  let reaction = propertyTarget(graph, promise, 'reactions_or_result')
  let count = 0
  while (reaction >= 0 && graph.nodeName(reaction) === REACTION && count < MAX_CHAIN) {
    visit(reaction)
    count++
    // The `next` slot is the one edge to another reaction.
    const current = reaction
    reaction = findReference(graph, current, (edge) => edge.target !== current && graph.nodeName(edge.target) === REACTION)
  }
  return count
}

/**
 * Where a handler's code is: its own function, or for the built-in handlers of `await` the
 * suspended async function (a generator object) its scope holds.
 * @param {HeapAnalysis} analysis
 * @param {number} fn
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {SourceLocation | null}
 */
function handlerLocation (analysis, fn, cwd, names) {
  const own = sourceLocation(analysis, fn, cwd, names)
  if (isProgramLocation(own)) return own
  const { graph } = analysis
  const context = propertyTarget(graph, fn, 'context')
  if (context < 0) return null
  for (const edge = references(graph, context); edge.next();) {
    const target = edge.target
    if (graph.nodeTypes[target] !== graph.nodeType.object || graph.nodeName(target) === 'system / Context') continue
    // A suspended async function names its function; other objects name their constructor.
    const fn = propertyTarget(graph, target, 'function')
    const location = sourceLocation(analysis, fn >= 0 && graph.nodeTypes[fn] === graph.nodeType.closure ? fn : target, cwd, names)
    if (isProgramLocation(location)) return location
  }
  return null
}

/**
 * The program location most new handlers share.
 * @param {HeapAnalysis} analysis
 * @param {number[]} handlers
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, locationShare: number}}
 */
function dominantHandler (analysis, handlers, cwd, names) {
  const best = mostCommonLocation(function * () {
    for (const fn of handlers) {
      const location = handlerLocation(analysis, fn, cwd, names)
      if (isProgramLocation(location)) yield { location, count: 1 }
    }
  }())
  return best === null ? { location: null, locationShare: 0 } : { location: best.location, locationShare: best.count / best.total }
}
