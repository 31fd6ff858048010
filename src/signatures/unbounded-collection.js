// unbounded-collection: a Map, Set or plain object used as a dictionary gains entries in every
// snapshot and keeps them: a cache without eviction, a registry nothing unregisters from.
//
// The fix follows the mechanism the heap (and the program's text at the write) shows, not the
// category: entries that are small views keeping big buffers are copied; WeakRefs whose objects are
// gone are deleted with their objects; an entry the program deletes on one path only is deleted
// where every path ends; closures a package made are the collection's to stop keeping; a package's
// collection is emptied with the package's own release call, found on its prototype chain. Only
// when none of these shows is the fix a bound. collections/ holds what reads each mechanism
// (entry-writes.js, weak-entries.js, package-closures.js, which one shows: mechanisms.js), a
// package's removal calls (package-release.js) and the words (collection-words.js).

import { collectionGrowth, holderName } from './collection-growth.js'
import { evidenceOf, judgeCollection, retainedById, perStepOf } from './growth-evidence.js'
import { bytesText, notesOf } from './evidence-notes.js'
import { commonClasses } from '../query/held-objects.js'
import { HOLDER_ROLES, holderLocation } from './holder-location.js'
import { libraryAncestor, libraryHandle, packageOf, scopePackage } from './library-handle.js'
import { libraryEntries } from './library-entries.js'
import { nodeOwner } from './node-owned.js'
import { enclosingMapKey, importSite, isModuleCache, moduleSpecifier } from './node-owned/module-cache.js'
import { moduleCacheFix, nodeCollectionFix } from './node-owned/node-words.js'
import { writeSiteNotes, writeSites } from './write-sites.js'
import { packageMaker } from './package-makers.js'
import { readableScriptName } from './source-location.js'
import { backingStores, viewWriteSites } from './backing-stores.js'
import { storeNotes } from './backing-store-words.js'
import { entryWrite } from './collections/entry-writes.js'
import { offersRemoval, packageRelease, scopeRelease } from './collections/package-release.js'
import { fixOf, mechanismNotes, mechanismOf } from './collections/mechanisms.js'
import {
  NO_IMPORTER_NOTE, alsoGrowsNote, collectionSubject, collectionTitle, freshNote, importerEntryName, keptFunctionNote,
  libraryFix, libraryOwnedFix, libraryOwnedNote, offeredReleaseFix, newKeysNote, nodeOwnedNote, nodeOwnedTitle,
  scopeName, sharedHolderNote, summedNote
} from './collections/collection-words.js'
/** @import {Finding, Match, Signature, SignatureInput} from './finding.js' */
/** @import {NodeOwner} from './node-owned.js' */
/** @import {SourceLocation} from './finding.js' */

export const ID = 'unbounded-collection'
/** A holder whose retained growth is this many times its collection's keeps the entries' objects too. */
const SHARED_HOLDER_RATIO = 2
/** Steps from each new entry of a collection Node keeps to the program's function it keeps: a signal, its listener Map, the Map's table, the list head, the listener, its callback. */
const NODE_ENTRY_DEPTH = 6

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
    const node = holder === null || holder.location.file.startsWith('node:') ? nodeOwner(last, path, cwd, names, [...growth.newKeys, ...growth.newValues]) : null
    if (node !== null) {
      const match = nodeOwnedMatch(input, g, growth, node, keyClasses, valueClasses)
      // Modules are told apart by whole keys: the printed ones may have lost the query that differs.
      const moduleCache = isModuleCache(node, growth.keyTexts)
      nodeMatches.push({ match, node, moduleCache, keys: growth.keyTexts, importer: moduleCache ? enclosingMapKey(last, path) : null })
      matches.push(match)
      continue
    }
    const handle = libraryHandle(last, path, holder === null ? libraryAncestor(last, path, path.length - 2, cwd, names) : holder.location, cwd, names, offersRemoval)
    // A package's own collection that no object of the program's reaches: what the program does
    // is call into the package, and that is where the fix is.
    const ownedBy = handle !== null ? null : holder !== null ? packageOf(holder.location.file) : scopePackage(path)
    if (ownedBy !== null) {
      matches.push(libraryOwnedMatch(input, g, growth, ownedBy, holder, keyClasses, valueClasses, shared))
      continue
    }
    // A library's collection is changed through the program's handle on it, not where the library writes.
    let sites = handle === null ? writeSites(last, path, holder, { cwd, names }) : null
    const stores = handle === null ? backingStores(last, growth.newValues, bytesPerEntry) : null
    // Of several writes, the one that stores a view of a bigger buffer is the one that keeps it.
    const views = stores === null || sites === null || holder?.scriptId === undefined ? [] : viewWriteSites(last, holder.scriptId, [sites.location, ...sites.also], names)
    if (sites !== null && views.length > 0) {
      const site = views[0].site
      sites = { ...sites, location: site, also: [sites.location, ...sites.also].filter((other) => other !== site) }
    }
    const write = sites === null || holder === null ? null : entryWrite(last, holder, sites.location, path[path.length - 1], names)
    const name = holderName(path, last) ?? `${owner.name} @${owner.id}`
    const subject = collectionSubject(name, kind, handle)
    const mechanism = handle !== null ? null : mechanismOf(input, growth, stores, write)
    const fresh = growth.freshShare
    const { confidence, reasons } = judgeCollection(counts, share, fresh, 'entries')
    const fix = handle !== null
      ? libraryFix(handle, packageRelease(last.graph, handle.ordinal, path), growth.sampleKeys, keyClasses, valueClasses)
      : fixOf(kind, name, keyClasses, mechanism, views[0] ?? null, write)
    /** @type {Match} */
    const match = {
      group: g,
      finding: {
        signature: ID,
        title: collectionTitle(subject, counts, growth.ownerCount, mechanism?.kind === 'one path'),
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
            freshNote(fresh),
            growth.ownerCount > 1 && summedNote(growth.ownerCount),
            shared !== null && sharedHolderNote(shared, kind, bytesText(growth.retained[growth.retained.length - 1] - growth.retained[0])),
            ...(stores === null ? [] : storeNotes(stores, views[0] ?? null, 'entry', bytesPerEntry)),
            ...mechanismNotes(mechanism, name),
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
        fix
      }
    }
    matches.push(match)
    if (handle !== null) handles.push({ match, ordinal: handle.ordinal, id: last.graph.nodeIds[handle.ordinal] })
  }
  const merged = mergeNodeOwned(nodeMatches, input)
  for (const match of mergeLibraryCollections(handles)) merged.add(match)
  foldLibraryArrays(input, handles, new Set(matches.map((match) => match.group)))
  return matches.filter((match) => !merged.has(match))
}

/**
 * How the program reaches a path's end from step `from` (`price.context.get.context.map[1]`):
 * names and indexes, other steps left out; null when `from` is not on the path or names nothing.
 * @param {import('../analysis/retainer-paths.js').Step[]} path
 * @param {number} from
 * @returns {string | null}
 */
function accessFrom (path, from) {
  if (from < 0) return null
  let text = ''
  for (const { edge } of path.slice(from)) {
    if (/^\d+$/.test(edge)) text += `[${edge}]`
    else if (/^[#\w$]+$/.test(edge)) text += text === '' ? edge : `.${edge}`
  }
  return text === '' ? null : text
}

/**
 * Arrays inside a library object the program holds that grow in the same steps as a collection of
 * that object (memoizee keeps each call's arguments in arrays beside its cache of results) grow
 * for the same calls: the collection's card claims their rows and names them in a note, so
 * growing-array gives them no card of their own, with no location and a ring buffer for a fix.
 * @param {SignatureInput} input
 * @param {Array<{match: Match, ordinal: number, id: number}>} handles  library collections, by the object the program holds
 * @param {Set<number>} matched  rows this signature matched
 */
function foldLibraryArrays (input, handles, matched) {
  if (handles.length === 0) return
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  for (const g of input.candidates) {
    if (matched.has(g)) continue
    const growth = collectionGrowth(input, g, ['array'])
    if (growth === null) continue
    const { counts } = growth
    // An array kept in an array (memoizee's `map[1]`) is held by the code that holds the outer one.
    let end = growth.path.length
    while (end > 2 && growth.path[end - 2].node === 'Array') end--
    const path = growth.path.slice(0, end)
    const holder = holderLocation(last, path, cwd, names)
    const handle = libraryHandle(last, path, holder === null ? libraryAncestor(last, path, path.length - 2, cwd, names) : holder.location, cwd, names, offersRemoval)
    if (handle === null) continue
    const steps = perStepOf(counts)
    const primary = handles.find((h) => h.ordinal === handle.ordinal && Math.abs(h.match.finding.evidence.perStep - steps) <= 0.1 * h.match.finding.evidence.perStep)
    if (primary === undefined) continue
    primary.match.also = [...primary.match.also ?? [], g]
    const name = accessFrom(growth.path, growth.path.findIndex((step) => step.id === primary.id)) ?? growth.owner.name
    noteOn(primary.match.finding, alsoGrowsNote('calls', name, growth.owner.name, counts, 'elements'))
  }
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
    return { name: scopeName(module), parts: 'variables', retained }
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
      noteOn(primary.match.finding, alsoGrowsNote('calls', accessFrom(finding.path, from) ?? finding.owner.name, finding.owner.name, counts, finding.evidence.unit))
    }
  }
  return merged
}

/**
 * The finding for a collection a package keeps in its own code: the call into the package that
 * adds its entries, made once or ended, never a bound the program cannot put on the package's map.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @param {string} library
 * @param {import('./holder-location.js').HolderLocation | null} holder  the package's code that holds it,
 *   null when only the package's module scope above it says whose it is
 * @param {string[]} keyClasses
 * @param {string[]} valueClasses
 * @param {{name: string, parts: string, retained: number[]} | null} [shared]  the object whose other
 *   fields share the entries' objects, whose growth the card then gives (sharedHolder)
 * @returns {Match}
 */
function libraryOwnedMatch ({ detail, cwd, names }, g, growth, library, holder, keyClasses, valueClasses, shared = null) {
  const { owner, path, counts, sampleKeys } = growth
  const last = detail.analyses[detail.analyses.length - 1]
  const name = holderName(path, last) ?? `${owner.name} @${owner.id}`
  const entries = libraryEntries(last, growth.newValues, detail.ages, cwd, names)
  const { callback } = entries
  // Entries that are the package's functions end with the object they close over (a watcher's
  // listeners, and its close()).
  const functions = [...growth.newKeys, ...growth.newValues].filter((o) => last.graph.nodeTypes[o] === last.graph.nodeType.closure)
  const maker = entries.end !== null ? null : packageMaker(last, functions, detail.ages, library, cwd, names)
  // The package's object whose methods share the collection's scope may offer to take entries out.
  const offered = scopeRelease(last.graph, path)
  const card = offered !== null
    ? offeredReleaseFix(library, name, sampleKeys, valueClasses, offered)
    : libraryOwnedFix(library, name, sampleKeys, keyClasses, valueClasses, entries.end ?? maker?.method ?? null, maker?.className ?? null)
  // The object that shares the entries' objects keeps what the leak costs (sharedHolder).
  const measured = shared === null ? growth : { ...growth, retained: shared.retained, share: 1 }
  return ownedCollectionMatch(g, measured, keyClasses, valueClasses, {
    title: collectionTitle(card.subject, counts, growth.ownerCount, false),
    notes: [
      libraryOwnedNote(library, offered),
      callback !== null && keptFunctionNote(callback),
      shared !== null && sharedHolderNote(shared, growth.kind, bytesText(growth.retained[growth.retained.length - 1] - growth.retained[0]))
    ],
    evidence: {
      library,
      holderLocation: holder?.location ?? null,
      alsoAt: [],
      locationRole: callback !== null ? 'kept by each entry' : holder === null ? null : HOLDER_ROLES[holder.how],
      ...(maker !== null && { madeBy: { className: maker.className, from: library, method: maker.method } })
    },
    // Without a function of the program's in the entries, the package's code that holds the
    // collection: the allocation stacks, when there are some, lead from it to the program's call.
    location: callback ?? holder?.location ?? null,
    fix: { summary: card.summary, snippet: card.snippet }
  })
}

/**
 * The finding for a collection Node or a package owns, which the program cannot bound: the
 * evidence every such card shows first, then the owner's own.
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @param {string[]} keyClasses
 * @param {string[]} valueClasses
 * @param {{title: string, notes: Array<string | false>, evidence: Record<string, unknown>, location: SourceLocation | null,
 *   fix: {summary: string, snippet: string}}} card  notes: after the new entries' share
 * @returns {Match}
 */
function ownedCollectionMatch (g, growth, keyClasses, valueClasses, { title, notes, evidence, location, fix }) {
  const { kind, owner, path, counts, retained, share, sampleKeys } = growth
  const added = counts[counts.length - 1] - counts[0]
  const { confidence, reasons } = judgeCollection(counts, share, growth.freshShare, 'entries')
  return {
    group: g,
    finding: {
      signature: ID,
      title,
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
        notes: notesOf([freshNote(growth.freshShare), ...notes]),
        sampleKeys,
        ...evidence
      },
      location,
      fix
    }
  }
}

/**
 * The finding for a collection Node owns: what the program does that adds entries, never a bound
 * the program cannot put on Node's own map. Placed at the program's function most new entries keep
 * (the listener the program added to each signal Node keeps), when there is one: the call that adds
 * the entry is written beside it. A module cache is placed at the importer by mergeNodeOwned.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @param {NodeOwner} node
 * @param {string[]} keyClasses
 * @param {string[]} valueClasses
 * @returns {Match}
 */
function nodeOwnedMatch ({ detail, cwd, names }, g, growth, node, keyClasses, valueClasses) {
  const { owner, path, counts, sampleKeys, keyTexts } = growth
  const name = holderName(path) ?? `${owner.name} @${owner.id}`
  const moduleCache = isModuleCache(node, keyTexts)
  const card = moduleCache ? moduleCacheFix(keyTexts, cwd) : nodeCollectionFix(node, name, sampleKeys, valueClasses)
  const last = detail.analyses[detail.analyses.length - 1]
  const callback = moduleCache ? null : libraryEntries(last, [...growth.newKeys, ...growth.newValues], detail.ages, cwd, names, NODE_ENTRY_DEPTH).callback
  return ownedCollectionMatch(g, growth, keyClasses, valueClasses, {
    title: nodeOwnedTitle(card.subject, name, counts, moduleCache),
    notes: [nodeOwnedNote(node.className, node.module), newKeysNote(sampleKeys), callback !== null && keptFunctionNote(callback)],
    evidence: { nodeModule: node.module, library: null, holderLocation: null, alsoAt: [], locationRole: callback === null ? null : 'kept by each entry' },
    location: callback,
    fix: { summary: card.summary, snippet: card.snippet }
  })
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
      const name = other.importer === null ? holderName(finding.path) ?? finding.owner.name : importerEntryName(namedStep(finding.path), other.importer)
      noteOn(primary.match.finding, alsoGrowsNote('cause', name, finding.owner.name, counts, finding.evidence.unit))
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
      noteOn(primary.match.finding, NO_IMPORTER_NOTE)
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
