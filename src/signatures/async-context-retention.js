// async-context-retention: AsyncLocalStorage stores kept alive by long-lived async resources. A
// resource that outlives its request (a task waiting on a shutdown signal, a poller, a pooled
// connection) keeps the store it was created under, and everything in it, alive. How Node lays the
// stores out (a store property on each resource, or an AsyncContextFrame) is read in
// async-context/context-stores.js, the resources and the code that made them in
// async-context/resource-locations.js. The row's new objects must be mostly stores reached in one of
// these ways. The words are in async-context/context-words.js.

import { commonClasses } from '../query/held-objects.js'
import { holderName } from './collection-growth.js'
import { growsEveryStep, judgeGrowth, perStepOf } from './growth-evidence.js'
import { STORE, countStores, resourcesOf, storeFlags } from './async-context/context-stores.js'
import { classCounts, creatorLocation } from './async-context/resource-locations.js'
import { CONTEXT_REASONS, CREATOR_ROLE, contextFix, contextNotes, contextTitle } from './async-context/context-words.js'
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export const ID = 'async-context-retention'

/** @type {Signature} */
export const asyncContextRetention = { id: ID, match: matchAsyncContextRetention }

/** Fewer new live stores than this is too little to call a leak. */
const MIN_NEW_STORES = 20
/** The stores must retain at least this share of the row's new objects. */
const MIN_ROW_SHARE = 0.5

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchAsyncContextRetention (input) {
  const { result, detail, cwd, names } = input
  const { analyses, noise, owners } = detail
  const last = analyses[analyses.length - 1]
  const { graph, retainedSizes } = last
  const flags = storeFlags(last)
  if (flags === null) return []
  const rows = input.candidates.filter((g) => result.growth[g].leak)
  const rowOfOwner = detail.ownerRows.only(rows)
  /** @type {Map<number, {bytes: number, stores: number[]}>} new stores per row */
  const byRow = new Map()
  for (const o of detail.newNodes) {
    if ((flags[o] & STORE) === 0 || noise[o] === 1) continue
    const g = rowOfOwner.rowOf(owners[o])
    if (g < 0) continue
    let tally = byRow.get(g)
    if (!tally) byRow.set(g, (tally = { bytes: 0, stores: [] }))
    tally.bytes += retainedSizes.at(o)
    tally.stores.push(o)
  }
  /** @type {Match[]} */
  const matches = []
  for (const g of rows) {
    const tally = byRow.get(g)
    const row = result.growth[g]
    if (tally === undefined || tally.stores.length < MIN_NEW_STORES) continue
    const rowGrowth = row.leakedBytes + row.recentBytes
    const share = rowGrowth > 0 ? Math.min(1, tally.bytes / rowGrowth) : 0
    if (share < MIN_ROW_SHARE) continue
    const ownerIds = detail.groupOwners[g].map((o) => graph.nodeIds[o])
    const tallies = analyses.map((analysis) => countStores(analysis, ownerIds))
    const counts = tallies.map((t) => t.stores)
    if (!growsEveryStep(counts)) continue
    const retained = tallies.map((t) => t.bytes)

    const newStores = tally.stores.length
    const storeClasses = commonClasses(last, tally.stores)
    const { resources, throughFrames } = resourcesOf(last, tally.stores, flags)
    const resourceClasses = classCounts(last, resources)
    const { location, locationShare } = creatorLocation(last, resources, cwd, names)

    const facts = [
      { weight: 0.1 * share, reason: CONTEXT_REASONS.share(share) },
      { weight: 0, reason: CONTEXT_REASONS.through(throughFrames) }
    ]
    if (location !== null) facts.push({ weight: 0.05 * locationShare, reason: CONTEXT_REASONS.location(locationShare, location) })
    else facts.push({ weight: 0, reason: CONTEXT_REASONS.unlocated })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: contextTitle(storeClasses, resourceClasses, holderName(row.path), row.owner, counts),
        confidence,
        reasons,
        owner: row.owner,
        path: row.path,
        evidence: {
          unit: 'stores',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: row.ownerCount,
          newStores,
          bytesPerStore: Math.round(tally.bytes / newStores),
          storeClasses,
          resourceClasses,
          locationRole: location === null ? null : CREATOR_ROLE,
          notes: contextNotes(newStores, storeClasses, tally.bytes / newStores, resourceClasses, throughFrames)
        },
        location,
        fix: contextFix()
      }
    })
  }
  return matches
}
