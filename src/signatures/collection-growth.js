// The part unbounded-collection and growing-array share: does a growth row's owner count more
// entries in every snapshot, and what are they.

import { shownClassName, shownEdgeName } from '../analysis/shown-names.js'
import { AGE_OLD } from '../query/ages.js'
import { collectionKind, collectionOfStore, entryCountsById, forEachEntry } from '../query/collection-entries.js'
import { stringText, variableName } from '../query/heap-values.js'
import { EdgeCursor, references, retainers } from '../query/references.js'
import { growsEveryStep, retainedById } from './growth-evidence.js'
import { cutMiddle } from '../cut-text.js'
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {CollectionKind} from '../query/collection-entries.js' */
/** @import {SignatureInput} from './finding.js' */

/** Owners of one row read per match; a row of more is summed over its largest ones. */
const MAX_OWNERS = 100
/** Fewer new entries than this is too little to call a collection unbounded. */
const MIN_NEW_ENTRIES = 10
/** Entries sampled for their key and value classes. */
const MAX_SAMPLES = 10_000
/** Keys shown to a person, and how much of each (cut in the middle: keys differ at their end). */
const MAX_SAMPLE_KEYS = 3
export const MAX_KEY_CHARS = 80
/** Past this many characters a key is not shown at all (it is cut to MAX_KEY_CHARS anyway). */
const MAX_KEY_TEXT = 4096

/**
 * @typedef {object} CollectionGrowth
 * @property {CollectionKind} kind
 * @property {{id: number, name: string, type: string, generatedName?: string}} owner  the largest collection of the row
 * @property {Step[]} path         its retainer path, ending at the collection
 * @property {number} ownerCount   collections of the row that grew
 * @property {number[]} counts     entries per snapshot, summed over those collections
 * @property {number[]} retained   their retained bytes per snapshot
 * @property {number} share        their retained growth as a share of the row's (0..1)
 * @property {number[]} newKeys    ordinals (last snapshot) of keys of new entries, sampled
 * @property {number[]} newValues  ordinals of values of new entries, sampled
 * @property {number} freshShare   of the entries the largest collection gained, the share whose key or
 *                                 value was allocated after the baseline (0..1)
 * @property {string[]} keyTexts   a few string keys of new entries, whole (as whole as the snapshot has them)
 * @property {string[]} sampleKeys the same keys as a person is shown them: a long one cut in the middle
 */

/** Path steps looked back from a new owner for the collection that holds it. */
const MAX_HOLDING_STEPS = 3

/**
 * The old collection of one of `kinds` a few steps above the end of a path whose entries grew in
 * every snapshot, with the path cut at it; or null.
 * @param {HeapGraph[]} graphs  oldest first
 * @param {Uint8Array} ages
 * @param {Step[]} path
 * @param {CollectionKind[]} kinds
 * @returns {{ordinal: number, kind: CollectionKind, path: Step[]} | null}
 */
function holdingCollection (graphs, ages, path, kinds) {
  const graph = graphs[graphs.length - 1]
  for (let i = path.length - 2; i >= Math.max(0, path.length - 1 - MAX_HOLDING_STEPS); i--) {
    const o = graph.findOrdinalById(path[i].id)
    if (o < 0) continue
    const collection = collectionOfStore(graph, o)
    const kind = collectionKind(graph, collection)
    if (kind === null || !kinds.includes(kind) || ages[collection] !== AGE_OLD) continue
    if (!growsEveryStep(entryCountsById(graphs, graph.nodeIds[collection], kind))) continue
    const at = path.findIndex((step) => step.id === graph.nodeIds[collection])
    return { ordinal: collection, kind, path: path.slice(0, at < 0 ? i + 1 : at + 1) }
  }
  return null
}

/**
 * The growth of the collections behind growth row `g`, or null when its largest owner is not one
 * of `kinds` or its entries did not grow in every step.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {CollectionKind[]} kinds
 * @returns {CollectionGrowth | null}
 */
export function collectionGrowth ({ result, detail, names }, g, kinds) {
  const row = result.growth[g]
  if (!row.leak) return null
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  const graphs = analyses.map((analysis) => analysis.graph)
  const representative = graph.findOrdinalById(row.owner.id)
  if (representative < 0) return null
  let first = collectionOfStore(graph, representative)
  let kind = collectionKind(graph, first)
  let path = row.path
  // An object that keeps the same entries in two collections (an index by id and one by name, a map
  // and its eviction list) dominates them, and is the owner the diff names. The collection that
  // grew is then one of its fields.
  const field = kind === 'object' && !growsEveryStep(entryCountsById(graphs, row.owner.id, kind))
    ? growingField(graphs, first, kinds)
    : null
  if (field !== null) {
    first = field.ordinal
    kind = field.kind
    path = [...path, { edge: field.edge, edgeType: field.edgeType, node: shownClassName(last, first, names), nodeType: graph.nodeTypeName(first), id: graph.nodeIds[first] }]
  }
  // A scope owns the growth when two leaks keep the same new objects (a Set of every instance, and
  // a listener per instance): neither collection dominates them. The collection that grew is then
  // one of the scope's variables, or a static field of a class it holds.
  const variable = kind === null && graph.nodeName(first) === 'system / Context' && row.sharedWith.length > 0
    ? growingVariable(last, graphs, first, kinds, names)
    : null
  if (variable !== null) {
    first = variable.ordinal
    kind = variable.kind
    path = [...path, ...variable.steps]
  }
  // New records that two old collections hold (a scheduler's queue of invocations and its table of
  // jobs, in two modules) have no old dominator below the roots, and each is its own owner. The
  // collection that holds them sits just above them on the path.
  if (ages[first] !== AGE_OLD) {
    const holding = holdingCollection(graphs, ages, path, kinds)
    if (holding !== null) ({ ordinal: first, kind, path } = holding)
  }
  if (kind === null || !kinds.includes(kind)) return null

  const counts = analyses.map(() => 0)
  const retained = analyses.map(() => 0)
  let ownerCount = 0
  let firstAdded = 0
  const seen = new Set()
  for (const owner of [first, ...detail.groupOwners[g].slice(0, MAX_OWNERS)]) {
    const collection = collectionOfStore(graph, owner)
    // A collection made after the baseline (an owner held straight from the GC roots) has no
    // earlier count to have grown from.
    if (seen.has(collection) || ages[collection] !== AGE_OLD || collectionKind(graph, collection) !== kind) continue
    seen.add(collection)
    const id = graph.nodeIds[collection]
    const ownCounts = entryCountsById(graphs, id, kind)
    if (!growsEveryStep(ownCounts)) continue
    if (collection === first) firstAdded = ownCounts[ownCounts.length - 1] - ownCounts[0]
    ownerCount++
    retainedById(analyses, id).forEach((bytes, i) => { retained[i] += bytes })
    ownCounts.forEach((count, i) => { counts[i] += count })
  }
  if (ownerCount === 0 || !growsEveryStep(counts) || counts[counts.length - 1] - counts[0] < MIN_NEW_ENTRIES) return null

  const rowGrowth = row.retainedAfter - row.retainedBefore
  const share = rowGrowth > 0 ? Math.min(1, Math.max(0, (retained[retained.length - 1] - retained[0]) / rowGrowth)) : 0
  /** @type {number[]} */
  const newKeys = []
  /** @type {number[]} */
  const newValues = []
  let freshEntries = 0
  /** @type {string[]} */
  const keyTexts = []
  forEachEntry(graph, first, kind, (key, value, name) => {
    const fresh = (key >= 0 && ages[key] !== AGE_OLD) || (value >= 0 && ages[value] !== AGE_OLD)
    if (!fresh) return
    freshEntries++
    if (keyTexts.length < MAX_SAMPLE_KEYS) {
      const text = name ?? stringText(graph, key, MAX_KEY_TEXT)
      if (text !== null && text !== '') keyTexts.push(text)
    }
    if (newKeys.length + newValues.length >= MAX_SAMPLES) return
    if (key >= 0) newKeys.push(key)
    if (value >= 0) newValues.push(value)
  })
  // The diff named the collection's backing store; the collection is the step before it.
  if (field === null && first !== representative && path.length >= 2 && path[path.length - 2].id === graph.nodeIds[first]) path = path.slice(0, -1)
  return {
    kind,
    owner: { id: graph.nodeIds[first], name: shownClassName(last, first, names), type: graph.nodeTypeName(first) },
    path,
    ownerCount,
    counts,
    retained,
    share,
    newKeys,
    newValues,
    freshShare: firstAdded > 0 ? Math.min(1, freshEntries / firstAdded) : 0,
    keyTexts,
    sampleKeys: keyTexts.map((text) => cutMiddle(text, MAX_KEY_CHARS))
  }
}

/**
 * The field of `holder` that is a collection of one of `kinds` and gained the most entries in
 * every step, or null.
 * @param {HeapGraph[]} graphs oldest first
 * @param {number} holder ordinal in the last graph
 * @param {CollectionKind[]} kinds
 * @returns {{ordinal: number, kind: CollectionKind, edge: string, edgeType: string} | null}
 */
function growingField (graphs, holder, kinds) {
  const graph = graphs[graphs.length - 1]
  let best = null
  let bestAdded = MIN_NEW_ENTRIES - 1
  for (const edge = references(graph, holder); edge.next();) {
    const type = edge.type
    if (type !== 'property' && type !== 'internal') continue
    const name = edge.name
    if (name === '__proto__' || name === 'map' || name === 'properties' || name === 'elements') continue
    const ordinal = edge.target
    const kind = collectionKind(graph, ordinal)
    if (kind === null || !kinds.includes(kind)) continue
    const counts = entryCountsById(graphs, graph.nodeIds[ordinal], kind)
    const added = counts[counts.length - 1] - counts[0]
    if (!growsEveryStep(counts) || added <= bestAdded) continue
    best = { ordinal, kind, edge: name, edgeType: type }
    bestAdded = added
  }
  return best
}

/**
 * The collection among a scope's variables, and the static fields of the functions and classes it
 * holds, that gained the most entries in every step, with the path steps from the scope to it; or
 * null.
 * @param {HeapAnalysis} last
 * @param {HeapGraph[]} graphs oldest first
 * @param {number} context ordinal in the last graph
 * @param {CollectionKind[]} kinds
 * @param {NameResolver} names
 * @returns {{ordinal: number, kind: CollectionKind, steps: Step[]} | null}
 */
function growingVariable (last, graphs, context, kinds, names) {
  const { graph } = last
  const step = (/** @type {number} */ e) => {
    const target = graph.edgeTarget(e)
    /** @type {Step} */
    const made = { edge: shownEdgeName(last, e, names), edgeType: graph.edgeTypeName(e), node: shownClassName(last, target, names), nodeType: graph.nodeTypeName(target), id: graph.nodeIds[target] }
    if (made.edge !== graph.edgeName(e)) made.generatedEdge = graph.edgeName(e)
    if (made.node !== last.classes.names[last.classOf[target]]) made.generatedNode = last.classes.names[last.classOf[target]]
    return made
  }
  /** @type {{ordinal: number, kind: CollectionKind, steps: Step[]} | null} */
  let best = null
  let bestAdded = MIN_NEW_ENTRIES - 1
  const consider = (/** @type {number[]} */ edges) => {
    const ordinal = graph.edgeTarget(edges[edges.length - 1])
    const kind = collectionKind(graph, ordinal)
    if (kind === null || !kinds.includes(kind)) return
    const counts = entryCountsById(graphs, graph.nodeIds[ordinal], kind)
    const added = counts[counts.length - 1] - counts[0]
    if (!growsEveryStep(counts) || added <= bestAdded) return
    best = { ordinal, kind, steps: edges.map(step) }
    bestAdded = added
  }
  const field = new EdgeCursor(graph)
  for (const variable = references(graph, context); variable.next();) {
    if (!variable.is('context')) continue
    if (graph.nodeTypes[variable.target] !== graph.nodeType.closure) {
      consider([variable.number])
      continue
    }
    for (field.references(variable.target); field.next();) {
      if (field.is('property') && !field.is('property', '__proto__') && !field.is('property', 'prototype')) consider([variable.number, field.number])
    }
  }
  return best
}

const WEAK_MAP_VALUE = / pair in WeakMap \(table @(\d+)\)$/
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * The name a person knows a collection by: the variable or property that holds it, when the path
 * ends in one. Given the snapshot's analysis, as the program reads it where the holder is not a
 * scope or an instance: `Registry.entries` for a property of a named function or class,
 * `globalThis.cache` for one of the global object, `meta.get(app)` for a WeakMap's value reached
 * through its key.
 * @param {Step[]} path
 * @param {HeapAnalysis} [analysis] the snapshot the path is in (its graph with a retainer index)
 * @returns {string | null}
 */
export function holderName (path, analysis) {
  const step = path[path.length - 1]
  if (!step) return null
  const before = path[path.length - 2]
  if (step.edgeType === 'property' || step.edgeType === 'context' || step.edgeType === 'shortcut') {
    if (analysis === undefined || before === undefined || step.edgeType !== 'property' || !IDENTIFIER.test(step.edge)) return step.edge
    if (before.nodeType === 'closure' && IDENTIFIER.test(before.edge)) return `${before.edge}.${step.edge}`
    if (analysis.userRoots.includes(analysis.graph.findOrdinalById(before.id))) return `globalThis.${step.edge}`
    return step.edge
  }
  const table = WEAK_MAP_VALUE.exec(step.edge)
  const graph = analysis?.graph
  if (graph === undefined || !graph.hasRetainers || table === null || before === undefined || !IDENTIFIER.test(before.edge)) return null
  const map = weakMapOfTable(graph, graph.findOrdinalById(Number(table[1])))
  return map === null ? null : `${map}.get(${before.edge})`
}

/**
 * The variable or property name of the WeakMap whose table `table` is, or null.
 * @param {HeapGraph} graph
 * @param {number} table
 */
function weakMapOfTable (graph, table) {
  for (const edge = retainers(graph, table); edge.next();) {
    if (!edge.is('internal', 'table')) continue
    const name = variableName(graph, edge.source)
    if (name !== null && IDENTIFIER.test(name)) return name
  }
  return null
}
