// Pending promises kept in a collection, one per call (usually through its resolve function, in a
// list of waiters nobody resolves): each awaiting async function stays suspended with its locals.
// The collection may be the program's, or a library's (a pool's waiting clients, a queue's tasks, a
// client's command queue), which the program cannot settle itself.

import { dominatedNodes, heldThroughNew } from '../../query/dominator-subtree.js'
import { CLEAR_METHODS, RELEASE_METHODS, offeredMethod } from '../../query/heap-methods.js'
import { propertyTarget } from '../../query/references.js'
import { holderName } from '../collection-growth.js'
import { growsEveryStep, judgeGrowth, perStepOf } from '../growth-evidence.js'
import { holderLocation } from '../holder-location.js'
import { libraryHandle, packageOf } from '../library-handle.js'
import { MAX_HANDLERS, MIN_NEW_REACTIONS, collectHandlers, dominantHandler, isAwaitedPromise } from './promise-reactions.js'
import { ID, PROMISE_REASONS, heldNotes, heldTitle, libraryWaitFix, waitersFix } from './promise-words.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {Match, SignatureInput} from '../finding.js' */

/** Dominator steps climbed from a promise to the entry of its list that keeps it. */
const MAX_ENTRY_CLIMB = 64
/** Pending promises held by a collection must retain at least this share of the row's growth. */
const MIN_ROW_SHARE = 0.5

/**
 * The rows (of those given) whose new objects are mostly pending promises that something awaits.
 * @param {SignatureInput} input
 * @param {number[]} rows
 * @returns {Match[]}
 */
export function keptPromises (input, rows) {
  const { result, detail, cwd, names } = input
  const { analyses, ages, noise, owners } = detail
  const last = analyses[analyses.length - 1]
  const { graph, retainedSizes } = last
  if (rows.length === 0) return []
  const rowOfOwner = detail.ownerRows.only(rows)
  const heldThroughAwaited = heldThroughNew(last, rowOfOwner, ages, isAwaitedPromise)
  /** @type {Map<number, {count: number, bytes: number, handlers: number[]}>} */
  const byRow = new Map()
  const counted = new Uint8Array(graph.nodeCount)
  for (const o of detail.newNodes) {
    if (noise[o] === 1 || !isAwaitedPromise(last, o)) continue
    const g = rowOfOwner.rowOf(owners[o])
    if (g < 0) continue
    let tally = byRow.get(g)
    if (!tally) byRow.set(g, (tally = { count: 0, bytes: 0, handlers: [] }))
    // Whoever awaits any of them: the program's handler may be on a promise a library's own
    // pending promise holds (p-limit resolves the promise it handed out from a task it queued).
    if (tally.handlers.length < MAX_HANDLERS) collectHandlers(graph, propertyTarget(graph, o, 'reactions_or_result'), tally.handlers)
    // A promise that waits on another pending promise is part of that one's chain.
    if (heldThroughAwaited(o, g)) continue
    tally.count++
    // What the list keeps per waiter is the entry that holds the promise (a record with its resolve
    // function, a queued task closing over resolve and reject), not only the promise.
    const entry = waiterEntry(last, o, owners[o])
    if (counted[entry] === 0) {
      counted[entry] = 1
      tally.bytes += retainedSizes.at(entry)
    }
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
    const awaited = dominantHandler(last, tally.handlers, cwd, names)
    // A list inside a library's object (a pool's waiting clients, a queue's tasks, a client's
    // command queue): the program did not make the promises and cannot settle them itself.
    const holder = holderLocation(last, row.path, cwd, names)
    const handle = holder === null ? null : libraryHandle(last, row.path, holder.location, cwd, names)
    // What awaits them inside that library, with no handler of the program's among them, is its
    // own machinery (p-limit's run() waiting its turn): the program's hold on the library says more.
    const inLibrary = handle !== null && awaited.location !== null && packageOf(awaited.location.file) !== null
    const { location, locationShare } = inLibrary ? { location: null, locationShare: 0 } : awaited
    const facts = [
      { weight: 0.1 * share, reason: PROMISE_REASONS.held(share) },
      { weight: 0, reason: PROMISE_REASONS.awaited }
    ]
    if (location !== null) facts.push({ weight: 0.05 * locationShare, reason: PROMISE_REASONS.awaitedAt(locationShare, location) })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    const name = holderName(row.path)
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: heldTitle(name, row.owner.name, handle, location, counts),
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
          notes: heldNotes(tally.count, tally.bytes / tally.count, handle),
          library: handle === null ? null : handle.library,
          libraryLocation: handle === null || holder === null ? null : holder.location
        },
        location: location ?? handle?.location ?? null,
        fix: handle === null
          ? waitersFix(name)
          : libraryWaitFix(handle, offeredMethod(graph, handle.ordinal, RELEASE_METHODS), offeredMethod(graph, handle.ordinal, CLEAR_METHODS))
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
 * Awaited pending promises the owners keep alive in one snapshot.
 * @param {HeapAnalysis} analysis
 * @param {number[]} ownerIds
 */
function countAwaitedPromises (analysis, ownerIds) {
  const present = ownerIds.map((id) => analysis.graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (present.length === 0) return 0
  let count = 0
  for (const o of dominatedNodes(analysis, present).nodes) if (isAwaitedPromise(analysis, o)) count++
  return count
}
