// growing-queue: a queue kept as a linked list (async.queue's, fastq's, a hand-written one) that
// only grows: its worker never finishes some tasks (a callback it never calls, a reply that never
// comes) or finishes them more slowly than they are pushed. Recognised by shape, not by library:
// objects of one class linked by `next`, started from an old holder (a list object's `head`, a
// `queueHead` in a closure's scope), counted in every snapshot from that holder. Runs last: timer
// lists, listener lists and promise reactions are linked too, and their own signatures know them.
// How lists are read is in query/linked-lists.js, the words in queues/queue-words.js.

import { shownClassName } from '../analysis/shown-names.js'
import { AGE_OLD } from '../query/ages.js'
import { commonClasses } from '../query/held-objects.js'
import { isLinkStep, listLengthById, longestListOf, nextInList, walkList } from '../query/linked-lists.js'
import { reference } from '../query/references.js'
import { holderName } from './collection-growth.js'
import { evidenceOf, growsEveryStep, judgeGrowth, retainedById } from './growth-evidence.js'
import { holderLocation } from './holder-location.js'
import { libraryAncestor, libraryHandle, packageOf } from './library-handle.js'
import { dominantLocation } from './middleware/handler-records.js'
import { ID, QUEUE_REASONS, queueFix, queueNotes, queueTitle } from './queues/queue-words.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {EdgeTypeName, HeapGraph} from '../graph/heap-graph.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {GrowthGroup} from '../diff/growth-groups.js' */
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export { ID }

/** @type {Signature} */
export const growingQueue = { id: ID, match: matchGrowingQueue }

/** Fewer new nodes than this is too little to call a queue growing. */
const MIN_NEW_NODES = 10
/** New nodes read for what they hold. */
const MAX_SAMPLES = 10_000
/** Where a queue's node keeps its task, and the callback that says it is done. */
const VALUE_NAMES = ['value', 'data', 'task', 'item', 'val', 'payload']
const CALLBACK_NAMES = ['callback', 'cb', 'done']

/**
 * @typedef {object} RowList
 * @property {number} holderId   the old object whose reference starts the list, by V8 id
 * @property {{name: string, type: EdgeTypeName}} head  that reference
 * @property {number} start      the first node (last snapshot)
 * @property {string} name       the list as the card names it
 * @property {Step[]} path       the row's path, down to the list's first node or its holder
 */

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchGrowingQueue (input) {
  const { result, detail, cwd, names } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const row = result.growth[g]
    if (!row.leak) continue
    const list = listOfRow(last, row)
    if (list === null) continue
    const counts = analyses.map((analysis) => listLengthById(analysis.graph, list.holderId, list.head))
    const added = counts[counts.length - 1] - counts[0]
    if (!growsEveryStep(counts) || added < MIN_NEW_NODES) continue
    /** @type {number[]} */
    const values = []
    /** @type {number[]} */
    const callbacks = []
    let fresh = 0
    walkList(graph, list.start, (o) => {
      if (ages[o] === AGE_OLD) return
      fresh++
      if (values.length >= MAX_SAMPLES) return
      const value = firstReference(graph, o, VALUE_NAMES)
      if (value >= 0) values.push(value)
      const callback = firstReference(graph, o, CALLBACK_NAMES)
      if (callback >= 0 && graph.nodeTypes[callback] === graph.nodeType.closure) callbacks.push(callback)
    })
    const freshShare = Math.min(1, fresh / added)
    const retained = retainedById(analyses, list.holderId)
    const holder = holderLocation(last, list.path, cwd, names)
    // A queue inside a library's object: where that object was made names the library, when the
    // code holding the list is not placed (a list object kept in a plain object of the library's).
    const libraryAt = holder !== null && packageOf(holder.location.file) !== null ? holder.location : libraryAncestor(last, list.path, list.path.length - 1, cwd, names)
    const handle = libraryAt === null ? null : libraryHandle(last, list.path, libraryAt, cwd, names)
    const callback = callbacks.length === 0 ? null : dominantLocation(last, callbacks, cwd, names)
    const callbackAt = callback !== null && callback.location !== null && packageOf(callback.location.file) === null && callback.fromLocation >= callbacks.length / 2 ? callback.location : null
    const nodeClass = shownClassName(last, list.start, names)
    const { confidence, reasons } = judgeGrowth(counts, [
      { weight: freshShare >= 0.8 ? 0.1 : 0, reason: QUEUE_REASONS.fresh(freshShare) },
      { weight: callbackAt === null ? 0 : 0.05, reason: QUEUE_REASONS.callback }
    ])
    const bytesPerEntry = Math.max(0, retained[retained.length - 1] - retained[0]) / added
    const valueClasses = commonClasses(last, values)
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: queueTitle(list.name, nodeClass, handle, counts),
        confidence,
        reasons,
        owner: row.owner,
        path: list.path,
        evidence: {
          ...evidenceOf('entries', counts, retained, row.ownerCount),
          nodeClass,
          bytesPerEntry: Math.round(bytesPerEntry),
          valueClasses,
          notes: queueNotes({
            bytesPerNode: bytesPerEntry,
            valueClasses,
            callback: callbackAt,
            library: handle === null ? null : handle.library
          }),
          library: handle === null ? null : handle.library,
          holderLocation: holder === null ? null : holder.location
        },
        location: callbackAt ?? handle?.location ?? holder?.location ?? null,
        fix: queueFix(handle)
      }
    })
  }
  return matches
}

/**
 * The linked list a growth row's owner belongs to: the path runs down its links to the owner (a
 * singly linked list, each node the next one's only holder), or the owner holds it (a list object
 * with a head and a tail), or the owner is its first node.
 * @param {HeapAnalysis} analysis
 * @param {GrowthGroup} row
 * @returns {RowList | null}
 */
function listOfRow (analysis, row) {
  const { graph } = analysis
  const { path } = row
  let i = path.length - 1
  // A long run of links comes with its middle elided.
  while (i > 0 && (isLinkStep(path[i]) || path[i].edgeType === 'elided')) i--
  if (i < path.length - 1 && i >= 1 && path[i].node === path[path.length - 1].node) {
    const start = graph.findOrdinalById(path[i].id)
    if (start >= 0) return { holderId: path[i - 1].id, head: { name: path[i].edge, type: edgeTypeOf(path[i]) }, start, name: path[i].edge, path: path.slice(0, i + 1) }
  }
  const owner = graph.findOrdinalById(row.owner.id)
  if (owner < 0) return null
  const own = longestListOf(graph, owner)
  if (own !== null) return { holderId: row.owner.id, head: { name: own.name, type: own.type }, start: own.start, name: holderName(path, analysis) ?? row.owner.name, path }
  const before = path[path.length - 2]
  const step = path[path.length - 1]
  if (before !== undefined && nextInList(graph, owner) >= 0) return { holderId: before.id, head: { name: step.edge, type: edgeTypeOf(step) }, start: owner, name: step.edge, path }
  return null
}

/**
 * @param {Step} step
 * @returns {EdgeTypeName}
 */
function edgeTypeOf (step) {
  return /** @type {EdgeTypeName} */ (step.edgeType)
}

/**
 * The first of `names` that `o` has as a property, or -1.
 * @param {HeapGraph} graph
 * @param {number} o
 * @param {string[]} names
 */
function firstReference (graph, o, names) {
  for (const name of names) {
    const target = reference(graph, o, name)
    if (target >= 0) return target
  }
  return -1
}
