// retained-sockets: connections kept after they close. A server that tracks its sockets (for a
// graceful shutdown, a broadcast, per-client state) and forgets to drop them on 'close' keeps each
// Socket with its streams' state, listeners and buffers. Recognised by the class of the objects the
// row holds (net.Socket, tls.TLSSocket: objects with readable and writable stream state) and by
// their handle: a closed socket's `_handle` is null.
//
// A second shape needs no growth row: outgoing connections left open. A client object made per call
// (a database client, an HTTP agent or dispatcher with keep-alive) and never closed keeps its socket
// open, and an open socket is held by its native handle, a GC root: the diff finds no old owner for
// it, so these sockets are counted directly in every snapshot, by the class of the object that holds
// them, like forgotten-timer counts timers.
//
// A third shape: sockets checked out of a shared connection pool and never given back. A keep-alive
// agent (Node's http.Agent, and everything built like it: `sockets` per origin for the busy ones,
// `freeSockets` for the idle ones) takes a socket back only when the response has been read to its
// end; a program that looks at the status and never reads the body keeps one socket busy per
// call, each with its request, its response and the unread bytes. Counted per pool in every
// snapshot; the response each socket waits on says whether the body arrived unread.

import { AGE_OLD, AGE_RECENT } from '../query/ages.js'
import { collectionKind, collectionOfStore, forEachEntry } from '../query/collection-entries.js'
import { DOMINATED, heldThroughNew, markDominatedBy, rowsOfOwners } from '../query/dominator-subtree.js'
import { isProgramLocation } from './program-location.js'
import { oddballValue, unwrapBound } from '../query/heap-values.js'
import { EdgeCursor, findReference, findRetainer, propertyTarget, referencedNodes } from '../query/references.js'
import { CLOSE_METHODS, offeredMethod } from '../query/heap-methods.js'
import { holderName } from './collection-growth.js'
import { evidenceOf, growsEveryStep, judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { bytesText, countText, notesOf } from './evidence-notes.js'
import { HOLDER_ROLES, holderLocation } from './holder-location.js'
import { constructorOf, packageOf } from './library-handle.js'
import { retainerPath } from '../analysis/retainer-paths.js'
import { sourceLocation } from './source-location.js'
import { useOffsets, writeSites } from './write-sites.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */
/** @import {HolderLocation} from './holder-location.js' */

export const ID = 'retained-sockets'

/** @type {Signature} */
export const retainedSockets = { id: ID, match: matchRetainedSockets }

const SOCKET_CLASSES = new Set(['Socket', 'TLSSocket'])
/** Owners of a row looked into as collections of sockets (a row of many owners is not one collection). */
const MAX_COLLECTION_OWNERS = 3
/** Classes a program keeps connections in. */
const COLLECTION_CLASSES = new Set(['Set', 'Map', 'Array', 'Object'])
/** How the code at a pool's use site relates to it, for the card. */
const USE_ROLE = 'hands the pool to a request'
/** Fewer new sockets than this is too little to call a leak. */
const MIN_NEW_SOCKETS = 20
/** The sockets must retain at least this share of the row's new objects. */
const MIN_ROW_SHARE = 0.5
/** Node's own connection machinery: the handle, parsers and request wrappers that point at every
 * socket. The object that owns a connection is looked for past them. */
const MACHINERY = new Set(['TCP', 'Pipe', 'TLSWrap', 'HTTPParser', 'HTTPServerAsyncResource', 'HTTPClientAsyncResource',
  'WriteWrap', 'ShutdownWrap', 'TCPConnectWrap', 'ReadableState', 'WritableState', 'Socket', 'TLSSocket', 'Object', 'Array'])
/** Retainer steps climbed from a socket to the object that owns it (an agent keeps its idle
 * sockets in an array per origin, in an object: three steps). */
const MAX_HOLDER_STEPS = 3

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchRetainedSockets (input) {
  const { result, detail, cwd, names } = input
  const { analyses, ages, noise, owners } = detail
  const last = analyses[analyses.length - 1]
  const { graph, retainedSizes } = last
  const rows = input.candidates.filter((g) => result.growth[g].leak)
  const rowOfOwner = rowsOfOwners(graph.nodeCount, detail.groupOwners, rows)
  const isSocket = socketClasses(last)
  /** @type {Map<number, {count: number, closed: number, bytes: number, sample: number}>} new sockets per row */
  const fresh = new Map()
  for (let o = 0; o < graph.nodeCount; o++) {
    if (ages[o] === AGE_OLD || noise[o] === 1 || !isSocketNode(last, o, isSocket)) continue
    const g = rowOfOwner[owners[o]]
    // Sockets reached through captured variables are a closure's doing (closure-retention); an
    // owner made since the baseline is an open handle held from the roots (openConnections).
    if (g < 0 || ages[owners[o]] !== AGE_OLD || heldThroughNew(last, o, rowOfOwner, g, ages, isScopeNode)) continue
    let tally = fresh.get(g)
    if (!tally) fresh.set(g, (tally = { count: 0, closed: 0, bytes: 0, sample: o }))
    tally.count++
    tally.bytes += retainedSizes.at(o)
    if (isClosed(last, o)) tally.closed++
  }
  /** @type {Match[]} */
  const matches = []
  matches.push(...openConnections(input, rowsOfOwners(graph.nodeCount, detail.groupOwners, input.candidates)))
  claimAcceptedEnds(input, matches)
  const claimed = new Set(matches.flatMap((m) => [m.group, ...(m.also ?? [])]))
  for (const g of rows) {
    if (claimed.has(g)) continue
    const row = result.growth[g]
    const tally = fresh.get(g)
    if (tally === undefined || tally.count < MIN_NEW_SOCKETS) continue
    const { closed, bytes, sample } = tally
    const newSockets = tally.count
    const rowGrowth = row.leakedBytes + row.recentBytes
    const share = rowGrowth > 0 ? Math.min(1, bytes / rowGrowth) : 0
    if (share < MIN_ROW_SHARE) continue

    const ownerIds = detail.groupOwners[g].map((o) => graph.nodeIds[o])
    const tallies = analyses.map((analysis) => countSockets(analysis, ownerIds))
    const counts = tallies.map((t) => t.sockets)
    if (!growsEveryStep(counts)) continue
    const retained = tallies.map((t) => t.bytes)

    const representative = graph.findOrdinalById(row.owner.id)
    // Node's timer list holds an open socket through its idle timeout (on Node 24 it dominates the
    // sockets a server accepted): the open connection is the leak, not the list.
    if (closed === 0 && representative >= 0 && last.classes.names[last.classOf[representative]] === 'TimersList') continue
    // Open accepted sockets growing as fast as this process's own outgoing connections left open
    // are their other ends: one leak, reported from the side that opens them.
    const mirror = closed === 0 ? matches.find((m) => isMirror(m, perStepOf(counts))) : undefined
    if (mirror !== undefined) {
      addOtherEnds(mirror, [g], `pile up in ${holderName(row.path) ?? row.owner.name} (${row.owner.name})`)
      continue
    }
    const collection = representative < 0 ? -1 : collectionOfStore(graph, representative)
    let path = row.path
    if (collection !== representative && path.length >= 2 && path[path.length - 2].id === graph.nodeIds[collection]) path = path.slice(0, -1)
    const owner = collection < 0 ? row.owner : { id: graph.nodeIds[collection], name: last.classes.names[last.classOf[collection]], type: graph.nodeTypeName(collection) }
    const name = holderName(path) ?? `${owner.name} @${owner.id}`
    const holder = connectionListener(last, sample, path, cwd, names) ?? holderLocation(last, path, cwd, names)
    const closedShare = closed / newSockets
    const facts = [
      { weight: 0.1 * share, reason: `the sockets retain ${percent(share)} of the growth row's new objects` },
      closed > 0
        ? { weight: 0.08 * closedShare, reason: `${percent(closedShare)} of the new sockets are closed (no handle): nothing but this reference keeps them` }
        : { weight: 0, reason: 'the new sockets are still open: a connection pool or long-lived clients may explain them' }
    ]
    if (holder !== null) facts.push({ weight: 0.02, reason: `held by code at ${holder.location.file}:${holder.location.line}` })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    const variable = /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'connections'
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: closed > 0
          ? `Closed sockets are kept in ${name} (${owner.name}): ${countsText(counts)} sockets, ${closed.toLocaleString('en-US')} of the new ones closed.`
          : `Open connections pile up in ${name} (${owner.name}): ${countsText(counts)} sockets, none of the new ones closed.`,
        confidence,
        reasons,
        owner,
        path,
        evidence: {
          ...evidenceOf('sockets', counts, retained, row.ownerCount),
          newSockets,
          closedSockets: closed,
          bytesPerSocket: Math.round(bytes / newSockets),
          notes: notesOf([
            `${countText(newSockets)} new sockets, ${closed === newSockets ? 'all' : closed === 0 ? 'none' : countText(closed)} closed, still referenced`,
            `~${bytesText(bytes / newSockets)} per socket`
          ]),
          locationRole: holder === null ? null : holder.how === 'closure' ? 'function that receives or holds the sockets' : HOLDER_ROLES[holder.how]
        },
        location: holder === null ? null : holder.location,
        fix: closed > 0
          ? { summary: `drop a socket from ${name} when it closes (and destroy idle ones you no longer need).`, snippet: removalSnippet(owner.name, variable) }
          : {
              summary: `the connections are still open: their peers never disconnect. Close the ones whose work is done, and time out idle ones so that peers that go quiet cannot pile up in ${name} (for WebSockets, a ping heartbeat that terminates peers that stop answering).`,
              snippet: 'socket.setTimeout(60_000, () => socket.destroy()) // idle connections end; the close handler drops them'
            }
      }
    })
  }
  return matches.sort((a, b) => a.group - b.group)
}

/**
 * Open outgoing sockets that no program object holds, counted per class of the object that owns
 * them in every snapshot; a finding per owner class whose open sockets grow in every step. The
 * growth row of their handles (new owners held from the roots) is the finding's, when it leaks.
 * @param {SignatureInput} input
 * @param {Int32Array} rowOfOwner growth row per owner ordinal (all candidate rows)
 * @returns {Match[]}
 */
function openConnections (input, rowOfOwner) {
  const { detail, cwd, names } = input
  const { analyses, ages, owners } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  const tallies = analyses.map((analysis) => tallyOpenSockets(analysis, cwd, names))
  const latest = tallies[tallies.length - 1]
  /** @type {Match[]} */
  const matches = []
  /** @type {Set<number>} */
  const claimed = new Set()
  for (const [key, tally] of latest) {
    const counts = tallies.map((byKey) => byKey.get(key)?.sockets.length ?? 0)
    // Sockets an old owner of a growth row holds are that row's (the collection shape above),
    // unless they are checked out of a pool: the pool's array per origin is such an owner.
    const fresh = tally.sockets.filter((o) => ages[o] !== AGE_OLD && (tally.pooled || rowOfOwner[owners[o]] < 0 || ages[owners[o]] !== AGE_OLD))
    if (!growsEveryStep(counts) || fresh.length < MIN_NEW_SOCKETS) continue
    const group = handleRow(input, fresh, rowOfOwner, claimed)
    if (tally.pooled) {
      // Requests in flight when the snapshot was taken are checked out too, more of them as load
      // rises: only requests made before the middle snapshot and still out at the last one are stuck.
      const stuck = fresh.filter((o) => {
        const request = propertyTarget(graph, o, '_httpMessage')
        return request >= 0 && ages[request] !== AGE_RECENT && oddballValue(graph, request) === null
      })
      if (stuck.length * 2 >= MIN_NEW_SOCKETS) matches.push(checkedOutMatch(input, group, tally, fresh, counts, tallies.map((byKey) => byKey.get(key)?.bytes ?? 0)))
      continue
    }
    const retained = tallies.map((byKey) => byKey.get(key)?.bytes ?? 0)
    const holder = tally.holders[tally.holders.length - 1]
    const { name: className, location: constructorAt } = constructorOf(last, holder, cwd, names)
    const library = constructorAt === null ? null : packageOf(constructorAt.file)
    const from = library !== null ? ` from ${library}` : constructorAt?.file.startsWith('node:') ? ` (${constructorAt.file})` : ''
    const freshHolders = new Set(tally.holders.filter((o) => ages[o] !== AGE_OLD))
    const close = closeMethodOf(graph, tally.holders)
    const path = retainerPath(last, holder, { maxLength: 12, names })
    const lastEdge = path.at(-1)?.edge ?? ''
    const variable = /^[A-Za-z_$][\w$]*$/.test(lastEdge) && lastEdge !== 'this' ? lastEdge : className.replace(/^[A-Z]/, (c) => c.toLowerCase()).replace(/[^\w$]/g, '') || 'client'
    const perHolder = fresh.length / Math.max(1, freshHolders.size)
    const { confidence, reasons } = judgeGrowth(counts, [
      { weight: 0.1 * Math.min(1, freshHolders.size / fresh.length), reason: `${freshHolders.size} of the ${className} objects holding them are new, ~${perHolder.toFixed(1)} sockets each: one is made per call` },
      { weight: 0.05, reason: 'the sockets are open (they have a handle) and nothing in the program holds their owners: only the connection keeps them' }
    ])
    const bytesPerSocket = (retained[retained.length - 1] - retained[0]) / Math.max(1, counts[counts.length - 1] - counts[0])
    matches.push({
      group,
      finding: {
        signature: ID,
        title: `Outgoing connections are left open: ${counts.map((c) => c.toLocaleString('en-US')).join(' → ')} open sockets held by ${className} objects${from}, ${freshHolders.size.toLocaleString('en-US')} of them new.`,
        confidence,
        reasons,
        owner: { id: graph.nodeIds[holder], name: className, type: graph.nodeTypeName(holder) },
        path,
        evidence: {
          ...evidenceOf('sockets', counts, retained, freshHolders.size),
          newSockets: fresh.length,
          closedSockets: 0,
          bytesPerSocket: Math.round(bytesPerSocket),
          holderClass: className,
          library,
          notes: notesOf([
            `${countText(fresh.length)} new open sockets, ~${bytesText(bytesPerSocket)} each with what they keep`,
            `${countText(freshHolders.size)} new ${className} objects hold them; the program keeps none of them`
          ]),
          locationRole: constructorAt === null ? null : 'constructor of the object holding the sockets'
        },
        location: constructorAt,
        fix: {
          summary: `${/^[AEIOU]/.test(className) ? 'an' : 'a'} ${className} is made per call and never closed, so its connection stays open${close === null ? '' : ` until ${close}() is called`}. Create one at start-up and share it, or close each one when its work is done.`,
          snippet: `const ${variable} = new ${className}(/* ... */) // once, at start-up, shared by every call${close === null ? '' : `\n// or per call: try { /* ... */ } finally { await ${variable}.${close}() }`}`
        }
      }
    })
  }
  return matches
}

/**
 * The leaking growth row that holds most of the given sockets through new owners (their handles,
 * held from the roots), unless an earlier finding took it; -1 when there is none.
 * @param {SignatureInput} input
 * @param {number[]} sockets ordinals in the last snapshot
 * @param {Int32Array} rowOfOwner
 * @param {Set<number>} claimed rows already taken, updated
 */
function handleRow ({ result, detail }, sockets, rowOfOwner, claimed) {
  /** @type {Map<number, number>} */
  const perRow = new Map()
  for (const o of sockets) {
    const g = rowOfOwner[detail.owners[o]]
    if (g >= 0) perRow.set(g, (perRow.get(g) ?? 0) + 1)
  }
  let best = -1
  let bestCount = 0
  for (const [g, count] of perRow) {
    if (count > bestCount && result.growth[g].leak && !claimed.has(g)) {
      best = g
      bestCount = count
    }
  }
  if (best >= 0) claimed.add(best)
  return best
}

/**
 * Open outgoing sockets of one kind in one snapshot.
 * @typedef {object} OpenSockets
 * @property {number[]} sockets  ordinals
 * @property {number[]} holders  per socket, the object that owns it (its pool, when pooled)
 * @property {number} bytes      retained by the sockets
 * @property {boolean} pooled    checked out of one pool (checkedOutOf), the key's
 */

/**
 * Open outgoing sockets (not accepted by a server in this process) by the class of their owner,
 * or by the pool they are checked out of.
 * @param {HeapAnalysis} analysis
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {Map<string, OpenSockets>}
 */
function tallyOpenSockets (analysis, cwd, names) {
  const { graph, retainedSizes } = analysis
  const isSocket = socketClasses(analysis)
  /** @type {Map<string, OpenSockets>} */
  const byKey = new Map()
  const edge = new EdgeCursor(graph)
  for (let o = 0; o < graph.nodeCount; o++) {
    if (!isSocketNode(analysis, o, isSocket) || !isOpen(analysis, o) || isAccepted(analysis, o)) continue
    const pool = checkedOutOf(graph, o)
    const holder = pool >= 0 ? pool : socketOwner(analysis, o, edge)
    if (holder < 0) continue
    // A pool is one object for the whole process: its own id keys it across snapshots.
    let key = `pool @${graph.nodeIds[pool]}`
    if (pool < 0) {
      const { name, location } = constructorOf(analysis, holder, cwd, names)
      key = `${name} ${location === null ? '' : location.file}`
    }
    let tally = byKey.get(key)
    if (!tally) byKey.set(key, (tally = { sockets: [], holders: [], bytes: 0, pooled: pool >= 0 }))
    tally.sockets.push(o)
    tally.holders.push(holder)
    tally.bytes += retainedSizes.at(o)
  }
  return byKey
}

/**
 * The finding for sockets checked out of one pool that grow in every step.
 * @param {SignatureInput} input
 * @param {number} group the growth row of the sockets, or -1
 * @param {OpenSockets} tally the last snapshot's
 * @param {number[]} fresh the new sockets among them
 * @param {number[]} counts per snapshot
 * @param {number[]} retained per snapshot
 * @returns {Match}
 */
function checkedOutMatch (input, group, tally, fresh, counts, retained) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  const { graph } = last
  const pool = tally.holders[0]
  const { name: className, location: constructorAt } = constructorOf(last, pool, cwd, names)
  const path = retainerPath(last, pool, { maxLength: 12, readable: true, names })
  const name = holderName(path) ?? `${className} @${graph.nodeIds[pool]}`
  const unread = fresh.filter((o) => responseOf(graph, o) === 'unread').length
  const waiting = fresh.filter((o) => responseOf(graph, o) === 'waiting').length
  const unreadShare = unread / fresh.length
  const holder = holderLocation(last, path, cwd, names)
  // The line that hands the pool to a request is where its response is dropped; the function
  // the heap places the pool's holder in is any of the module's.
  const uses = writeSites(last, path, holder, { offsetsOf: useOffsets, role: USE_ROLE, names })
  const located = poolLocation(path, uses, holder, constructorAt)
  const bytesPerSocket = (retained[retained.length - 1] - retained[0]) / Math.max(1, counts[counts.length - 1] - counts[0])
  const { confidence, reasons } = judgeGrowth(counts, [
    { weight: 0.1, reason: `the sockets are checked out of ${name}, which takes a socket back only when its response has been read to the end` },
    unread > 0
      ? { weight: 0.05 * unreadShare, reason: `${percent(unreadShare)} of the new ones hold a complete response nobody read` }
      : { weight: 0, reason: 'their responses have not fully arrived: a slow upstream or a request never ended would look the same' }
  ])
  const readFix = 'read or discard every response body, on every path: res.resume() when the body is not needed (with fetch, await res.text() or res.body.cancel()).'
  return {
    group,
    finding: {
      signature: ID,
      title: unread * 2 >= fresh.length
        ? `Responses are never read, so their connections never go back to ${name} (${className}): ${countsText(counts)} sockets checked out, ${unread.toLocaleString('en-US')} of the new ones with the whole response unread.`
        : `Requests never finish, so their connections never go back to ${name} (${className}): ${countsText(counts)} sockets checked out.`,
      confidence,
      reasons,
      owner: { id: graph.nodeIds[pool], name: className, type: graph.nodeTypeName(pool) },
      path,
      evidence: {
        ...evidenceOf('sockets', counts, retained, 1),
        newSockets: fresh.length,
        closedSockets: 0,
        bytesPerSocket: Math.round(bytesPerSocket),
        unreadResponses: unread,
        awaitingResponse: waiting,
        notes: notesOf([
          `${countText(fresh.length)} new sockets checked out and never returned, ~${bytesText(bytesPerSocket)} each with what they keep`,
          `${countText(unread)} of them hold a complete response whose body nobody read; ${countText(waiting)} still wait for a response`,
          ...(uses === null ? [] : uses.also.map((at) => `also uses ${name} at ${at.file}:${at.line}:${at.column}`))
        ]),
        locationRole: located?.role ?? null
      },
      location: located?.location ?? null,
      fix: unread * 2 >= fresh.length
        ? {
            summary: readFix,
            snippet: `http.get(url, { ${variableName(name) === 'agent' ? 'agent' : `agent: ${variableName(name)}`} }, (res) => {\n  res.resume() // or read it to the end: for await (const chunk of res) { /* ... */ }\n  /* ... */\n})`
          }
        : {
            summary: `end every request and give it a deadline, so a stalled upstream cannot keep sockets checked out; and ${readFix}`,
            snippet: 'const req = http.get(url, { agent, timeout: 10_000 }, (res) => { /* read or res.resume() */ })\nreq.on(\'timeout\', () => req.destroy(new Error(\'upstream timeout\')))'
          }
    }
  }
}

/**
 * Where a pool's finding points: the line that hands the pool to a request, else the code holding
 * the pool, else the pool's constructor. Without the script's text, a pool in a module scope has
 * no line of its own: every function of the module closes over that scope (the holder location
 * would be any of them), and the path already names the module and the variable.
 * @param {Step[]} path ends at the pool
 * @param {import('./write-sites.js').WriteSites | null} uses
 * @param {HolderLocation | null} holder
 * @param {SourceLocation | null} constructorAt
 * @returns {{location: SourceLocation, role: string} | null}
 */
function poolLocation (path, uses, holder, constructorAt) {
  if (uses !== null) return { location: uses.location, role: uses.role }
  const inModule = path.length >= 2 && path[path.length - 2].module !== undefined
  if (holder !== null && !(inModule && holder.how === 'closure')) return { location: holder.location, role: HOLDER_ROLES[holder.how] }
  return !inModule && constructorAt !== null ? { location: constructorAt, role: 'constructor of the pool' } : null
}

/**
 * Growth rows owned by open sockets that a server of this process accepted, when an open-connections
 * finding counts about as many new outgoing sockets as that server accepted: the same connections
 * seen from the other end (a client and its server in one process), claimed by that finding rather
 * than reported again as a collection of sockets.
 * @param {SignatureInput} input
 * @param {Match[]} matches the open-connections findings made so far; updated
 */
function claimAcceptedEnds (input, matches) {
  if (matches.length === 0) return
  const { detail } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  const isSocket = socketClasses(last)
  const isEnd = (/** @type {number} */ o) => isSocketNode(last, o, isSocket) && isOpen(last, o) && isAccepted(last, o)
  /** @type {Map<number, {total: number, rows: number[]}>} new accepted open sockets per server */
  const perServer = new Map()
  const serverOf = (/** @type {number} */ socket) => propertyTarget(graph, socket, 'server')
  const edge = new EdgeCursor(graph)
  for (let o = 0; o < graph.nodeCount; o++) {
    if (ages[o] === AGE_OLD || !isEnd(o)) continue
    const tally = perServer.get(serverOf(o)) ?? { total: 0, rows: [] }
    perServer.set(serverOf(o), tally)
    tally.total++
  }
  if (perServer.size === 0) return
  // Rows that are these sockets, or objects wrapping one each (a WebSocket over its socket); a row
  // whose owners are mostly other objects is a leak of its own.
  const taken = new Set(matches.flatMap((m) => [m.group, ...(m.also ?? [])]))
  for (const g of input.candidates) {
    if (taken.has(g)) continue
    const owners = detail.groupOwners[g]
    // A collection owner (Node 24's timer lists keep the sockets themselves, leaving the set that
    // holds them an owner of its table only) counts by its entries.
    const ends = owners.map((o) => (isEnd(o) ? o : wrappedSocket(edge, o, isEnd)))
      .map((end, k) => (end >= 0 || owners.length > MAX_COLLECTION_OWNERS ? end : collectedSocket(edge, owners[k], isEnd)))
    const found = ends.filter((o) => o >= 0)
    if (found.length * 2 < ends.length) continue
    perServer.get(serverOf(found[0]))?.rows.push(g)
  }
  for (const { total, rows: ends } of perServer.values()) {
    const newSockets = (/** @type {Match} */ m) => Number(m.finding.evidence.newSockets)
    const mirrors = matches.filter((m) => Math.abs(newSockets(m) - total) <= 0.1 * Math.max(total, newSockets(m)))
    if (total < MIN_NEW_SOCKETS || mirrors.length === 0 || ends.length === 0) continue
    const path = input.result.growth[ends[0]].path
    // Named only when a collection keeps them (a server's set of clients); through Node's timer
    // lists (their idle timeouts) there is no place of the program's to name.
    const named = path.findLast((step) => step.edgeType === 'property' || step.edgeType === 'context')
    const where = named !== undefined && COLLECTION_CLASSES.has(named.node) ? `pile up in ${named.edge} (${named.node})` : 'stay open too'
    // The heap does not say which connection an accepted socket is the other end of: with several
    // findings of the same size, the rows are claimed without naming one of them as the cause.
    addOtherEnds(mirrors[0], ends, mirrors.length === 1 ? where : null)
  }
}

/**
 * An entry of a Set, Map or array `o` stands for (or the collection whose store `o` is), when at
 * least half of its entries are sockets `isEnd` accepts or wrap one; else -1.
 * @param {EdgeCursor} edge  a cursor of the graph to walk with
 * @param {number} o
 * @param {(o: number) => boolean} isEnd
 */
function collectedSocket (edge, o, isEnd) {
  const { graph } = edge
  const collection = collectionOfStore(graph, o)
  const kind = collectionKind(graph, collection)
  if (kind === null || kind === 'object') return -1
  let entries = 0
  let ends = 0
  let first = -1
  forEachEntry(graph, collection, kind, (key, value) => {
    entries++
    const end = [key, value].map((x) => (x < 0 ? -1 : isEnd(x) ? x : wrappedSocket(edge, x, isEnd))).find((x) => x >= 0) ?? -1
    if (end < 0) return
    ends++
    if (first < 0) first = end
  })
  return entries > 0 && ends * 2 >= entries ? first : -1
}

/**
 * The socket an object wraps or works for: the first of its properties that `isEnd` accepts, or
 * the first element of a property that is an array (a timer's arguments: Node's idle timer of a
 * socket gets the socket so); -1 when there is none.
 * @param {EdgeCursor} edge  a cursor of the graph to walk with
 * @param {number} o
 * @param {(o: number) => boolean} isEnd
 */
function wrappedSocket (edge, o, isEnd) {
  const { graph } = edge
  const isEndElement = (/** @type {EdgeCursor} */ element) => element.is('element') && isEnd(element.target)
  for (edge.references(o); edge.next();) {
    if (!edge.is('property')) continue
    const target = edge.target
    if (isEnd(target)) return target
    if (graph.nodeTypes[target] !== graph.nodeType.object || graph.nodeName(target) !== 'Array') continue
    const element = findReference(graph, target, isEndElement)
    if (element >= 0) return element
  }
  return -1
}

/**
 * Rows that hold the other ends of a finding's open connections become that finding's, with a note.
 * @param {Match} match
 * @param {number[]} rows
 * @param {string | null} where  the end of the note (`pile up in clients (Set)`); null: no note
 */
function addOtherEnds (match, rows, where) {
  match.also = [...(match.also ?? []), ...rows]
  if (where === null) return
  const note = `their other ends, accepted by a server in this process, ${where}`
  const notes = match.finding.evidence.notes ?? []
  if (!notes.some((n) => n.startsWith('their other ends'))) match.finding.evidence.notes = [...notes, note]
}

/**
 * Whether a finding already made counts outgoing connections left open growing by about `perStep`.
 * @param {Match} match
 * @param {number} perStep
 */
function isMirror (match, perStep) {
  const { evidence, title } = match.finding
  return title.startsWith('Outgoing connections') && Math.abs(evidence.perStep - perStep) <= 0.1 * Math.max(perStep, evidence.perStep)
}

/**
 * @param {number[]} counts
 */
function countsText (counts) {
  return counts.map((c) => c.toLocaleString('en-US')).join(' → ')
}

/**
 * A name usable as a variable in a snippet: the holder's name, or `agent`.
 * @param {string} name
 */
function variableName (name) {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'agent'
}

/**
 * The pool a socket is checked out of: an object with `sockets` (busy sockets in an array per
 * origin) and `freeSockets` (idle ones) whose `sockets` lists this one; -1 when there is none.
 * Only the shape counts, so agents of other packages built like Node's are pools too.
 * @param {import('../graph/heap-graph.js').HeapGraph} graph
 * @param {number} socket
 */
function checkedOutOf (graph, socket) {
  if (graph.strings.indexOf('sockets') < 0) return -1
  const list = findRetainer(graph, socket, isOriginList)
  const byOrigin = list < 0 ? -1 : findRetainer(graph, list, isPoolTable)
  return byOrigin < 0 ? -1 : findRetainer(graph, byOrigin, isPool)
}

/**
 * An element retainer from an origin's list of busy sockets in a pool.
 * @param {EdgeCursor} edge
 */
function isOriginList (edge) {
  return edge.is('element') && findRetainer(edge.graph, edge.source, isPoolTable) >= 0
}

/**
 * A property retainer from a pool's table of busy sockets by origin.
 * @param {EdgeCursor} edge
 */
function isPoolTable (edge) {
  return edge.is('property') && findRetainer(edge.graph, edge.source, isPool) >= 0
}

/**
 * The `sockets` of a pool: the object holding it also has `freeSockets`.
 * @param {EdgeCursor} edge
 */
function isPool (edge) {
  return edge.is('property', 'sockets') && propertyTarget(edge.graph, edge.source, 'freeSockets') >= 0
}

/**
 * What the request on a socket waits for: 'unread' when its response has fully arrived
 * (`complete`) and still sits there, 'waiting' when no response has come, else 'other'.
 * @param {import('../graph/heap-graph.js').HeapGraph} graph
 * @param {number} socket
 * @returns {'unread' | 'waiting' | 'other'}
 */
function responseOf (graph, socket) {
  const request = propertyTarget(graph, socket, '_httpMessage')
  if (request < 0 || oddballValue(graph, request) !== null) return 'other'
  const response = propertyTarget(graph, request, 'res')
  if (response < 0 || oddballValue(graph, response) !== null) return 'waiting'
  return oddballValue(graph, propertyTarget(graph, response, 'complete')) === 'true' ? 'unread' : 'other'
}

/**
 * An open socket has a handle object (a closed one has null, heapsnapshot-format.md 7).
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isOpen (analysis, o) {
  const { graph } = analysis
  let handle = propertyTarget(graph, o, '_handle')
  if (handle < 0) handle = propertyTarget(graph, o, '<symbol kHandle>')
  return handle >= 0 && graph.nodeTypes[handle] === graph.nodeType.object && oddballValue(graph, handle) === null
}

/**
 * A socket a server of this process accepted has its `server` set (null on outgoing sockets).
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isAccepted (analysis, o) {
  const server = propertyTarget(analysis.graph, o, 'server')
  return server >= 0 && oddballValue(analysis.graph, server) === null
}

/**
 * The object a socket belongs to: among the objects that reach it over property and element
 * references within MAX_HOLDER_STEPS, past Node's connection machinery and plain containers, the
 * nearest emitter (clients and agents emit their connection events; a parser or a request record
 * that also points at the socket does not), else the nearest one; -1 when there is none.
 * @param {HeapAnalysis} analysis
 * @param {number} socket
 * @param {EdgeCursor} edge  a cursor of the analysis's graph to walk with
 */
function socketOwner (analysis, socket, edge) {
  const { graph, classes, classOf } = analysis
  let level = [socket]
  const seen = new Set(level)
  let nearest = -1
  for (let step = 0; step < MAX_HOLDER_STEPS && level.length > 0; step++) {
    /** @type {number[]} */
    const next = []
    for (const o of level) {
      for (edge.retainers(o); edge.next();) {
        if (!edge.is('property') && !edge.is('element')) continue
        const source = edge.source
        if (seen.has(source) || graph.nodeTypes[source] !== graph.nodeType.object) continue
        seen.add(source)
        const name = classes.names[classOf[source]]
        if (MACHINERY.has(name) || name.startsWith('system /') || name.startsWith('{')) {
          next.push(source)
          continue
        }
        if (propertyTarget(graph, source, '_events') >= 0) return source
        if (nearest < 0) nearest = source
      }
    }
    if (nearest >= 0) return nearest
    level = next
  }
  return -1
}

/**
 * The program's 'connection' listener on the server the sockets came from, when it closes over the
 * scope that holds the collection (or is the only program listener): the code that receives each
 * socket, which the heap knows, unlike the line that stores it.
 * @param {HeapAnalysis} analysis
 * @param {number} socket
 * @param {Step[]} path ends at the collection
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {HolderLocation | null}
 */
function connectionListener (analysis, socket, path, cwd, names) {
  const { graph } = analysis
  const server = socket < 0 ? -1 : propertyTarget(graph, socket, 'server')
  const events = server < 0 ? -1 : propertyTarget(graph, server, '_events')
  const listeners = events < 0 ? -1 : propertyTarget(graph, events, 'connection')
  if (listeners < 0) return null
  /** @type {number[]} */
  const candidates = []
  if (graph.nodeTypes[listeners] === graph.nodeType.closure) candidates.push(unwrapBound(graph, listeners))
  else {
    for (const element of referencedNodes(graph, listeners, 'element')) {
      if (graph.nodeTypes[element] === graph.nodeType.closure) candidates.push(unwrapBound(graph, element))
    }
  }
  const holderStep = path.length >= 2 ? path[path.length - 2] : null
  const holderContext = holderStep !== null && holderStep.node === 'system / Context' ? graph.findOrdinalById(holderStep.id) : -1
  const located = candidates.filter((fn) => isProgramLocation(sourceLocation(analysis, fn, cwd, names)))
  const chosen = located.find((fn) => holderContext >= 0 && propertyTarget(graph, fn, 'context') === holderContext) ??
    (located.length === 1 ? located[0] : -1)
  const location = chosen < 0 ? null : sourceLocation(analysis, chosen, cwd, names)
  return location === null ? null : { location, how: 'closure' }
}

/**
 * Closures and their scopes.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isScopeNode (analysis, o) {
  return analysis.graph.nodeTypes[o] === analysis.graph.nodeType.closure || analysis.graph.nodeName(o) === 'system / Context'
}

/**
 * Class indexes of socket classes, as flags.
 * @param {HeapAnalysis} analysis
 */
function socketClasses (analysis) {
  return Uint8Array.from(analysis.classes.names, (name) => (SOCKET_CLASSES.has(name) ? 1 : 0))
}

/**
 * A Socket is a duplex stream: it has both stream states.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {Uint8Array} isSocket
 */
function isSocketNode (analysis, o, isSocket) {
  const { graph } = analysis
  return isSocket[analysis.classOf[o]] === 1 && graph.nodeTypes[o] === graph.nodeType.object &&
    propertyTarget(graph, o, '_readableState') >= 0 && propertyTarget(graph, o, '_writableState') >= 0
}

/**
 * A closed (or never connected) socket has no handle: `_handle` (a symbol in newer Node) is null.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isClosed (analysis, o) {
  const { graph } = analysis
  let handle = propertyTarget(graph, o, '_handle')
  if (handle < 0) handle = propertyTarget(graph, o, '<symbol kHandle>')
  return handle >= 0 && oddballValue(graph, handle) === 'null'
}

/**
 * Sockets the owners keep alive in one snapshot, and the bytes they retain.
 * @param {HeapAnalysis} analysis
 * @param {number[]} ownerIds
 */
function countSockets (analysis, ownerIds) {
  const present = ownerIds.map((id) => analysis.graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (present.length === 0) return { sockets: 0, bytes: 0 }
  const inside = markDominatedBy(analysis, present)
  const isSocket = socketClasses(analysis)
  let sockets = 0
  let bytes = 0
  for (let o = 0; o < inside.length; o++) {
    if (inside[o] !== DOMINATED || !isSocketNode(analysis, o, isSocket)) continue
    sockets++
    bytes += analysis.retainedSizes.at(o)
  }
  return { sockets, bytes }
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

/** Holders asked for a close method before giving up. */
const CLOSE_SAMPLE = 20

/**
 * The close method the holders offer (the last ones first): one holder may be caught half-built
 * or half-torn-down, without its prototype link, when the snapshot is taken.
 * @param {import('../graph/heap-graph.js').HeapGraph} graph
 * @param {number[]} holders
 */
function closeMethodOf (graph, holders) {
  for (let k = holders.length - 1; k >= Math.max(0, holders.length - CLOSE_SAMPLE); k--) {
    const close = offeredMethod(graph, holders[k], CLOSE_METHODS)
    if (close !== null) return close
  }
  return null
}
