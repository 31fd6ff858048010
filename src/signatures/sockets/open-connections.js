// Outgoing connections left open. A client object made per call (a database client, an HTTP agent
// or dispatcher with keep-alive) and never closed keeps its socket open, and an open socket is held
// by its native handle, a GC root: the diff finds no old owner for it, so these sockets are counted
// directly in every snapshot, by the class of the object that holds them (open-sockets.js), like
// forgotten-timer counts timers. Sockets checked out of a pool are the pool's (checked-out-sockets.js).

import { AGE_OLD, AGE_RECENT } from '../../query/ages.js'
import { oddballValue } from '../../query/heap-values.js'
import { CLOSE_METHODS, offeredMethod } from '../../query/heap-methods.js'
import { propertyTarget } from '../../query/references.js'
import { retainerPath } from '../../analysis/retainer-paths.js'
import { evidenceOf, growsEveryStep, judgeGrowth } from '../growth-evidence.js'
import { constructorOf, packageOf } from '../library-handle.js'
import { checkedOutMatch } from './checked-out-sockets.js'
import { tallyOpenSockets } from './open-sockets.js'
import { MIN_NEW_SOCKETS } from './socket-nodes.js'
import { HOLDER_CONSTRUCTOR_ROLE, ID, SOCKET_REASONS, openFix, openNotes, openTitle } from './socket-words.js'
/** @import {HeapGraph} from '../../graph/heap-graph.js' */
/** @import {Match, SignatureInput} from '../finding.js' */
/** @import {RowOfOwner} from '../../query/owner-rows.js' */

/**
 * Open outgoing sockets that no program object holds, counted per class of the object that owns
 * them in every snapshot; a finding per owner class whose open sockets grow in every step. The
 * growth row of their handles (new owners held from the roots) is the finding's, when it leaks.
 * @param {SignatureInput} input
 * @param {RowOfOwner} rowOfOwner growth row per owner ordinal (all candidate rows)
 * @returns {Match[]}
 */
export function openConnections (input, rowOfOwner) {
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
    const fresh = tally.sockets.filter((o) => ages[o] !== AGE_OLD && (tally.pooled || rowOfOwner.rowOf(owners[o]) < 0 || ages[owners[o]] !== AGE_OLD))
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
    const path = retainerPath(last, holder, { names })
    const lastEdge = path.at(-1)?.edge ?? ''
    const variable = /^[A-Za-z_$][\w$]*$/.test(lastEdge) && lastEdge !== 'this' ? lastEdge : className.replace(/^[A-Z]/, (c) => c.toLowerCase()).replace(/[^\w$]/g, '') || 'client'
    const perHolder = fresh.length / Math.max(1, freshHolders.size)
    const { confidence, reasons } = judgeGrowth(counts, [
      { weight: 0.1 * Math.min(1, freshHolders.size / fresh.length), reason: SOCKET_REASONS.newHolders(freshHolders.size, className, perHolder) },
      { weight: 0.05, reason: SOCKET_REASONS.openOnly }
    ])
    const bytesPerSocket = (retained[retained.length - 1] - retained[0]) / Math.max(1, counts[counts.length - 1] - counts[0])
    matches.push({
      group,
      finding: {
        signature: ID,
        title: openTitle(counts, className, from, freshHolders.size),
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
          notes: openNotes(fresh.length, bytesPerSocket, freshHolders.size, className),
          locationRole: constructorAt === null ? null : HOLDER_CONSTRUCTOR_ROLE
        },
        location: constructorAt,
        members: fresh,
        holders: [...freshHolders],
        // Written again at the program's `new` once the allocation stacks find it.
        fix: { ...openFix(className, close, variable), atCall: { kind: 'made per call', release: close } }
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
 * @param {RowOfOwner} rowOfOwner
 * @param {Set<number>} claimed rows already taken, updated
 */
function handleRow ({ result, detail }, sockets, rowOfOwner, claimed) {
  /** @type {Map<number, number>} */
  const perRow = new Map()
  for (const o of sockets) {
    const g = rowOfOwner.rowOf(detail.owners[o])
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

/** Holders asked for a close method before giving up. */
const CLOSE_SAMPLE = 20

/**
 * The close method the holders offer (the last ones first): one holder may be caught half-built
 * or half-torn-down, without its prototype link, when the snapshot is taken.
 * @param {HeapGraph} graph
 * @param {number[]} holders
 */
function closeMethodOf (graph, holders) {
  for (let k = holders.length - 1; k >= Math.max(0, holders.length - CLOSE_SAMPLE); k--) {
    const close = offeredMethod(graph, holders[k], CLOSE_METHODS)
    if (close !== null) return close
  }
  return null
}
