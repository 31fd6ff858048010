// Sockets kept in a collection of the program after they close: a server that tracks its sockets
// (for a graceful shutdown, a broadcast, per-client state) and forgets to drop them on 'close' keeps
// each Socket with its streams' state, listeners and buffers. Recognised by the class of the new
// objects a growth row holds and by their handle: a closed socket's `_handle` is null. Open ones
// piling up are a finding too, unless they are the other ends of outgoing connections this process
// left open (other-ends.js).

import { AGE_OLD } from '../../query/ages.js'
import { collectionOfStore } from '../../query/collection-entries.js'
import { heldThroughNew } from '../../query/dominator-subtree.js'
import { unwrapBound } from '../../query/heap-values.js'
import { propertyTarget, referencedNodes } from '../../query/references.js'
import { holderName } from '../collection-growth.js'
import { evidenceOf, growsEveryStep, judgeGrowth, perStepOf } from '../growth-evidence.js'
import { holderLocation } from '../holder-location.js'
import { isProgramLocation } from '../program-location.js'
import { sourceLocation } from '../source-location.js'
import { addOtherEnds, isMirror } from './other-ends.js'
import { MIN_NEW_SOCKETS, countSockets, isClosed, isSocketNode, socketClasses } from './socket-nodes.js'
import { ID, SOCKET_REASONS, keptFix, keptNotes, keptRole, keptTitle, pileUpIn } from './socket-words.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */
/** @import {Match, SignatureInput} from '../finding.js' */
/** @import {HolderLocation} from '../holder-location.js' */

/** The sockets must retain at least this share of the row's new objects. */
const MIN_ROW_SHARE = 0.5

/**
 * Findings for leaking rows whose new objects are mostly sockets kept by an old owner.
 * @param {SignatureInput} input
 * @param {Match[]} matches  the findings made for open connections; a row that is their other
 *   ends joins the one it mirrors instead
 * @returns {Match[]}
 */
export function keptSockets (input, matches) {
  const { result, detail, cwd, names } = input
  const { analyses } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  const rows = input.candidates.filter((g) => result.growth[g].leak)
  const fresh = newSocketsByRow(input, rows)
  const claimed = new Set(matches.flatMap((m) => [m.group, ...(m.also ?? [])]))
  /** @type {Match[]} */
  const kept = []
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
    const mirror = closed === 0 ? [...matches, ...kept].find((m) => isMirror(m, perStepOf(counts))) : undefined
    if (mirror !== undefined) {
      addOtherEnds(mirror, [g], pileUpIn(holderName(row.path) ?? row.owner.name, row.owner.name))
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
      { weight: 0.1 * share, reason: SOCKET_REASONS.share(share) },
      closed > 0
        ? { weight: 0.08 * closedShare, reason: SOCKET_REASONS.closed(closedShare) }
        : { weight: 0, reason: SOCKET_REASONS.stillOpen }
    ]
    if (holder !== null) facts.push({ weight: 0.02, reason: SOCKET_REASONS.heldAt(holder.location) })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    kept.push({
      group: g,
      finding: {
        signature: ID,
        title: keptTitle(name, owner.name, counts, closed),
        confidence,
        reasons,
        owner,
        path,
        evidence: {
          ...evidenceOf('sockets', counts, retained, row.ownerCount),
          newSockets,
          closedSockets: closed,
          bytesPerSocket: Math.round(bytes / newSockets),
          notes: keptNotes(newSockets, closed, bytes),
          locationRole: holder === null ? null : keptRole(holder.how)
        },
        location: holder === null ? null : holder.location,
        fix: keptFix(name, owner.name, closed)
      }
    })
  }
  return kept
}

/**
 * The new sockets each leaking row holds through an old owner, counted with the closed ones and
 * their retained bytes; one of them as a sample. One pass over the heap for all rows.
 * @param {SignatureInput} input
 * @param {number[]} rows
 * @returns {Map<number, {count: number, closed: number, bytes: number, sample: number}>}
 */
function newSocketsByRow ({ detail }, rows) {
  const { analyses, ages, noise, owners } = detail
  const last = analyses[analyses.length - 1]
  const { retainedSizes } = last
  const rowOfOwner = detail.ownerRows.only(rows)
  const isSocket = socketClasses(last)
  const heldThroughScope = heldThroughNew(last, rowOfOwner, ages, isScopeNode)
  /** @type {Map<number, {count: number, closed: number, bytes: number, sample: number}>} */
  const fresh = new Map()
  for (const o of detail.newNodes) {
    if (noise[o] === 1 || !isSocketNode(last, o, isSocket)) continue
    const g = rowOfOwner.rowOf(owners[o])
    // Sockets reached through captured variables are a closure's doing (closure-retention); an
    // owner made since the baseline is an open handle held from the roots (open-connections.js).
    if (g < 0 || ages[owners[o]] !== AGE_OLD || heldThroughScope(o, g)) continue
    let tally = fresh.get(g)
    if (!tally) fresh.set(g, (tally = { count: 0, closed: 0, bytes: 0, sample: o }))
    tally.count++
    tally.bytes += retainedSizes.at(o)
    if (isClosed(last, o)) tally.closed++
  }
  return fresh
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
