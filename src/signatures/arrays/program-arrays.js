// An array of the program that only grows: a request log, samples kept "for later", a list of
// handlers that are not event listeners. Located at the line that adds to it when the holder's
// script shows one; its elements may be small views keeping big buffers or strings, a library's
// records of work the program never ended, or WeakRefs whose objects are gone, and the fix says so.

import { holderName } from '../collection-growth.js'
import { HOLDER_ROLES } from '../holder-location.js'
import { writeSites } from '../write-sites.js'
import { backingStores, viewWriteSites } from '../backing-stores.js'
import { weakEntries } from '../collections/weak-entries.js'
import { libraryRecord } from './library-records.js'
import { arrayFinding } from './array-finding.js'
import { arrayFix, arrayNotes, arrayTitle } from './array-words.js'
/** @import {CollectionGrowth} from '../collection-growth.js' */
/** @import {Match, SignatureInput} from '../finding.js' */
/** @import {HolderLocation} from '../holder-location.js' */

/**
 * @param {SignatureInput} input
 * @param {number} g  the growth row
 * @param {CollectionGrowth} growth  the row's array and its growth
 * @param {HolderLocation | null} holder  where the code holding the array is
 * @param {string[]} elementClasses  the new elements' most common classes
 * @returns {Match}
 */
export function programArrayMatch (input, g, growth, holder, elementClasses) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  const { owner, path, counts, retained } = growth
  const added = counts[counts.length - 1] - counts[0]
  let sites = writeSites(last, path, holder, { cwd, names })
  const name = holderName(path, last) ?? `${owner.name} @${owner.id}`
  const bytesPerElement = Math.round((retained[retained.length - 1] - retained[0]) / added)
  const stores = backingStores(last, growth.newValues, bytesPerElement)
  // Of several writes, the one that stores a view of a bigger buffer is the one that keeps it.
  const views = stores === null || sites === null || holder?.scriptId === undefined ? [] : viewWriteSites(last, holder.scriptId, [sites.location, ...sites.also], names)
  if (sites !== null && views.length > 0) {
    const site = views[0].site
    sites = { ...sites, location: site, also: [sites.location, ...sites.also].filter((other) => other !== site) }
  }
  const view = views[0] ?? null
  const record = stores === null ? libraryRecord(last, holder === null ? null : holder.location.file, growth.newValues) : null
  const weak = stores === null && record === null ? weakEntries(last.graph, growth.newValues) : null
  return arrayFinding(g, growth, elementClasses, {
    title: arrayTitle(name, growth.ownerCount, counts),
    notes: arrayNotes({ fresh: growth.freshShare, ownerCount: growth.ownerCount, stores, view, bytesPerElement, sites, holder, weak }),
    evidence: {
      backingStore: stores,
      holderLocation: holder === null ? null : holder.location,
      alsoAt: sites === null ? [] : sites.also,
      locationRole: sites !== null ? sites.role : holder === null ? null : HOLDER_ROLES[holder.how]
    },
    location: sites?.location ?? (holder === null ? null : holder.location),
    fix: arrayFix(name, stores, view, record, weak)
  })
}
