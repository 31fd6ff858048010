// async-context-retention: AsyncLocalStorage stores kept alive by long-lived async resources. A
// resource that outlives its request (a task waiting on a shutdown signal, a poller, a pooled
// connection) keeps the store it was created under, and everything in it, alive. Node lays this
// out in one of two ways:
//
//   async_hooks (Node 20, 22):  resource --<symbol kResourceStore>--> store
//   AsyncContextFrame (Node 24): resource --> frame (a Map) --table--> [AsyncLocalStorage, store]
//
// In the first, every async resource created inside `als.run(store, ...)` (a promise, a Timeout, a
// socket's handle) gets the store as a property. In the second, `als.run()` makes a frame, a Map
// from each AsyncLocalStorage to its store, and V8 keeps the current frame on what continues later
// (a promise reaction's slot, a Timeout's `Symbol(kAsyncContextFrame)`). A frame is recognised by
// its shape, a Map whose keys are AsyncLocalStorage objects. The row's new objects must be mostly
// stores reached in one of these ways.

import { AGE_OLD } from '../query/ages.js'
import { DOMINATED, markDominatedBy, rowsOfOwners } from '../query/dominator-subtree.js'
import { commonClasses } from '../query/held-objects.js'
import { collectionOfStore, forEachEntry } from '../query/collection-entries.js'
import { isProgramLocation, mostCommonLocation } from './program-location.js'
import { EdgeCursor, findReference, forEachReferenceNamed, propertyTarget, reference, references, retainers } from '../query/references.js'
import { unwrapBound } from '../query/heap-values.js'
import { holderName } from './collection-growth.js'
import { bytesText, countText, namedCounts, notesOf } from './evidence-notes.js'
import { growsEveryStep, judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */

export const ID = 'async-context-retention'

/** @type {Signature} */
export const asyncContextRetention = { id: ID, match: matchAsyncContextRetention }

/** How snapshots name the property that holds a resource's store. */
const STORE_EDGE_NAMES = ['<symbol kResourceStore>', 'Symbol(kResourceStore)']
/** The class of the keys of an AsyncContextFrame. */
const STORAGE_CLASS = 'AsyncLocalStorage'
/** Node flags: a store, and a frame of AsyncLocalStorage -> store (storeFlags). */
const STORE = 1
const FRAME = 2
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
  const { result, detail, cwd, names } = input
  const { analyses, ages, noise, owners } = detail
  const last = analyses[analyses.length - 1]
  const { graph, retainedSizes } = last
  const flags = storeFlags(last)
  if (flags === null) return []
  const rows = input.candidates.filter((g) => result.growth[g].leak)
  const rowOfOwner = rowsOfOwners(graph.nodeCount, detail.groupOwners, rows)
  /** @type {Map<number, {bytes: number, stores: number[]}>} new stores per row */
  const byRow = new Map()
  for (let o = 0; o < graph.nodeCount; o++) {
    if ((flags[o] & STORE) === 0 || ages[o] === AGE_OLD || noise[o] === 1) continue
    const g = rowOfOwner[owners[o]]
    if (g < 0) continue
    let tally = byRow.get(g)
    if (!tally) byRow.set(g, (tally = { bytes: 0, stores: [] }))
    tally.bytes += retainedSizes.at(o)
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
    const { resources, throughFrames } = resourcesOf(last, tally.stores, flags)
    const resourceClasses = classCounts(last, resources)
    const through = throughFrames ? 'their AsyncContextFrame' : STORE_EDGE_NAMES[1]
    const { location, locationShare } = creatorLocation(last, resources, cwd, names)
    const resourceText = `${resourceClasses.length === 0 ? 'async' : resourceClasses.map((c) => c.name).join(', ')} resources`
    const holder = holderName(row.path)
    const keptBy = holder === null ? `${row.owner.name} @${row.owner.id}` : `${holder} (${row.owner.name})`

    const facts = [
      { weight: 0.1 * share, reason: `the stores retain ${percent(share)} of the growth row's new objects` },
      { weight: 0, reason: `each is held through ${through}: an async resource created in its context keeps it` }
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
            resourceClasses.length > 0 && `kept by ${namedCounts(resourceClasses)} through ${through}`
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
 * Flags, by ordinal, the objects that some async resource holds as its store (STORE) and the
 * AsyncContextFrames (FRAME); null when the snapshot has neither (no AsyncLocalStorage in use).
 * @param {HeapAnalysis} analysis
 * @returns {Uint8Array | null}
 */
function storeFlags (analysis) {
  const { graph } = analysis
  const storage = graph.strings.indexOf(STORAGE_CLASS)
  const { nodeTypes, nodeNames } = graph
  const object = graph.nodeType.object
  const flags = new Uint8Array(graph.nodeCount)
  let found = false
  forEachReferenceNamed(graph, STORE_EDGE_NAMES, 'property', (source, store) => {
    if (nodeTypes[source] !== object) return
    if (nodeTypes[store] === object) flags[store] |= STORE
    found = true
  })
  if (storage >= 0) {
    // A table with an AsyncLocalStorage among its slots: a cheap test before isFrame reads the
    // entries of every Map.
    const isStorage = (/** @type {EdgeCursor} */ slot) => nodeNames[slot.target] === storage
    for (let map = 0; map < graph.nodeCount; map++) {
      if (nodeTypes[map] !== object) continue
      const table = reference(graph, map, 'table', 'internal')
      if (table < 0 || findReference(graph, table, isStorage) < 0 || !isFrame(graph, map, storage)) continue
      flags[map] |= FRAME
      found = true
      forEachEntry(graph, map, 'Map', (key, value) => {
        if (value >= 0 && nodeTypes[value] === object && key >= 0 && nodeNames[key] === storage) flags[value] |= STORE
      })
    }
  }
  return found ? flags : null
}

/**
 * Whether a Map-like object is an AsyncContextFrame: it has entries, and every key with an edge
 * is an AsyncLocalStorage.
 * @param {import('../graph/heap-graph.js').HeapGraph} graph
 * @param {number} o
 * @param {number} storage string index of the AsyncLocalStorage class name
 */
function isFrame (graph, o, storage) {
  let keys = 0
  let others = 0
  forEachEntry(graph, o, 'Map', (key) => {
    if (key < 0) return
    if (graph.nodeNames[key] === storage && graph.nodeTypes[key] === graph.nodeType.object) keys++
    else others++
  })
  return keys > 0 && others === 0
}

/**
 * String indexes of the names the store property has in this snapshot.
 * @param {import('../graph/heap-graph.js').HeapGraph} graph
 */
function storeEdgeNames (graph) {
  return STORE_EDGE_NAMES.map((name) => graph.strings.indexOf(name)).filter((index) => index >= 0)
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
  const flags = storeFlags(analysis)
  const present = ownerIds.map((id) => graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (flags === null || present.length === 0) return { stores: 0, bytes: 0 }
  const names = storeEdgeNames(graph)
  const inside = markDominatedBy(analysis, present)
  const counted = new Uint8Array(graph.nodeCount)
  const edge = new EdgeCursor(graph)
  let stores = 0
  let bytes = 0
  /** @param {number} store */
  const count = (store) => {
    if (counted[store] === 1 || (flags[store] & STORE) === 0) return
    counted[store] = 1
    stores++
    bytes += analysis.retainedSizes.at(store)
  }
  /** @type {(key: number, value: number) => void} */
  const countValue = (_, value) => { if (value >= 0) count(value) }
  for (let o = 0; o < graph.nodeCount; o++) {
    if (inside[o] !== DOMINATED) continue
    for (edge.references(o); edge.next();) {
      const target = edge.target
      if (edge.is('property') && names.includes(edge.nameIndex)) count(target)
      else if ((flags[target] & FRAME) !== 0 && !edge.is('weak')) forEachEntry(graph, target, 'Map', countValue)
    }
  }
  return { stores, bytes }
}

/**
 * The async resources that hold the stores (the sources of their store edges, or what holds the
 * frames they are in), sampled.
 * @param {HeapAnalysis} analysis
 * @param {number[]} stores
 * @param {Uint8Array} flags as storeFlags gives them
 * @returns {{resources: number[], throughFrames: boolean}} throughFrames: most were reached through frames
 */
function resourcesOf (analysis, stores, flags) {
  const { graph } = analysis
  const names = storeEdgeNames(graph)
  /** @type {number[]} */
  const resources = []
  let direct = 0
  let framed = 0
  const edge = new EdgeCursor(graph)
  const holder = new EdgeCursor(graph)
  for (const store of stores) {
    for (edge.retainers(store); edge.next();) {
      if (edge.is('property') && names.includes(edge.nameIndex)) {
        resources.push(edge.source)
        direct++
        continue
      }
      const frame = collectionOfStore(graph, edge.source)
      if (frame === edge.source || (flags[frame] & FRAME) === 0) continue
      framed++
      for (holder.retainers(frame); holder.next();) if (!holder.is('weak')) resources.push(holder.source)
    }
    if (resources.length >= MAX_RESOURCES) break
  }
  return { resources, throughFrames: framed > direct }
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number[]} ordinals
 * @returns {Array<{name: string, count: number}>} the three most common classes
 */
function classCounts (analysis, ordinals) {
  /** @type {Map<string, number>} */
  const counts = new Map()
  const { graph } = analysis
  for (const o of ordinals) {
    // Engine objects (a promise reaction) share the class `(system)`: their own name says more.
    const name = graph.nodeTypes[o] === graph.nodeType.hidden ? graph.nodeName(o).replace(/^system \/ /, '') : analysis.classes.names[analysis.classOf[o]]
    counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, count]) => ({ name, count }))
}

/**
 * The program location most resources trace back to, with its share of the located ones.
 * @param {HeapAnalysis} analysis
 * @param {number[]} resources
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, locationShare: number}}
 */
function creatorLocation (analysis, resources, cwd, names) {
  const best = mostCommonLocation(function * () {
    for (const resource of resources) {
      const location = resourceLocation(analysis, resource, cwd, names)
      if (location !== null) yield { location, count: 1 }
    }
  }())
  return best === null ? { location: null, locationShare: 0 } : { location: best.location, locationShare: best.count / best.total }
}

/**
 * The program code behind one resource, when the heap knows it: a timer's callback; for a promise,
 * the async function that awaits it or created it (its suspended generator object names it), or a
 * program handler of the reaction that holds it; for a reaction, its own handlers.
 * @param {HeapAnalysis} analysis
 * @param {number} resource
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {SourceLocation | null}
 */
function resourceLocation (analysis, resource, cwd, names) {
  const { graph } = analysis
  const callbackName = TIMER_CALLBACKS.get(analysis.classes.names[analysis.classOf[resource]])
  if (callbackName !== undefined) {
    const callback = propertyTarget(graph, resource, callbackName)
    const location = callback >= 0 && graph.nodeTypes[callback] === graph.nodeType.closure ? sourceLocation(analysis, unwrapBound(graph, callback), cwd, names) : null
    if (isProgramLocation(location)) return location
  }
  const holders = [resource]
  for (const edge = retainers(graph, resource); holders.length <= MAX_HOLDERS && edge.next();) holders.push(edge.source)
  for (const holder of holders) {
    const own = holder === resource ? null : functionOf(analysis, holder, cwd, names)
    if (own !== null) return own
    // A reaction holds the promise it settles next to its handlers.
    for (const edge = references(graph, holder); edge.next();) {
      const target = edge.target
      if (graph.nodeTypes[target] !== graph.nodeType.closure) continue
      const fn = unwrapBound(graph, target)
      const location = sourceLocation(analysis, fn, cwd, names)
      if (isProgramLocation(location)) return location
      const context = propertyTarget(graph, fn, 'context')
      const inContext = context < 0 ? null : suspendedFunctionIn(analysis, context, cwd, names)
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
 * @param {NameResolver} names
 */
function functionOf (analysis, o, cwd, names) {
  const { graph } = analysis
  if (graph.nodeTypes[o] !== graph.nodeType.object) return null
  const fn = propertyTarget(graph, o, 'function')
  if (fn < 0 || graph.nodeTypes[fn] !== graph.nodeType.closure) return null
  const location = sourceLocation(analysis, fn, cwd, names)
  return isProgramLocation(location) ? location : null
}

/**
 * The suspended async function a built-in `await` handler's scope holds, located; or null.
 * @param {HeapAnalysis} analysis
 * @param {number} context
 * @param {string} cwd
 * @param {NameResolver} names
 */
function suspendedFunctionIn (analysis, context, cwd, names) {
  const { graph } = analysis
  for (const edge = references(graph, context); edge.next();) {
    const location = functionOf(analysis, edge.target, cwd, names)
    if (location !== null) return location
  }
  return null
}
