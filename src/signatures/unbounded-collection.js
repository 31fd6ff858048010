// unbounded-collection: a Map, Set or plain object used as a dictionary gains entries in every
// snapshot and keeps them: a cache without eviction, a registry nothing unregisters from.

import { collectionGrowth, holderName } from './collection-growth.js'
import { evidenceOf, judgeCollection, percent, retainedById } from './growth-evidence.js'
import { bytesText, countText, notesOf } from './evidence-notes.js'
import { commonClasses } from '../query/held-objects.js'
import { CLEAR_METHODS, REMOVAL_METHODS, methodNames, offeredMethod } from '../query/heap-methods.js'
import { HOLDER_ROLES, holderLocation } from './holder-location.js'
import { constructorOf, libraryHandle, packageOf } from './library-handle.js'
import { variableFor } from './unclosed-makers.js'
import { enclosingMapKey, importSite, isModuleCache, moduleCacheFix, moduleSpecifier, nodeCollectionFix, nodeOwner } from './node-owned.js'
import { writeSiteNotes, writeSites } from './write-sites.js'
import { readableScriptName } from './source-location.js'
import { backingStores, storeFix, storeNotes, viewWriteSites } from './backing-stores.js'
/** @import {Finding, Match, Signature, SignatureInput} from './finding.js' */
/** @import {NodeOwner} from './node-owned.js' */
/** @import {LibraryHandle} from './library-handle.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */

export const ID = 'unbounded-collection'
/** A holder whose retained growth is this many times its collection's keeps the entries' objects too. */
const SHARED_HOLDER_RATIO = 2

/** @type {Signature} */
export const unboundedCollection = { id: ID, match: matchUnboundedCollection }

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchUnboundedCollection (input) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  /** @type {Match[]} */
  const matches = []
  /** @type {NodeMatch[]} */
  const nodeMatches = []
  /** @type {Array<{match: Match, ordinal: number, id: number}>} library collections, by the object the program holds */
  const handles = []
  for (const g of input.candidates) {
    const growth = collectionGrowth(input, g, ['Map', 'Set', 'object'])
    if (growth === null) continue
    const { kind, owner, path, counts } = growth
    const added = counts[counts.length - 1] - counts[0]
    const shared = sharedHolder(input, g, growth)
    // The row's owner keeps the entries' objects: its growth is the row's.
    const share = shared === null ? growth.share : 1
    const retained = shared === null ? growth.retained : shared.retained
    const bytesPerEntry = Math.round((retained[retained.length - 1] - retained[0]) / added)
    const keyClasses = kind === 'object' ? ['(string)'] : commonClasses(last, growth.newKeys)
    const valueClasses = commonClasses(last, growth.newValues)
    const holder = holderLocation(last, path, cwd, names)
    const node = holder === null || holder.location.file.startsWith('node:') ? nodeOwner(last, path, cwd, names) : null
    if (node !== null) {
      const match = nodeOwnedMatch(g, growth, node, keyClasses, valueClasses, cwd)
      // Modules are told apart by whole keys: the printed ones may have lost the query that differs.
      const moduleCache = isModuleCache(node, growth.keyTexts)
      nodeMatches.push({ match, node, moduleCache, keys: growth.keyTexts, importer: moduleCache ? enclosingMapKey(last, path) : null })
      matches.push(match)
      continue
    }
    const handle = libraryHandle(last, path, holder === null ? libraryAncestor(last, path, cwd, names) : holder.location, cwd, names, [...REMOVAL_METHODS, ...CLEAR_METHODS])
    // A library's collection is changed through the program's handle on it, not where the library writes.
    let sites = handle === null ? writeSites(last, path, holder, { cwd, names }) : null
    const stores = handle === null ? backingStores(last, growth.newValues, bytesPerEntry) : null
    // Of several writes, the one that stores a view of a bigger buffer is the one that keeps it.
    const views = stores === null || sites === null || holder?.scriptId === undefined ? [] : viewWriteSites(last, holder.scriptId, [sites.location, ...sites.also], names)
    if (sites !== null && views.length > 0) {
      const site = views[0].site
      sites = { ...sites, location: site, also: [sites.location, ...sites.also].filter((other) => other !== site) }
    }
    const name = holderName(path, last) ?? `${owner.name} @${owner.id}`
    const what = kind === 'object' ? 'object used as a dictionary' : kind
    const subject = handle === null ? `${name} (${what})` : `${name} of ${handle.name} (${handle.className}, from ${handle.library})`
    const fresh = growth.freshShare
    const { confidence, reasons } = judgeCollection(counts, share, fresh, 'entries')
    /** @type {Match} */
    const match = {
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
          ...evidenceOf('entries', counts, retained, growth.ownerCount),
          kind,
          bytesPerEntry,
          keyClasses,
          valueClasses,
          notes: notesOf([
            `${percent(fresh)} of the new entries hold objects allocated since the first snapshot`,
            growth.ownerCount > 1 && `${countText(growth.ownerCount)} collections of one shape, summed`,
            shared !== null && `retained is that of ${shared.name}: its other ${shared.parts} hold the new entries' objects too, so the ${kind} alone dominates only ${bytesText(growth.retained[growth.retained.length - 1] - growth.retained[0])} of the growth`,
            ...(stores === null ? [] : storeNotes(stores, views[0] ?? null, 'entry', bytesPerEntry)),
            ...(sites === null || holder === null ? [] : writeSiteNotes(sites, holder))
          ]),
          backingStore: stores,
          sampleKeys: growth.sampleKeys,
          library: handle === null ? null : handle.library,
          libraryLocation: handle === null || holder === null ? null : holder.location,
          holderLocation: holder === null ? null : holder.location,
          alsoAt: sites === null ? [] : sites.also,
          locationRole: handle?.location ? 'holds the library object' : sites !== null ? sites.role : holder === null ? null : HOLDER_ROLES[holder.how]
        },
        location: handle?.location ?? sites?.location ?? (holder === null ? null : holder.location),
        fix: handle !== null
          ? libraryFix(last.graph, handle, growth.sampleKeys, keyClasses, valueClasses)
          : stores !== null ? viewFix(kind, name, stores, views[0] ?? null) : fixFor(kind, name, keyClasses)
      }
    }
    matches.push(match)
    if (handle !== null) handles.push({ match, ordinal: handle.ordinal, id: last.graph.nodeIds[handle.ordinal] })
  }
  const merged = mergeNodeOwned(nodeMatches, input)
  for (const match of mergeLibraryCollections(handles)) merged.add(match)
  return matches.filter((match) => !merged.has(match))
}

/**
 * The object that keeps a collection's new entries when the collection is one of its fields and
 * the entries' objects are shared with its other fields (a validator's schema cache and its
 * compiled-code scope): the diff names that object as the row's owner, and its retained growth,
 * not the collection's, is what the leak costs. Null when the collection itself is the owner or
 * keeps most of the growth.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @returns {{name: string, parts: string, retained: number[]} | null}
 */
function sharedHolder ({ result, detail, cwd }, g, growth) {
  const row = result.growth[g]
  if (row.owner.id === growth.owner.id || !growth.path.some((step) => step.id === row.owner.id)) return null
  const retained = retainedById(detail.analyses, row.owner.id)
  const own = growth.retained[growth.retained.length - 1] - growth.retained[0]
  if (retained[retained.length - 1] - retained[0] < SHARED_HOLDER_RATIO * own) return null
  const step = growth.path.find((s) => s.id === row.owner.id)
  if (step?.node === 'system / Context') {
    const module = typeof step.module === 'string' ? step.originalModule ?? readableScriptName(step.module, cwd) : null
    return { name: module === null ? 'the scope around it' : `the module scope of ${module}`, parts: 'variables', retained }
  }
  return { name: step !== undefined && step.edge !== '' && !/^\d+$/.test(step.edge) ? `${step.edge} (${row.owner.name})` : row.owner.name, parts: 'fields', retained }
}

/**
 * Collections inside one library object the program holds that gain entries in the same steps
 * (a validator's schema cache and the scope its compiled code lives in) grow for one cause: one
 * finding, on the first, claims the others' rows and names them in a note.
 * @param {Array<{match: Match, ordinal: number, id: number}>} handles
 * @returns {Set<Match>} the matches folded into another
 */
function mergeLibraryCollections (handles) {
  /** @type {Set<Match>} */
  const merged = new Set()
  for (const primary of handles) {
    if (merged.has(primary.match)) continue
    const steps = primary.match.finding.evidence.perStep
    for (const other of handles) {
      if (other === primary || merged.has(other.match) || other.ordinal !== primary.ordinal) continue
      const { finding } = other.match
      if (Math.abs(finding.evidence.perStep - steps) > 0.1 * steps) continue
      merged.add(other.match)
      primary.match.also = [...primary.match.also ?? [], other.match.group]
      const { counts } = finding.evidence
      const from = finding.path.findIndex((step) => step.id === primary.id)
      const at = finding.path.slice(from).map((step) => step.edge).filter((edge) => /^[#\w$]+$/.test(edge) && !/^\d+$/.test(edge))
      noteOn(primary.match.finding, `the same calls grow ${from < 0 || at.length === 0 ? finding.owner.name : at.join('.')} (${finding.owner.name}) too: ${formatInt(counts[0])} → ${formatInt(counts[counts.length - 1])} ${finding.evidence.unit}`)
    }
  }
  return merged
}

/**
 * The finding for a collection Node owns: what the program does that adds entries, never a bound
 * the program cannot put on Node's own map.
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @param {NodeOwner} node
 * @param {string[]} keyClasses
 * @param {string[]} valueClasses
 * @param {string} cwd
 * @returns {Match}
 */
function nodeOwnedMatch (g, growth, node, keyClasses, valueClasses, cwd) {
  const { kind, owner, path, counts, retained, share, sampleKeys, keyTexts } = growth
  const added = counts[counts.length - 1] - counts[0]
  const name = holderName(path) ?? `${owner.name} @${owner.id}`
  const moduleCache = isModuleCache(node, keyTexts)
  const fresh = growth.freshShare
  const { confidence, reasons } = judgeCollection(counts, share, fresh, 'entries')
  const card = moduleCache ? moduleCacheFix(keyTexts, cwd) : nodeCollectionFix(node, name, sampleKeys, valueClasses)
  const range = `${formatInt(counts[0])} → ${formatInt(counts[counts.length - 1])}`
  return {
    group: g,
    finding: {
      signature: ID,
      title: moduleCache
        ? `The program imports a module under a new URL each time, and Node's module loader keeps every one: ${name} ${range} entries.`
        : `${card.subject} gains entries that are never removed: ${range}.`,
      confidence,
      reasons,
      owner,
      path,
      evidence: {
        ...evidenceOf('entries', counts, retained, growth.ownerCount),
        kind,
        bytesPerEntry: Math.round((retained[retained.length - 1] - retained[0]) / added),
        keyClasses,
        valueClasses,
        notes: notesOf([
          `${percent(fresh)} of the new entries hold objects allocated since the first snapshot`,
          `held by Node's own ${node.className} (${node.module}): the program cannot bound it, only stop adding to it`,
          sampleKeys.length > 0 && `new keys: ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}`
        ]),
        sampleKeys,
        nodeModule: node.module,
        library: null,
        holderLocation: null,
        alsoAt: [],
        locationRole: null
      },
      location: null,
      fix: { summary: card.summary, snippet: card.snippet }
    }
  }
}

/**
 * Collections of one Node object grow for one cause (the module loader's module map and its
 * resolve cache): one finding, on the largest, claims the others' rows. A module cache's finding
 * is placed at the importer's `import(` when the resolve cache names the importer.
 * @param {NodeMatch[]} nodeMatches
 * @param {SignatureInput} input
 * @returns {Set<Match>} the matches folded into another
 */
function mergeNodeOwned (nodeMatches, input) {
  const last = input.detail.analyses[input.detail.analyses.length - 1]
  /** @type {Set<Match>} */
  const merged = new Set()
  for (const primary of nodeMatches) {
    if (merged.has(primary.match)) continue
    const importers = primary.importer === null ? [] : [primary.importer]
    const keys = [...primary.keys]
    for (const other of nodeMatches) {
      if (other === primary || merged.has(other.match) || !other.node.ids.some((id) => primary.node.ids.includes(id))) continue
      merged.add(other.match)
      primary.match.also = [...primary.match.also ?? [], other.match.group]
      if (other.importer !== null) importers.push(other.importer)
      keys.push(...other.keys)
      const { finding } = other.match
      const { counts } = finding.evidence
      const name = other.importer === null ? holderName(finding.path) ?? finding.owner.name : `${namedStep(finding.path)}'s entry for ${other.importer}`
      noteOn(primary.match.finding, `the same cause grows ${name} (${finding.owner.name}) too: ${formatInt(counts[0])} → ${formatInt(counts[counts.length - 1])} ${finding.evidence.unit}`)
    }
    if (!primary.moduleCache) continue
    const specifiers = keys.map((key) => moduleSpecifier(key)).filter((s) => s !== null)
    const site = importSite(last, importers, specifiers, input.cwd, input.names)
    const { summary, snippet } = moduleCacheFix(keys, input.cwd, site?.file ?? null)
    primary.match.finding.fix = { summary, snippet }
    if (site !== null) {
      primary.match.finding.location = site
      primary.match.finding.evidence.locationRole = 'imports it'
    } else {
      noteOn(primary.match.finding, 'the heap does not show which code imports it: look for an import() whose specifier changes per call')
    }
  }
  return merged
}

/**
 * @typedef {object} NodeMatch
 * @property {Match} match
 * @property {NodeOwner} node
 * @property {boolean} moduleCache
 * @property {string[]} keys          sample keys of the collection's new entries, whole
 * @property {string | null} importer the key of the Map entry the collection is (a per-importer cache)
 */

/**
 * The last step of a path named by a property or variable (`#resolveCache`), not by a slot.
 * @param {import('../analysis/retainer-paths.js').Step[]} path
 */
function namedStep (path) {
  for (let i = path.length - 1; i >= 0; i--) if (path[i].edgeType !== 'internal' && path[i].edgeType !== 'element' && path[i].edgeType !== 'hidden') return path[i].edge
  return path[path.length - 1].node
}

/**
 * @param {Finding} finding
 * @param {string} note
 */
function noteOn (finding, note) {
  finding.evidence.notes = [...finding.evidence.notes, note]
}

/**
 * @param {string} kind
 * @param {string} name
 * @param {string[]} keyClasses  most common first
 * @returns {{summary: string, snippet: string}}
 */
function fixFor (kind, name, keyClasses) {
  const variable = /^#?[A-Za-z_$][\w$]*$/.test(name) ? (name.startsWith('#') ? `this.${name}` : name) : /^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*$/.test(name) ? name : 'cache'
  // A private field is declared in the class body, not with const; `Registry.entries` and
  // `globalThis.cache` are assigned.
  const declare = (name.startsWith('#') || name.includes('.')) && variable !== 'cache' ? `${name} =` : `const ${variable} =`
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
 * The remedy when each entry is a small view keeping a big buffer or string: copy what is kept, and
 * bound the collection as well.
 * @param {string} kind
 * @param {string} name
 * @param {import('./backing-stores.js').BackingStores} stores
 * @param {{site: import('./finding.js').SourceLocation, expression: string} | null} view the write that takes a view, when its text shows one
 * @returns {{summary: string, snippet: string}}
 */
function viewFix (kind, name, stores, view) {
  const variable = /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'cache'
  const store = (/** @type {string} */ copy) => kind === 'Map' ? `${variable}.set(key, ${copy})` : kind === 'Set' ? `${variable}.add(${copy})` : `${variable}[key] = ${copy}`
  return storeFix(stores, view, { unit: 'entry', variable, bound: 'a size limit, or delete entries when done', store })
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
 * @param {import('../analysis/shown-names.js').NameResolver} names
 */
function libraryAncestor (analysis, path, cwd, names) {
  for (let i = path.length - 2; i >= 1; i--) {
    const o = analysis.graph.findOrdinalById(path[i].id)
    if (o < 0 || analysis.graph.nodeTypes[o] !== analysis.graph.nodeType.object) continue
    const { location } = constructorOf(analysis, o, cwd, names)
    if (location !== null && packageOf(location.file) !== null) return location
  }
  return null
}

/** @param {number} n */
function formatInt (n) {
  return n.toLocaleString('en-US')
}
