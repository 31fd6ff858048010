// unbounded-collection: a Map, Set or plain object used as a dictionary gains entries in every
// snapshot and keeps them: a cache without eviction, a registry nothing unregisters from.

import { collectionGrowth, holderName } from './collection-growth.js'
import { judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { commonClasses } from './held-objects.js'
import { holderLocation } from './holder-location.js'
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export const ID = 'unbounded-collection'

/** How the code at the location relates to the collection, for the card. */
const LOCATION_ROLES = { closure: 'closes over it', module: 'module scope', constructor: 'constructor of its holder' }

/** @type {Signature} */
export const unboundedCollection = { id: ID, match: matchUnboundedCollection }

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchUnboundedCollection (input) {
  const { detail, cwd } = input
  const last = detail.analyses[detail.analyses.length - 1]
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const growth = collectionGrowth(input, g, ['Map', 'Set', 'object'])
    if (growth === null) continue
    const { kind, owner, path, counts, retained, share } = growth
    const added = counts[counts.length - 1] - counts[0]
    const bytesPerEntry = Math.round((retained[retained.length - 1] - retained[0]) / added)
    const keyClasses = kind === 'object' ? ['(string)'] : commonClasses(last, growth.newKeys)
    const valueClasses = commonClasses(last, growth.newValues)
    const holder = holderLocation(last, path, cwd)
    const name = holderName(path) ?? `${owner.name} @${owner.id}`
    const what = kind === 'object' ? 'object used as a dictionary' : kind
    const facts = [{ weight: 0.15 * share, reason: `its entries hold ${percent(share)} of the growth row's retained growth` }]
    const fresh = growth.freshShare
    facts.push({ weight: fresh >= 0.8 ? 0.1 : 0, reason: `${percent(fresh)} of the new entries hold objects allocated after the first snapshot` })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: growth.ownerCount > 1
          ? `${growth.ownerCount} collections like ${name} (${what}) gain entries that are never removed: ${formatInt(counts[0])} → ${formatInt(counts[counts.length - 1])} in all.`
          : `${name} (${what}) gains entries that are never removed: ${formatInt(counts[0])} → ${formatInt(counts[counts.length - 1])}.`,
        confidence,
        reasons,
        owner,
        path,
        evidence: {
          unit: 'entries',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: growth.ownerCount,
          kind,
          bytesPerEntry,
          keyClasses,
          valueClasses,
          locationRole: holder === null ? null : LOCATION_ROLES[holder.how]
        },
        location: holder === null ? null : holder.location,
        fix: fixFor(kind, name, keyClasses)
      }
    })
  }
  return matches
}

/**
 * @param {string} kind
 * @param {string} name
 * @param {string[]} keyClasses  most common first
 * @returns {{summary: string, snippet: string}}
 */
function fixFor (kind, name, keyClasses) {
  const variable = /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'cache'
  // Strings, numbers and symbols show as (string), (number), ...; anything else is an object.
  const objectKeys = keyClasses.length > 0 && !keyClasses[0].startsWith('(')
  if (kind === 'Set') {
    return objectKeys
      ? { summary: 'hold the members in a WeakSet, so they go when nothing else uses them, or delete them when done.', snippet: `const ${variable} = new WeakSet()` }
      : { summary: `delete members when they are done (${variable}.delete(value)), or bound the set.`, snippet: `${variable}.add(value)\nres.once('close', () => ${variable}.delete(value))` }
  }
  if (objectKeys) {
    return {
      summary: 'key by the object in a WeakMap, so an entry goes when its key does; or delete entries when they are done.',
      snippet: `const ${variable} = new WeakMap()`
    }
  }
  return {
    summary: 'bound it: an LRU cache with a size limit and a time to live, or delete entries when they are done.',
    snippet: `import { LRUCache } from 'lru-cache'\nconst ${variable} = new LRUCache({ max: 1000, ttl: 10 * 60_000 })`
  }
}

/** @param {number} n */
function formatInt (n) {
  return n.toLocaleString('en-US')
}
