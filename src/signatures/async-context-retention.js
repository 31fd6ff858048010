// async-context-retention: AsyncLocalStorage stores kept alive by long-lived async resources. Node
// 20 copies the current store onto every async resource created inside `als.run(store, ...)` or
// after `als.enterWith(store)`: a promise, a Timeout, a socket's handle gets the store under
// `Symbol(kResourceStore)` (a property edge `<symbol kResourceStore>` in the snapshot). A resource
// that outlives its request (a task waiting on a shutdown signal, a poller, a pooled connection)
// then keeps that request's whole store, and everything in it, alive. Recognised by that edge: the
// row's new objects are mostly stores reached through it.

import { AGE_OLD } from '../diff/growth-owners.js'
import { holderName } from './collection-growth.js'
import { DOMINATED, markDominatedBy, rowsOfOwners } from './dominator-subtree.js'
import { bytesText, countText, namedCounts, notesOf } from './evidence-notes.js'
import { growsEveryStep, judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { commonClasses } from './held-objects.js'
import { isProgramLocation, mostCommonLocation, propertyTarget, unwrapBound } from './heap-values.js'
import { sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */

export const ID = 'async-context-retention'

/** @type {Signature} */
export const asyncContextRetention = { id: ID, match: matchAsyncContextRetention }

/** How snapshots name the property that holds a resource's store. */
const STORE_EDGE_NAMES = ['<symbol kResourceStore>', 'Symbol(kResourceStore)']
/** Timer classes and the property holding their callback (lib/internal/timers.js). */
const TIMER_CALLBACKS = new Map([['Timeout', '_onTimeout'], ['Immediate', '_onImmediate']])
/** Fewer new live stores than this is too little to call a leak. */
const MIN_NEW_STORES = 20
/** The stores must retain at least this share of the row's new objects. */
const MIN_ROW_SHARE = 0.5
/** Resources read per finding for their classes and the code that created them. */
const MAX_RESOURCES = 5_000
/** Retainers of a resource looked at for the code that created it. */
const MAX_HOLDERS = 8

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchAsyncContextRetention (input) {
  const { result, detail, cwd } = input
  const { analyses, ages, noise, owners } = detail
  const last = analyses[analyses.length - 1]
  const { graph, retainedSizes } = last
  const isStore = storeFlags(last)
  if (isStore === null) return []
  const rows = input.candidates.filter((g) => result.growth[g].leak)
  const rowOfOwner = rowsOfOwners(graph.nodeCount, detail.groupOwners, rows)
  /** @type {Map<number, {bytes: number, stores: number[]}>} new stores per row */
  const byRow = new Map()
  for (let o = 0; o < graph.nodeCount; o++) {
    if (isStore[o] === 0 || ages[o] === AGE_OLD || noise[o] === 1) continue
    const g = rowOfOwner[owners[o]]
    if (g < 0) continue
    let tally = byRow.get(g)
    if (!tally) byRow.set(g, (tally = { bytes: 0, stores: [] }))
    tally.bytes += retainedSizes[o]
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
    const resources = resourcesOf(last, tally.stores)
    const resourceClasses = classCounts(last, resources)
    const { location, locationShare } = creatorLocation(last, resources, cwd)
    const resourceText = `${resourceClasses.length === 0 ? 'async' : resourceClasses.map((c) => c.name).join(', ')} resources`
    const holder = holderName(row.path)
    const keptBy = holder === null ? `${row.owner.name} @${row.owner.id}` : `${holder} (${row.owner.name})`

    const facts = [
      { weight: 0.1 * share, reason: `the stores retain ${percent(share)} of the growth row's new objects` },
      { weight: 0, reason: `each is held through ${STORE_EDGE_NAMES[1]}: an async resource created in its context keeps it` }
    ]
    if (location !== null) facts.push({ weight: 0.05 * locationShare, reason: `${percent(locationShare)} of the resources come from code at ${location.file}:${location.line}` })
    else facts.push({ weight: 0, reason: 'the heap does not name the code that created the resources' })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: `AsyncLocalStorage stores (${storeClasses[0] ?? 'Object'}) stay alive through ${resourceText} created in their context and kept by ${keptBy}: ${counts.map((c) => countText(c)).join(' → ')} stores.`,
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
          locationRole: location === null ? null : 'creates the resources that keep them',
          notes: notesOf([
            `${countText(newStores)} new stores (${storeClasses.join(', ')}), ~${bytesText(tally.bytes / newStores)} each`,
            resourceClasses.length > 0 && `kept by ${namedCounts(resourceClasses)} through Symbol(kResourceStore)`
          ])
        },
        location,
        fix: {
          summary: "do not start long-lived work inside the request's context: run it outside (als.exit() or a function bound with AsyncResource.bind() at start-up) or end it with the request; keep stores small (ids, not req/res).",
          snippet: '// at start-up, outside any request:\nconst inBackground = AsyncResource.bind((task) => task())\n// in the handler (or als.exit(() => flushLater(id))):\ninBackground(() => flushLater(id))'
        }
      }
    })
  }
  return matches
}

/**
 * Flags, by ordinal, the objects that some async resource holds as its store; null when the
 * snapshot has no store edge at all (no AsyncLocalStorage in use).
 * @param {HeapAnalysis} analysis
 * @returns {Uint8Array | null}
 */
function storeFlags (analysis) {
  const { graph } = analysis
  const names = STORE_EDGE_NAMES.map((name) => graph.strings.indexOf(name)).filter((index) => index >= 0)
  if (names.length === 0) return null
  const { firstEdge, edgeTypes, edgeNames, edgeTargets, nodeTypes } = graph
  const property = graph.edgeType.property
  const object = graph.nodeType.object
  const flags = new Uint8Array(graph.nodeCount)
  const edgeCount = firstEdge[graph.nodeCount]
  for (let e = 0; e < edgeCount; e++) {
    if (edgeTypes[e] !== property || !names.includes(edgeNames[e])) continue
    const target = edgeTargets[e]
    if (nodeTypes[target] === object) flags[target] = 1
  }
  return flags
}

/**
 * Stores held by resources the owners keep alive in one snapshot, and the bytes they retain. A
 * store is counted by its resources rather than by its dominator: the store of a request still in
 * flight is also reachable from elsewhere.
 * @param {HeapAnalysis} analysis
 * @param {number[]} ownerIds
 */
function countStores (analysis, ownerIds) {
  const { graph } = analysis
  const names = STORE_EDGE_NAMES.map((name) => graph.strings.indexOf(name)).filter((index) => index >= 0)
  const present = ownerIds.map((id) => graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (names.length === 0 || present.length === 0) return { stores: 0, bytes: 0 }
  const inside = markDominatedBy(analysis, present)
  const counted = new Uint8Array(graph.nodeCount)
  const { firstEdge, edgeTypes, edgeNames, edgeTargets, nodeTypes } = graph
  let stores = 0
  let bytes = 0
  for (let o = 0; o < graph.nodeCount; o++) {
    if (inside[o] !== DOMINATED) continue
    for (let e = firstEdge[o], end = firstEdge[o + 1]; e < end; e++) {
      const target = edgeTargets[e]
      if (edgeTypes[e] !== graph.edgeType.property || !names.includes(edgeNames[e]) || counted[target] === 1 || nodeTypes[target] !== graph.nodeType.object) continue
      counted[target] = 1
      stores++
      bytes += analysis.retainedSizes[target]
    }
  }
  return { stores, bytes }
}

/**
 * The async resources that hold the stores (the sources of their store edges), sampled.
 * @param {HeapAnalysis} analysis
 * @param {number[]} stores
 * @returns {number[]}
 */
function resourcesOf (analysis, stores) {
  const { graph } = analysis
  const names = STORE_EDGE_NAMES.map((name) => graph.strings.indexOf(name)).filter((index) => index >= 0)
  /** @type {number[]} */
  const resources = []
  for (const store of stores) {
    for (let slot = graph.firstRetainer[store], end = graph.firstRetainer[store + 1]; slot < end; slot++) {
      const e = graph.retainerEdges[slot]
      if (graph.edgeTypes[e] === graph.edgeType.property && names.includes(graph.edgeNames[e])) resources.push(graph.edgeSource(e))
    }
    if (resources.length >= MAX_RESOURCES) break
  }
  return resources
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number[]} ordinals
 * @returns {Array<{name: string, count: number}>} the three most common classes
 */
function classCounts (analysis, ordinals) {
  /** @type {Map<string, number>} */
  const counts = new Map()
  for (const o of ordinals) {
    const name = analysis.classes.names[analysis.classOf[o]]
    counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, count]) => ({ name, count }))
}

/**
 * The program location most resources trace back to, with its share of the located ones.
 * @param {HeapAnalysis} analysis
 * @param {number[]} resources
 * @param {string} cwd
 * @returns {{location: SourceLocation | null, locationShare: number}}
 */
function creatorLocation (analysis, resources, cwd) {
  const best = mostCommonLocation(function * () {
    for (const resource of resources) {
      const location = resourceLocation(analysis, resource, cwd)
      if (location !== null) yield { location, count: 1 }
    }
  }())
  return best === null ? { location: null, locationShare: 0 } : { location: best.location, locationShare: best.count / best.total }
}

/**
 * The program code behind one resource, when the heap knows it: a timer's callback; for a promise,
 * the async function that awaits it or created it (its suspended generator object names it), or a
 * program handler of the reaction that holds it.
 * @param {HeapAnalysis} analysis
 * @param {number} resource
 * @param {string} cwd
 * @returns {SourceLocation | null}
 */
function resourceLocation (analysis, resource, cwd) {
  const { graph } = analysis
  const callbackName = TIMER_CALLBACKS.get(analysis.classes.names[analysis.classOf[resource]])
  if (callbackName !== undefined) {
    const callback = propertyTarget(graph, resource, callbackName)
    const location = callback >= 0 && graph.nodeTypes[callback] === graph.nodeType.closure ? sourceLocation(analysis, unwrapBound(graph, callback), cwd) : null
    if (isProgramLocation(location)) return location
  }
  for (let slot = graph.firstRetainer[resource], end = Math.min(graph.firstRetainer[resource + 1], graph.firstRetainer[resource] + MAX_HOLDERS); slot < end; slot++) {
    const holder = graph.retainerSource(slot)
    const own = functionOf(analysis, holder, cwd)
    if (own !== null) return own
    // A reaction holds the promise it settles next to its handlers.
    for (let e = graph.firstEdge[holder], edgeEnd = graph.firstEdge[holder + 1]; e < edgeEnd; e++) {
      const target = graph.edgeTargets[e]
      if (graph.nodeTypes[target] !== graph.nodeType.closure) continue
      const fn = unwrapBound(graph, target)
      const location = sourceLocation(analysis, fn, cwd)
      if (isProgramLocation(location)) return location
      const context = propertyTarget(graph, fn, 'context')
      const inContext = context < 0 ? null : suspendedFunctionIn(analysis, context, cwd)
      if (inContext !== null) return inContext
    }
  }
  return null
}

/**
 * The program function a suspended async function or generator object runs, or null.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {string} cwd
 */
function functionOf (analysis, o, cwd) {
  const { graph } = analysis
  if (graph.nodeTypes[o] !== graph.nodeType.object) return null
  const fn = propertyTarget(graph, o, 'function')
  if (fn < 0 || graph.nodeTypes[fn] !== graph.nodeType.closure) return null
  const location = sourceLocation(analysis, fn, cwd)
  return isProgramLocation(location) ? location : null
}

/**
 * The suspended async function a built-in `await` handler's scope holds, located; or null.
 * @param {HeapAnalysis} analysis
 * @param {number} context
 * @param {string} cwd
 */
function suspendedFunctionIn (analysis, context, cwd) {
  const { graph } = analysis
  for (let e = graph.firstEdge[context], end = graph.firstEdge[context + 1]; e < end; e++) {
    const location = functionOf(analysis, graph.edgeTargets[e], cwd)
    if (location !== null) return location
  }
  return null
}
