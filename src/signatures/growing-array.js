// growing-array: an array that only grows (a request log, samples kept "for later", a list of
// handlers that are not event listeners). Runs last: listener lists and closure lists are arrays
// too, and their own signatures explain them better.

import { collectionGrowth, holderName } from './collection-growth.js'
import { evidenceOf, judgeCollection, percent } from './growth-evidence.js'
import { countText, notesOf } from './evidence-notes.js'
import { commonClasses } from '../query/held-objects.js'
import { offeredMethod } from '../query/heap-methods.js'
import { references } from '../query/references.js'
import { HOLDER_ROLES, holderLocation } from './holder-location.js'
import { packageOf } from './library-handle.js'
import { END_METHODS, variableFor } from './unclosed-makers.js'
import { writeSiteNotes, writeSites } from './write-sites.js'
import { backingStores, storeFix, storeNotes, viewWriteSites } from './backing-stores.js'
import { joinVerb, nodeCollectionFix, nodeOwner, nodeRecords, nodeRecordsFix, reloadedModules, reloadFix, reloadSite } from './node-owned.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export const ID = 'growing-array'

/** @type {Signature} */
export const growingArray = { id: ID, match: matchGrowingArray }

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchGrowingArray (input) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const growth = collectionGrowth(input, g, ['array'])
    if (growth === null) continue
    const { owner, path, counts, retained, share } = growth
    const added = counts[counts.length - 1] - counts[0]
    const elementClasses = commonClasses(last, growth.newValues)
    const reload = reloadedModules(last, path, growth.newValues, cwd)
    if (reload !== null) {
      matches.push(reloadMatch(input, g, growth, reload, elementClasses))
      continue
    }
    const holder = holderLocation(last, path, cwd, names)
    const node = holder === null || holder.location.file.startsWith('node:') ? nodeOwner(last, path, cwd, names) : null
    if (node !== null) {
      matches.push(nodeListMatch(input, g, growth, node, elementClasses))
      continue
    }
    let sites = writeSites(last, path, holder, { cwd, names })
    const name = holderName(path, last) ?? `${owner.name} @${owner.id}`
    // An expression the program can write: a variable, `Registry.log`, `meta.get(app)`.
    const variable = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\([\w$]*\))*$/.test(name) ? name : 'list'
    const bytesPerElement = Math.round((retained[retained.length - 1] - retained[0]) / added)
    const stores = backingStores(last, growth.newValues, bytesPerElement)
    // Of several writes, the one that stores a view of a bigger buffer is the one that keeps it.
    const views = stores === null || sites === null || holder?.scriptId === undefined ? [] : viewWriteSites(last, holder.scriptId, [sites.location, ...sites.also], names)
    if (sites !== null && views.length > 0) {
      const site = views[0].site
      sites = { ...sites, location: site, also: [sites.location, ...sites.also].filter((other) => other !== site) }
    }
    const fresh = growth.freshShare
    const { confidence, reasons } = judgeCollection(counts, share, fresh, 'elements')
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: growth.ownerCount > 1
          ? `${growth.ownerCount} arrays like ${name} only grow: ${counts.map((n) => n.toLocaleString('en-US')).join(' → ')} elements in all, none removed.`
          : `${name} (Array) only grows: ${counts.map((n) => n.toLocaleString('en-US')).join(' → ')} elements, none removed.`,
        confidence,
        reasons,
        owner,
        path,
        evidence: {
          ...evidenceOf('elements', counts, retained, growth.ownerCount),
          bytesPerElement,
          elementClasses,
          notes: notesOf([
            `${percent(fresh)} of the new elements hold objects allocated since the first snapshot`,
            growth.ownerCount > 1 && `${countText(growth.ownerCount)} arrays of one shape, summed`,
            ...(stores === null ? [] : storeNotes(stores, views[0] ?? null, 'element', bytesPerElement)),
            ...(sites === null || holder === null ? [] : writeSiteNotes(sites, holder))
          ]),
          backingStore: stores,
          holderLocation: holder === null ? null : holder.location,
          alsoAt: sites === null ? [] : sites.also,
          locationRole: sites !== null ? sites.role : holder === null ? null : HOLDER_ROLES[holder.how]
        },
        location: sites?.location ?? (holder === null ? null : holder.location),
        fix: (stores === null ? null : viewFix(variable, stores, views[0] ?? null)) ?? libraryRecordFix(last, holder === null ? null : holder.location.file, name, growth.newValues) ?? {
          summary: 'bound it (keep the last N, as a ring buffer does) or stop keeping it: aggregate, or write records out instead of holding them.',
          snippet: `${variable}.push(record)\nif (${variable}.length > 1000) ${variable}.shift()`
        }
      }
    })
  }
  return matches
}

/**
 * The remedy when each element is a small view keeping a big buffer or string: copy what is kept.
 * @param {string} variable
 * @param {import('./backing-stores.js').BackingStores} stores
 * @param {{site: import('./finding.js').SourceLocation, expression: string} | null} view the write that takes a view, when its text shows one
 * @returns {{summary: string, snippet: string}}
 */
function viewFix (variable, stores, view) {
  return storeFix(stores, view, { unit: 'element', variable, bound: 'keep the last N', store: (copy) => `${variable}.push(${copy})` })
}

/**
 * The finding for a list Node owns (its enabled async hooks): which records the program makes per
 * call and never ends, and where their callbacks come from, never a bound on Node's own array.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @param {import('./node-owned.js').NodeOwner} node
 * @param {string[]} elementClasses
 * @returns {Match}
 */
function nodeListMatch (input, g, growth, node, elementClasses) {
  const last = input.detail.analyses[input.detail.analyses.length - 1]
  const { owner, path, counts } = growth
  const name = holderName(path) ?? `${owner.name} @${owner.id}`
  const records = nodeRecords(last, growth.newValues, input.cwd, input.names)
  const card = records === null ? nodeCollectionFix(node, name, [], elementClasses) : nodeRecordsFix(node, records)
  const ended = records === null || records.end === null ? 'never ended' : `never ${records.end}d`
  const callbacks = records?.callbacks ?? null
  return nodeListFinding(g, growth, elementClasses, {
    module: node.module,
    title: records === null
      ? `${card.subject} only grows: ${counts.map((n) => n.toLocaleString('en-US')).join(' → ')} elements, none removed.`
      : `${card.subject} only grows: ${counts.map((n) => n.toLocaleString('en-US')).join(' → ')}, each ${joinVerb(records.elementClass)} per call and ${ended}.`,
    note: callbacks && `their callbacks start at ${callbacks.file}:${callbacks.line}:${callbacks.column}${callbacks.function === '' ? '' : ` (${callbacks.function})`}`,
    library: records?.library ?? null,
    location: callbacks,
    locationRole: callbacks ? 'its callbacks' : null,
    fix: card
  })
}

/**
 * The finding for a module's `children` that grows with copies of one module the program reloads
 * through require.cache: located at the program's `delete require.cache`, never a bound on Node's array.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @param {{file: string | null, parent: string | null}} reload
 * @param {string[]} elementClasses
 * @returns {Match}
 */
function reloadMatch (input, g, growth, reload, elementClasses) {
  const last = input.detail.analyses[input.detail.analyses.length - 1]
  const site = reloadSite(last, reload.file, input.cwd, input.names)
  // A parent whose filename is a slice of a longer string (Node 24's createRequire) has no text of
  // its own in the snapshot: the script that reloads is the one that requires.
  const card = reloadFix({ ...reload, parent: reload.parent ?? site?.file ?? null })
  return nodeListFinding(g, growth, elementClasses, {
    module: 'node:internal/modules/cjs/loader',
    title: `${card.subject} only grows: ${growth.counts.map((n) => n.toLocaleString('en-US')).join(' → ')} copies${reload.file === null ? '' : ` of ${reload.file}`}, one per require() after it is deleted from require.cache.`,
    note: null,
    library: null,
    location: site,
    locationRole: site === null ? null : 'reloads it',
    fix: card
  })
}

/**
 * A finding on a list Node's own code holds: the program can only stop adding to it.
 * @param {number} g
 * @param {import('./collection-growth.js').CollectionGrowth} growth
 * @param {string[]} elementClasses
 * @param {{module: string, title: string, note: string | null | false, library: string | null,
 *   location: import('./finding.js').SourceLocation | null, locationRole: string | null, fix: {summary: string, snippet: string}}} card
 * @returns {Match}
 */
function nodeListFinding (g, growth, elementClasses, { module, title, note, library, location, locationRole, fix }) {
  const { owner, path, counts, retained, share } = growth
  const added = counts[counts.length - 1] - counts[0]
  const fresh = growth.freshShare
  const { confidence, reasons } = judgeCollection(counts, share, fresh, 'elements')
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
        ...evidenceOf('elements', counts, retained, growth.ownerCount),
        bytesPerElement: Math.round((retained[retained.length - 1] - retained[0]) / added),
        elementClasses,
        notes: notesOf([
          `${percent(fresh)} of the new elements hold objects allocated since the first snapshot`,
          `held by Node's own code (${module}): the program cannot shorten it, only stop adding to it`,
          note
        ]),
        nodeModule: module,
        library,
        holderLocation: null,
        alsoAt: [],
        locationRole
      },
      location,
      fix: { summary: fix.summary, snippet: fix.snippet }
    }
  }
}

/**
 * A library's own list (a scheduler's pending invocations) is not the program's to bound: each new
 * record is work the program started and never ended. When the records, or an object one field
 * away (an invocation's `job`), offer a method that ends them, that is the fix.
 * @param {HeapAnalysis} analysis
 * @param {string | null} holderFile  where the list's holder is
 * @param {string} name
 * @param {number[]} values  new elements (ordinals, last snapshot)
 * @returns {{summary: string, snippet: string} | null}
 */
function libraryRecordFix (analysis, holderFile, name, values) {
  const library = holderFile === null ? null : packageOf(holderFile)
  const { graph } = analysis
  const element = values.find((o) => graph.nodeTypes[o] === graph.nodeType.object)
  if (library === null || element === undefined) return null
  const elementClass = analysis.classes.names[analysis.classOf[element]]
  let target = element
  let method = offeredMethod(graph, element, END_METHODS)
  let via = ''
  for (const edge = references(graph, element); method === null && edge.next();) {
    const field = edge.target
    if (!edge.is('property') || graph.nodeTypes[field] !== graph.nodeType.object || edge.is('property', '__proto__')) continue
    method = offeredMethod(graph, field, END_METHODS)
    if (method !== null) {
      target = field
      via = edge.name
    }
  }
  if (method === null) return null
  const targetClass = analysis.classes.names[analysis.classOf[target]]
  const variable = variableFor(targetClass)
  return {
    summary: `${name} is ${library}'s own list: each new ${elementClass}${via === '' ? '' : ` (through its ${via}, a ${targetClass})`} is work the program started and never ended. Keep the ${targetClass} the library hands back and call its ${method}() when it is no longer needed, or start one at start-up instead of one per request.`,
    snippet: `const ${variable} = /* the call that returns the ${targetClass} */\n${variable}.${method}() // when it is no longer needed`
  }
}
