// closure-retention: closures keep growing data alive through the variables they capture. Two
// shapes:
//   - many closures of one function, each capturing per-request objects, held by one long-lived
//     owner (a callback list, a map of thunks): the owner's growth is mostly what the closures'
//     scopes (Contexts) hold;
//   - one long-lived scope whose variable is reassigned to ever bigger values (`log = log.concat(x)`,
//     `last = { prev: last, ... }`): the growth owner is the Context itself.
// The first shape is also a growing collection; it is claimed here (before unbounded-collection and
// growing-array) only when the closures' captured variables hold most of the row's growth, because
// then what the closure captures is the fix, not only the list's bound; and only when the closures'
// code is the program's: what a package's closure captures (a child logger's metadata, a wrapper's
// handler) is not the program's to change, so the collection that keeps adding them is the leak,
// and its matcher's finding (collections/package-closures.js). The words are in
// closures/closure-words.js.

import { AGE_OLD } from '../query/ages.js'
import { DOMINATED, dominatedNodes, heldThroughNew, markDominatedBy } from '../query/dominator-subtree.js'
import { isProgramLocation } from './program-location.js'
import { EdgeCursor, propertyTarget, references, retainers } from '../query/references.js'
import { shownEdgeName } from '../analysis/shown-names.js'
import { holderName } from './collection-growth.js'
import { growsEveryStep, judgeGrowth, perStepOf } from './growth-evidence.js'
import { CLOSURE_REASONS, closuresFix, closuresNotes, closuresTitle, scopeFix, scopeNotes, scopeTitle } from './closures/closure-words.js'
import { holderLocation } from './holder-location.js'
import { packageOf } from './library-handle.js'
import { sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {DiffDetail} from '../diff/diff-heaps.js' */
/** @import {Finding, Match, Signature, SignatureInput} from './finding.js' */
/** @import {RowOfOwner} from '../query/owner-rows.js' */

export const ID = 'closure-retention'

/** @type {Signature} */
export const closureRetention = { id: ID, match: matchClosureRetention }

/** Fewer new closures of one function than this is too little to call a leak. */
const MIN_NEW_CLOSURES = 20
/** The closures of one function must retain at least this share of the row's growth ... */
const MIN_ROW_SHARE = 0.5
/** ... and their captured variables at least this share of what the closures retain. */
const MIN_CAPTURED_SHARE = 0.5
const CONTEXT_CLASS = 'system / Context'
const TOP_VARIABLES = 4

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchClosureRetention (input) {
  const { result, detail } = input
  const last = detail.analyses[detail.analyses.length - 1]
  const { graph } = last
  /** @type {number[]} */
  const scopeRows = []
  /** @type {number[]} */
  const listRows = []
  for (const g of input.candidates) {
    if (!result.growth[g].leak) continue
    const representative = graph.findOrdinalById(result.growth[g].owner.id)
    if (representative < 0) continue
    if (graph.nodeName(representative) === CONTEXT_CLASS) scopeRows.push(g)
    else listRows.push(g)
  }
  /** @type {Match[]} */
  const matches = []
  for (const g of scopeRows) {
    const finding = growingScope(input, g, graph.findOrdinalById(result.growth[g].owner.id))
    if (finding !== null) matches.push({ group: g, finding })
  }
  if (listRows.length > 0) {
    const rowOfOwner = detail.ownerRows.only(listRows)
    const closuresByRow = newClosuresByRow(last, detail, rowOfOwner)
    for (const g of listRows) {
      const byFunction = closuresByRow.get(g)
      const finding = byFunction === undefined ? null : closuresOfOneFunction(input, g, byFunction)
      if (finding !== null) matches.push({ group: g, finding })
    }
  }
  return matches.sort((a, b) => a.group - b.group)
}

/**
 * The new closures each row holds directly (no other new closure between them and the row's
 * owner), grouped by function (SharedFunctionInfo ordinal). One pass over the heap for all rows.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {DiffDetail} detail
 * @param {RowOfOwner} rowOfOwner
 * @returns {Map<number, Map<number, number[]>>}
 */
function newClosuresByRow (analysis, detail, rowOfOwner) {
  const { graph } = analysis
  const { ages, noise, owners } = detail
  /** @type {Map<number, Map<number, number[]>>} */
  const byRow = new Map()
  const closureType = graph.nodeType.closure
  const heldThroughClosure = heldThroughNew(analysis, rowOfOwner, ages, isClosure)
  for (const o of detail.newNodes) {
    if (graph.nodeTypes[o] !== closureType || noise[o] === 1) continue
    const g = rowOfOwner.rowOf(owners[o])
    if (g < 0 || heldThroughClosure(o, g)) continue
    const shared = propertyTarget(graph, o, 'shared')
    if (shared < 0) continue
    let byFunction = byRow.get(g)
    if (!byFunction) byRow.set(g, (byFunction = new Map()))
    let list = byFunction.get(shared)
    if (!list) byFunction.set(shared, (list = []))
    list.push(o)
  }
  return byRow
}

/**
 * The many-closures shape: the new closures held by the row's owners, grouped by function.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {Map<number, number[]>} byFunction the row's outermost new closures by SharedFunctionInfo
 * @returns {Finding | null}
 */
function closuresOfOneFunction (input, g, byFunction) {
  const { result, detail, cwd } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph, dominators, retainedSizes } = last
  const n = graph.nodeCount
  const row = result.growth[g]

  // The function whose closures retain the most, with their scopes counted once each.
  const seenContext = new Uint8Array(n)
  let best = -1
  let bestBytes = 0
  let allBytes = 0
  for (const [shared, closures] of byFunction) {
    let bytes = 0
    for (const c of closures) {
      bytes += retainedSizes.at(c)
      const context = propertyTarget(graph, c, 'context')
      if (context >= 0 && ages[context] !== AGE_OLD && dominators[context] !== c && seenContext[context] === 0) {
        seenContext[context] = 1
        bytes += retainedSizes.at(context)
      }
    }
    allBytes += bytes
    if (bytes > bestBytes) [best, bestBytes] = [shared, bytes]
  }
  const closures = /** @type {number[]} */ (byFunction.get(best))
  if (closures.length < MIN_NEW_CLOSURES) return null
  const rowGrowth = row.leakedBytes + row.recentBytes
  const rowShare = rowGrowth > 0 ? Math.min(1, bestBytes / rowGrowth) : 0
  const { variables, capturedBytes, functionsOnly } = capturedVariables(last, closures, ages, input.names)
  const capturedShare = Math.min(1, capturedBytes / bestBytes)
  if (rowShare < MIN_ROW_SHARE || capturedShare < MIN_CAPTURED_SHARE || variables.length === 0) return null
  // Callbacks that capture only other functions (a promise's resolve, a done callback) keep what
  // those functions keep: there is nothing smaller to copy, and the list that keeps the callbacks
  // is the leak (the collection matchers').
  if (functionsOnly) return null
  // Built-in closures (a promise's resolve functions, bound wrappers) keep engine slots, not
  // variables a program chose to capture, and a package's closures capture what the package chose:
  // their own signatures or the collection ones explain them.
  const location = sourceLocation(last, closures[0], cwd, input.names)
  if (!isProgramLocation(location) || packageOf(location.file) !== null) return null

  // Closures of this function under the row's owners in every snapshot (found by id).
  const sharedId = graph.nodeIds[best]
  const ownerIds = detail.groupOwners[g].map((o) => graph.nodeIds[o])
  const counts = analyses.map((analysis) => countClosures(analysis, sharedId, ownerIds))
  if (!growsEveryStep(counts)) return null
  const retained = analyses.length === 3
    ? [row.retainedBefore, /** @type {number} */ (row.retainedMiddle), row.retainedAfter]
    : [row.retainedBefore, row.retainedAfter]

  const names = variables.map((v) => v.name)
  const { confidence, reasons } = judgeGrowth(counts, [
    { weight: 0.1 * rowShare, reason: CLOSURE_REASONS.rowShare(rowShare) },
    { weight: 0.08 * capturedShare, reason: CLOSURE_REASONS.captured(capturedShare, names) },
    { weight: 0.04 * (bestBytes / allBytes), reason: CLOSURE_REASONS.oneFunction(bestBytes / allBytes) }
  ])
  const holder = holderName(row.path)
  return {
    signature: ID,
    title: closuresTitle(location, names, holder === null ? row.owner.name : `${holder} (${row.owner.name})`, counts),
    confidence,
    reasons,
    owner: row.owner,
    path: row.path,
    evidence: {
      unit: 'closures',
      counts,
      retained,
      perStep: perStepOf(counts),
      ownerCount: row.ownerCount,
      bytesPerClosure: Math.round(bestBytes / closures.length),
      capturedVariables: variables,
      rowShare,
      notes: closuresNotes(variables, bestBytes / closures.length)
    },
    location,
    fix: closuresFix(names)
  }
}

/**
 * The growing-scope shape: the row's owner is a Context whose variables point to new objects.
 * @param {SignatureInput} input
 * @param {number} g
 * @param {number} context
 * @returns {Finding | null}
 */
function growingScope (input, g, context) {
  const { result, detail, cwd } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph, retainedSizes } = last
  const row = result.growth[g]
  /** @type {Array<{name: string, bytes: number}>} */
  const variables = []
  for (const edge = references(graph, context); edge.next();) {
    if (!edge.is('context') || ages[edge.target] === AGE_OLD) continue
    variables.push({ name: shownEdgeName(last, edge.number, input.names), bytes: retainedSizes.at(edge.target) })
  }
  if (variables.length === 0) return null
  variables.sort((a, b) => b.bytes - a.bytes)
  const top = variables.slice(0, TOP_VARIABLES)
  const rowGrowth = row.leakedBytes + row.recentBytes
  const share = rowGrowth > 0 ? Math.min(1, top.reduce((sum, v) => sum + v.bytes, 0) / rowGrowth) : 0
  if (share < MIN_ROW_SHARE) return null

  const id = graph.nodeIds[context]
  const counts = analyses.map((analysis) => {
    const o = analysis.graph.findOrdinalById(id)
    if (o < 0) return 0
    let count = 0
    for (const i of dominatedNodes(analysis, [o]).nodes) if (i !== o && analysis.shallowSizes.at(i) > 0) count++
    return count
  })
  if (!growsEveryStep(counts)) return null
  const retained = analyses.length === 3
    ? [row.retainedBefore, /** @type {number} */ (row.retainedMiddle), row.retainedAfter]
    : [row.retainedBefore, row.retainedAfter]
  const holder = holderLocation(last, [...row.path, { edge: '', edgeType: 'context', node: '', nodeType: '', id: 0 }], cwd, input.names)
  const location = holder?.location ?? sourceLocation(last, context, cwd, input.names)
  const names = top.map((v) => v.name)
  const { confidence, reasons } = judgeGrowth(counts, [
    { weight: 0.1 * share, reason: CLOSURE_REASONS.scopeVariables(share, names) },
    { weight: 0, reason: CLOSURE_REASONS.oneScope }
  ])
  return {
    signature: ID,
    title: scopeTitle(location, names, counts),
    confidence,
    reasons,
    owner: row.owner,
    path: row.path,
    evidence: {
      unit: 'objects',
      counts,
      retained,
      perStep: perStepOf(counts),
      ownerCount: row.ownerCount,
      capturedVariables: top,
      rowShare: share,
      notes: scopeNotes(top)
    },
    location,
    fix: scopeFix(names)
  }
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} o
 */
function isClosure (analysis, o) {
  return analysis.graph.nodeTypes[o] === analysis.graph.nodeType.closure
}

/**
 * The captured variables of the closures' own (new) scopes, with the bytes each keeps alive alone,
 * and everything those scopes keep alive (objects reached from two variables, such as the socket
 * both `req` and `res` point to, count there but under no single variable).
 * @param {HeapAnalysis} analysis
 * @param {number[]} closures
 * @param {Uint8Array} ages
 * @param {NameResolver} names
 * @returns {{variables: Array<{name: string, bytes: number}>, capturedBytes: number, functionsOnly: boolean}}
 *   functionsOnly: every captured variable that keeps something is a function
 */
function capturedVariables (analysis, closures, ages, names) {
  const { graph, dominators, retainedSizes, shallowSizes } = analysis
  /** @type {Map<string, number>} */
  const bytes = new Map()
  const seen = new Uint8Array(graph.nodeCount)
  let capturedBytes = 0
  let functionsOnly = true
  const edge = new EdgeCursor(graph)
  for (const c of closures) {
    const context = propertyTarget(graph, c, 'context')
    if (context < 0 || ages[context] === AGE_OLD || seen[context] === 1) continue
    seen[context] = 1
    capturedBytes += retainedSizes.at(context) - shallowSizes.at(context)
    for (edge.references(context); edge.next();) {
      const target = edge.target
      if (!edge.is('context') || dominators[target] !== context) continue
      const name = shownEdgeName(analysis, edge.number, names)
      bytes.set(name, (bytes.get(name) ?? 0) + retainedSizes.at(target))
      if (retainedSizes.at(target) > 0 && graph.nodeTypes[target] !== graph.nodeType.closure) functionsOnly = false
    }
  }
  const variables = [...bytes].filter(([, total]) => total > 0).sort((a, b) => b[1] - a[1]).slice(0, TOP_VARIABLES).map(([name, total]) => ({ name, bytes: total }))
  return { variables, capturedBytes, functionsOnly }
}

/**
 * Closures of the function with SharedFunctionInfo id `sharedId` that the owners keep alive.
 * @param {HeapAnalysis} analysis
 * @param {number} sharedId
 * @param {number[]} ownerIds
 */
function countClosures (analysis, sharedId, ownerIds) {
  const { graph } = analysis
  const shared = graph.findOrdinalById(sharedId)
  if (shared < 0) return 0
  const present = ownerIds.map((id) => graph.findOrdinalById(id)).filter((o) => o >= 0)
  if (present.length === 0) return 0
  const inside = markDominatedBy(analysis, present)
  let count = 0
  // A function's closures all point at its SharedFunctionInfo: walk its retainers only.
  for (const edge = retainers(graph, shared); edge.next();) {
    const source = edge.source
    if (graph.nodeTypes[source] === graph.nodeType.closure && inside[source] === DOMINATED && edge.is('internal', 'shared')) count++
  }
  return count
}
