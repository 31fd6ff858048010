// unbounded-collection: a Map, Set or plain object used as a dictionary gains entries in every
// snapshot and keeps them: a cache without eviction, a registry nothing unregisters from.

import { collectionGrowth, holderName } from './collection-growth.js'
import { judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { countText, notesOf } from './evidence-notes.js'
import { commonClasses } from './held-objects.js'
import { CLEAR_METHODS, REMOVAL_METHODS, methodNames, offeredMethod } from './heap-methods.js'
import { HOLDER_ROLES, holderLocation } from './holder-location.js'
import { constructorOf, libraryHandle, packageOf } from './library-handle.js'
import { variableFor } from './unclosed-makers.js'
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
    const handle = libraryHandle(last, path, holder === null ? libraryAncestor(last, path, cwd) : holder.location, cwd, [...REMOVAL_METHODS, ...CLEAR_METHODS])
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
        fix: handle !== null ? libraryFix(last.graph, handle, growth.sampleKeys, keyClasses, valueClasses) : fixFor(kind, name, keyClasses)
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
 * @param {string[]} keyClasses  most common first
 * @param {string[]} valueClasses  most common first
 * @returns {{summary: string, snippet: string}}
 */
function libraryFix (graph, handle, sampleKeys, keyClasses, valueClasses) {
  const variable = /^[A-Za-z_$][\w$.]*$/.test(handle.accessor) ? handle.accessor : 'instance'
  const remove = offeredMethod(graph, handle.ordinal, REMOVAL_METHODS) ?? prefixedMethod(graph, handle.ordinal, ONE_REMOVAL)
  const clear = offeredMethod(graph, handle.ordinal, CLEAR_METHODS) ?? prefixedMethod(graph, handle.ordinal, ALL_REMOVAL)
  const keys = sampleKeys.length > 0 ? ` New keys look like ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}.` : ''
  const methods = [remove, clear].filter((m) => m !== null).map((m) => `${variable}.${m}()`)
  const drop = methods.length > 0 ? ` or drop entries when they are done (${methods.join(', ')})` : ' or drop entries when they are done'
  // Promises as values make it a cache of loads (a batching loader, a memoized async call): those
  // are meant to live for one request, and a shared one keeps every result for good.
  if (valueClasses[0] === 'Promise' && handle.className !== 'Function' && handle.className !== 'Object') {
    return {
      summary: `${handle.className} from ${handle.library} keeps every load it was asked for (its values are promises), and one shared by all requests keeps them for good.${keys} Make a new ${handle.className} per request, so its cache lives as long as the request, or give it a bounded cache of its own,${drop}.`,
      snippet: `// per request, not at start-up\nconst ${variableFor(handle.className)} = new ${handle.className}(/* ... */)`
    }
  }
  // Object keys are compared by identity: an object built per call is a new key every time, however
  // equal its contents (a schema literal, an options object).
  const keyClass = keyClasses[0] ?? '('
  if (!keyClass.startsWith('(')) {
    const literal = /^\{[\w$, ]*\}$/.test(keyClass) ? `${keyClass.replace(/\s*\}$/, ' }').replace(/^\{/, '{ ')} // made once at start-up` : `new ${keyClass}(/* ... */) // made once at start-up`
    return {
      summary: `${handle.className} from ${handle.library} keeps one entry per key object, and compares keys by identity: the program passes a new ${keyClass} each time, so every call adds an entry. Build that object once and pass the same one every time (or call the step that uses it once, at start-up),${drop}.`,
      snippet: `const key = ${literal}\n// per request: pass this same key to ${variable}, never a fresh copy`
    }
  }
  return {
    summary: `${handle.className} from ${handle.library} keeps one entry per distinct key it is given.${keys} Give it keys from a small, fixed set (a route pattern, not the raw URL or an id), use its own size limit or expiry if it has one,${drop}.`,
    snippet: remove !== null
      ? `// key by something bounded, e.g. the route pattern\n${variable}.${remove}(key) // when the entry is no longer needed`
      : '// key by something bounded, e.g. the route pattern\nconst key = req.route?.path ?? \'other\''
  }
}

/** Removal methods named with what they remove: `removeSchema`, `deleteEntry`; `clearAll`, `flushCache`. */
const ONE_REMOVAL = /^(?:remove|delete|evict|invalidate)[A-Z]\w*$/
const ALL_REMOVAL = /^(?:clear|flush|purge)[A-Z]\w*$/

/**
 * The first method of an object whose name matches, leaving out listener removal, or null.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 * @param {RegExp} pattern
 */
function prefixedMethod (graph, ordinal, pattern) {
  for (const name of methodNames(graph, ordinal)) if (pattern.test(name) && !/Listener/.test(name)) return name
  return null
}

/**
 * Where the nearest object on the path that a library made was constructed, when the heap places
 * the collection's own holder nowhere (a plain object inside the library's instance).
 * @param {import('../analysis/analyze-heap.js').HeapAnalysis} analysis
 * @param {import('../analysis/retainer-paths.js').Step[]} path
 * @param {string} cwd
 */
function libraryAncestor (analysis, path, cwd) {
  for (let i = path.length - 2; i >= 1; i--) {
    const o = analysis.graph.findOrdinalById(path[i].id)
    if (o < 0 || analysis.graph.nodeTypes[o] !== analysis.graph.nodeType.object) continue
    const { location } = constructorOf(analysis, o, cwd)
    if (location !== null && packageOf(location.file) !== null) return location
  }
  return null
}

/** @param {number} n */
function formatInt (n) {
  return n.toLocaleString('en-US')
}
