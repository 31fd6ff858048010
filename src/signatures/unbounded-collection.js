// unbounded-collection: a Map, Set or plain object used as a dictionary gains entries in every
// snapshot and keeps them: a cache without eviction, a registry nothing unregisters from.

import { collectionGrowth, holderName } from './collection-growth.js'
import { judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { countText, notesOf } from './evidence-notes.js'
import { commonClasses } from './held-objects.js'
import { CLEAR_METHODS, REMOVAL_METHODS, offeredMethod } from './heap-methods.js'
import { HOLDER_ROLES, holderLocation } from './holder-location.js'
import { libraryHandle } from './library-handle.js'
import { writeSiteNotes, writeSites } from './write-sites.js'
/** @import {Match, Signature, SignatureInput} from './finding.js' */
/** @import {LibraryHandle} from './library-handle.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */

export const ID = 'unbounded-collection'

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
    const handle = libraryHandle(last, path, holder === null ? null : holder.location, cwd, [...REMOVAL_METHODS, ...CLEAR_METHODS])
    // A library's collection is changed through the program's handle on it, not where the library writes.
    const sites = handle === null ? writeSites(last, path, holder) : null
    const name = holderName(path) ?? `${owner.name} @${owner.id}`
    const what = kind === 'object' ? 'object used as a dictionary' : kind
    const subject = handle === null ? `${name} (${what})` : `${name} of ${handle.name} (${handle.className}, from ${handle.library})`
    const facts = [{ weight: 0.15 * share, reason: `its entries hold ${percent(share)} of the growth row's retained growth` }]
    const fresh = growth.freshShare
    facts.push({ weight: fresh >= 0.8 ? 0.1 : 0, reason: `${percent(fresh)} of the new entries hold objects allocated after the first snapshot` })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: growth.ownerCount > 1
          ? `${growth.ownerCount} collections like ${subject} gain entries that are never removed: ${formatInt(counts[0])} → ${formatInt(counts[counts.length - 1])} in all.`
          : `${subject} gains entries that are never removed: ${formatInt(counts[0])} → ${formatInt(counts[counts.length - 1])}.`,
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
          notes: notesOf([
            `${percent(fresh)} of the new entries hold objects allocated since the first snapshot`,
            growth.ownerCount > 1 && `${countText(growth.ownerCount)} collections of one shape, summed`,
            ...(sites === null || holder === null ? [] : writeSiteNotes(sites, holder))
          ]),
          sampleKeys: growth.sampleKeys,
          library: handle === null ? null : handle.library,
          libraryLocation: handle === null || holder === null ? null : holder.location,
          holderLocation: holder === null ? null : holder.location,
          alsoAt: sites === null ? [] : sites.also,
          locationRole: handle?.location ? 'holds the library object' : sites !== null ? sites.role : holder === null ? null : HOLDER_ROLES[holder.how]
        },
        location: handle?.location ?? sites?.location ?? (holder === null ? null : holder.location),
        fix: handle !== null ? libraryFix(last.graph, handle, growth.sampleKeys) : fixFor(kind, name, keyClasses)
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
  const variable = /^#?[A-Za-z_$][\w$]*$/.test(name) ? (name.startsWith('#') ? `this.${name}` : name) : 'cache'
  // A private field is declared in the class body, not with const.
  const declare = name.startsWith('#') && variable !== 'cache' ? `${name} =` : `const ${variable} =`
  // Strings, numbers and symbols show as (string), (number), ...; anything else is an object.
  const objectKeys = keyClasses.length > 0 && !keyClasses[0].startsWith('(')
  if (kind === 'Set') {
    return objectKeys
      ? { summary: 'hold the members in a WeakSet, so they go when nothing else uses them, or delete them when done.', snippet: `${declare} new WeakSet()` }
      : { summary: `delete members when they are done (${variable}.delete(value)), or bound the set.`, snippet: `${variable}.add(value)\nres.once('close', () => ${variable}.delete(value))` }
  }
  if (objectKeys) {
    return {
      summary: 'key by the object in a WeakMap, so an entry goes when its key does; or delete entries when they are done.',
      snippet: `${declare} new WeakMap()`
    }
  }
  return {
    summary: 'bound it: an LRU cache with a size limit and a time to live, or delete entries when they are done.',
    snippet: `import { LRUCache } from 'lru-cache'\n${declare} new LRUCache({ max: 1000, ttl: 10 * 60_000 })`
  }
}

/**
 * The remedy when the collection belongs to a library object the program holds: the program cannot
 * swap the library's map for an LRU, but it chooses the keys it passes in and can call the
 * object's own removal methods, named as the heap shows them.
 * @param {HeapGraph} graph
 * @param {LibraryHandle} handle
 * @param {string[]} sampleKeys
 * @returns {{summary: string, snippet: string}}
 */
function libraryFix (graph, handle, sampleKeys) {
  const variable = /^[A-Za-z_$][\w$.]*$/.test(handle.accessor) ? handle.accessor : 'instance'
  const remove = offeredMethod(graph, handle.ordinal, REMOVAL_METHODS)
  const clear = offeredMethod(graph, handle.ordinal, CLEAR_METHODS)
  const keys = sampleKeys.length > 0 ? ` New keys look like ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}.` : ''
  const methods = [remove, clear].filter((m) => m !== null).map((m) => `${variable}.${m}()`)
  const drop = methods.length > 0 ? ` or drop entries when they are done (${methods.join(', ')})` : ' or drop entries when they are done'
  return {
    summary: `${handle.className} from ${handle.library} keeps one entry per distinct key it is given.${keys} Give it keys from a small, fixed set (a route pattern, not the raw URL or an id), use its own size limit or expiry if it has one,${drop}.`,
    snippet: remove !== null
      ? `// key by something bounded, e.g. the route pattern\n${variable}.${remove}(key) // when the entry is no longer needed`
      : '// key by something bounded, e.g. the route pattern\nconst key = req.route?.path ?? \'other\''
  }
}

/** @param {number} n */
function formatInt (n) {
  return n.toLocaleString('en-US')
}
