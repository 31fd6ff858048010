// prototype-chain: objects of one class chained by their prototypes, each made from the one before
// (`Object.create(current)`), whose newest one an old object keeps: the chain keeps every object
// ever made. cls-hooked and continuation-local-storage make a context so on every run, and keep
// it as their namespace's `active` when one is entered and never left. Recognised by shape: an
// old holder's reference to an object whose `__proto__` is an object of its class, and so on,
// the chain longer in every snapshot. Runs before growing-queue, which reads `next` links.

import { retainerPath } from '../analysis/retainer-paths.js'
import { shownClassName } from '../analysis/shown-names.js'
import { AGE_OLD } from '../query/ages.js'
import { PROTOTYPE_LINKS, listLengthById, longestListOf } from '../query/linked-lists.js'
import { CHAIN_REASONS, ID, chainFix, chainNotes, chainTitle } from './chains/chain-words.js'
import { holderName } from './collection-growth.js'
import { evidenceOf, growsEveryStep, judgeGrowth, retainedById } from './growth-evidence.js'
import { holderLocation } from './holder-location.js'
import { leakingRows } from './leaking-rows.js'
import { libraryAncestor, libraryHandle, packageOf } from './library-handle.js'
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export { ID }

/** @type {Signature} */
export const prototypeChain = { id: ID, match: matchPrototypeChain }

/** Fewer new objects in the chain than this is too little to call it growing. */
const MIN_NEW_LINKS = 10

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchPrototypeChain (input) {
  const { detail, cwd, names } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  /** @type {Match[]} */
  const matches = []
  for (const { group, row, owner } of leakingRows(input)) {
    const chain = longestListOf(graph, owner, PROTOTYPE_LINKS)
    if (chain === null || ages[chain.start] === AGE_OLD) continue
    const head = { name: chain.name, type: chain.type }
    const counts = analyses.map((analysis) => listLengthById(analysis.graph, row.owner.id, head, PROTOTYPE_LINKS))
    const added = counts[counts.length - 1] - counts[0]
    if (!growsEveryStep(counts) || added < MIN_NEW_LINKS) continue
    const retained = retainedById(analyses, row.owner.id)
    // The row's path down to the newest object: what the program reaches it by.
    const path = retainerPath(last, chain.start, { readable: true, names })
    const holder = holderLocation(last, row.path, cwd, names)
    const libraryAt = holder !== null && packageOf(holder.location.file) !== null ? holder.location : libraryAncestor(last, path, path.length - 2, cwd, names)
    const handle = libraryAt === null ? null : libraryHandle(last, path, libraryAt, cwd, names)
    const nodeClass = shownClassName(last, chain.start, names)
    // A library's holder is named by the title with its package: the link alone says where.
    const name = handle === null ? `${holderName(row.path, last) ?? row.owner.name}.${chain.name}` : chain.name
    const { confidence, reasons } = judgeGrowth(counts, [{ weight: 0.1, reason: CHAIN_REASONS.newest }])
    const bytesPerObject = Math.max(0, retained[retained.length - 1] - retained[0]) / added
    matches.push({
      group,
      finding: {
        signature: ID,
        title: chainTitle(name, nodeClass, handle, counts),
        confidence,
        reasons,
        owner: row.owner,
        path,
        evidence: {
          ...evidenceOf('objects', counts, retained, row.ownerCount),
          nodeClass,
          head: chain.name,
          link: PROTOTYPE_LINKS[0],
          bytesPerObject: Math.round(bytesPerObject),
          notes: chainNotes({ bytesPerObject, library: handle === null ? null : handle.library }),
          library: handle === null ? null : handle.library,
          holderLocation: holder === null ? null : holder.location
        },
        location: handle?.location ?? holder?.location ?? null,
        fix: chainFix(handle)
      }
    })
  }
  return matches
}
