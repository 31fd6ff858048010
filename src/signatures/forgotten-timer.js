// forgotten-timer: Timeout (and Immediate) objects that are never cleared pile up in Node's timer
// lists (`timerListMap[ms]` → TimersList ⇄ Timeout ⇄ Timeout ...), each keeping its callback and
// what the callback captures alive. Timers are found by their shape, not by a path (timers/live-
// timers.js). The list is a ring linked both ways, and Node's own timers in the same list (an
// http.Server's 30 s connection check) are held from elsewhere too, so the dominator of the timers
// is often the root (V8 11, Node 20) or the global object (V8 12 and later, Node 22, 24) rather
// than their list: the matcher counts timers per callback location in every snapshot and stands
// alone when no row holds them. Its words are in timers/timer-words.js.

import { retainerPath } from '../analysis/retainer-paths.js'
import { shownEdgeName } from '../analysis/shown-names.js'
import { AGE_OLD, AGE_RECENT } from '../query/ages.js'
import { unwrapBound, variableName } from '../query/heap-values.js'
import { EdgeCursor, propertyTarget } from '../query/references.js'
import { collectionKind, collectionOfStore } from '../query/collection-entries.js'
import { growsEveryStep, judgeGrowth, perStepOf } from './growth-evidence.js'
import { TIMER_CALLBACKS, listDuration, tallyTimers, timerList } from './timers/live-timers.js'
import { TIMER_REASONS, libraryTimerFix, timerFix, timerNotes, timerTitle } from './timers/timer-words.js'
import { libraryEntries } from './library-entries.js'
import { packageMaker } from './package-makers.js'
import { packageOf } from './library-handle.js'
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Match, Signature, SignatureInput} from './finding.js' */
/** @import {KeptHandles} from './timers/timer-words.js' */
/** @import {RowOfOwner} from '../query/owner-rows.js' */

export const ID = 'forgotten-timer'

/** @type {Signature} */
export const forgottenTimer = { id: ID, match: matchForgottenTimer }

/** Fewer new live timers than this at one location is too little to call a leak. */
const MIN_NEW_TIMERS = 20
/** The timers claim a growth row when they hold at least this share of its growth (claimedRow). */
const MIN_ROW_SHARE = 0.5
const TOP_VARIABLES = 3
/** Steps from a package's timer to the program's function it keeps: the callback, its scope or bound arguments, the package's objects in it (rxjs: an action, two subscribers, an observer, the observer's record), then the function. */
const TIMER_DEPTH = 8

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchForgottenTimer (input) {
  const { result, detail, cwd, names } = input
  const { analyses, ages, owners } = detail
  const last = analyses[analyses.length - 1]
  const tallies = analyses.map((analysis, k) => tallyTimers(analysis, cwd, names, k === analyses.length - 1))
  const latest = tallies[tallies.length - 1]
  let newTimersEverywhere = 0
  for (const tally of latest.values()) for (const o of tally.timers) if (ages[o] !== AGE_OLD) newTimersEverywhere++

  const rowOfOwner = detail.ownerRows.only(input.candidates)

  /** @type {Match[]} */
  const matches = []
  for (const [key, tally] of latest) {
    const counts = tallies.map((byKey) => byKey.get(key)?.count ?? 0)
    const newTimers = tally.timers.filter((o) => ages[o] !== AGE_OLD)
    if (!growsEveryStep(counts) || newTimers.length < MIN_NEW_TIMERS) continue
    // Timeouts shorter than a step that are all newer than the step before: each fires before the
    // next snapshot, and their count is how many start in a moment, not how many were forgotten
    // (an entry's expiry timer of 50 ms).
    if (analyses.length === 3 && tally.timers.every((o) => ages[o] === AGE_RECENT)) continue
    const retained = tallies.map((byKey) => byKey.get(key)?.retained ?? 0)

    const group = claimedRow(input, newTimers, owners, rowOfOwner, retained)
    const list = timerList(last, newTimers[newTimers.length - 1])
    const head = list >= 0 ? list : newTimers[newTimers.length - 1]
    const path = group.row >= 0 && group.row < result.growth.length && list < 0 ? result.growth[group.row].path : retainerPath(last, head, { names })
    const durationMs = list >= 0 ? listDuration(last, list) : null
    // Timers a package runs for something the program started in it: their callback is the
    // package's, and what it captures (a compiler's `_super`) is no variable of the program's.
    const library = tally.location === null ? null : packageOf(tally.location.file)
    const variables = library === null ? capturedVariables(last, tally.timers, names) : []
    const repeating = tally.intervals * 2 >= tally.count

    const callbackShare = newTimers.length / newTimersEverywhere
    const facts = [{ weight: 0.1 * callbackShare, reason: TIMER_REASONS.callback(callbackShare) }]
    if (repeating) facts.push({ weight: 0.08, reason: TIMER_REASONS.intervals(tally.intervals, tally.count) })
    else facts.push({ weight: 0, reason: TIMER_REASONS.timeouts })
    const rowOwner = group.row >= 0 ? result.growth[group.row].owner : null
    if (rowOwner !== null) facts.push({ weight: 0.05, reason: TIMER_REASONS.row(group.share, rowOwner) })
    else facts.push({ weight: 0, reason: TIMER_REASONS.noRow })
    const { confidence, reasons } = judgeGrowth(counts, facts)

    // The program may keep the handles already, in a collection it never clears them from.
    const kept = keptIn(last, newTimers)
    // Timers a package runs for something the program started in it (a scheduled task's
    // heartbeat): the program's function they keep places its call into the package.
    const started = library === null ? null : libraryEntries(last, newTimers, ages, cwd, names, TIMER_DEPTH).callback
    const maker = library === null ? null : packageMaker(last, callbacksOf(last.graph, newTimers), ages, library, cwd, names)
    matches.push({
      group: group.row,
      finding: {
        signature: ID,
        title: timerTitle(tally.fn, repeating, counts, durationMs),
        confidence,
        reasons,
        owner: { id: last.graph.nodeIds[head], name: last.classes.names[last.classOf[head]], type: last.graph.nodeTypeName(head) },
        path,
        evidence: {
          unit: 'timers',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: 1,
          intervals: tally.intervals,
          newTimers: newTimers.length,
          durationMs,
          bytesPerTimer: Math.round(tally.retained / tally.count),
          callbackVariables: variables,
          notes: timerNotes({ count: tally.count, intervals: tally.intervals, bytesEach: tally.retained / tally.count, newTimers: newTimers.length, durationMs, variables, kept, library, started, maker }),
          ...(library !== null && { library }),
          ...(maker !== null && { madeBy: { className: maker.className, from: library, method: maker.method } })
        },
        location: started ?? tally.location,
        members: newTimers,
        fix: library !== null && kept === null ? libraryTimerFix(library, started, maker) : timerFix(tally.fn, repeating, durationMs, kept)
      }
    })
  }
  return matches
}

/**
 * The growth row whose owners hold most of the new timers, when the timers explain most of its
 * growth; row -1 otherwise.
 * @param {SignatureInput} input
 * @param {number[]} newTimers
 * @param {Uint32Array} owners
 * @param {RowOfOwner} rowOfOwner
 * @param {number[]} retained
 */
function claimedRow (input, newTimers, owners, rowOfOwner, retained) {
  /** @type {Map<number, number>} */
  const votes = new Map()
  for (const o of newTimers) {
    const g = rowOfOwner.rowOf(owners[o])
    if (g >= 0) votes.set(g, (votes.get(g) ?? 0) + 1)
  }
  let row = -1
  let most = 0
  for (const [g, count] of votes) if (count > most) [row, most] = [g, count]
  if (row < 0) return { row: -1, share: 0 }
  const growth = input.result.growth[row]
  const rowGrowth = growth.retainedAfter - growth.retainedBefore
  const share = rowGrowth > 0 ? Math.min(1, (retained[retained.length - 1] - retained[0]) / rowGrowth) : 0
  return share >= MIN_ROW_SHARE ? { row, share } : { row: -1, share: 0 }
}

/**
 * The variables of the callbacks' scopes that keep the most alive, summed over the timers: a
 * variable counts the bytes of its value when only that scope holds the value.
 * @param {HeapAnalysis} analysis
 * @param {number[]} timers
 * @param {NameResolver} names
 * @returns {Array<{name: string, bytes: number}>}
 */
function capturedVariables (analysis, timers, names) {
  const { graph, dominators, retainedSizes } = analysis
  /** @type {Map<string, number>} */
  const bytes = new Map()
  const edge = new EdgeCursor(graph)
  for (const timer of timers) {
    const callbackName = TIMER_CALLBACKS.get(analysis.classes.names[analysis.classOf[timer]]) ?? '_onTimeout'
    const callback = propertyTarget(graph, timer, callbackName)
    if (callback < 0) continue
    const context = propertyTarget(graph, unwrapBound(graph, callback), 'context')
    if (context < 0) continue
    for (edge.references(context); edge.next();) {
      if (!edge.is('context')) continue
      const name = shownEdgeName(analysis, edge.number, names)
      bytes.set(name, (bytes.get(name) ?? 0) + (dominators[edge.target] === context ? retainedSizes.at(edge.target) : 0))
    }
  }
  return [...bytes].sort((a, b) => b[1] - a[1]).slice(0, TOP_VARIABLES).map(([name, total]) => ({ name, bytes: total }))
}

/** New timers sampled for the collection that keeps their handles. */
const MAX_KEPT_SAMPLE = 200

/**
 * The collection of the program (a Map, a Set, an array, an object) that holds most of these
 * timers besides Node's timer list, with the variable or property that holds it; null when none
 * holds most of them or it has no name.
 * @param {HeapAnalysis} analysis
 * @param {number[]} timers
 * @returns {KeptHandles | null}
 */
function keptIn (analysis, timers) {
  const { graph } = analysis
  if (!graph.hasRetainers || timers.length === 0) return null
  const sample = timers.slice(0, MAX_KEPT_SAMPLE)
  /** @type {Map<number, number>} collection ordinal -> timers it holds */
  const holders = new Map()
  const edge = new EdgeCursor(graph)
  for (const timer of sample) {
    const seen = new Set()
    for (edge.retainers(timer); edge.next();) {
      if (edge.is('weak')) continue
      const collection = collectionOfStore(graph, edge.source)
      const kind = collectionKind(graph, collection)
      // Timer lists and other timers (their _idlePrev/_idleNext links) are Node's, not a collection.
      if (kind === null || kind === 'object' || seen.has(collection)) continue
      seen.add(collection)
      holders.set(collection, (holders.get(collection) ?? 0) + 1)
    }
  }
  let best = -1
  let count = 0
  for (const [collection, n] of holders) if (n > count) [best, count] = [collection, n]
  if (best < 0 || count < 0.8 * sample.length) return null
  const name = variableName(graph, best)
  if (name === null) return null
  return { name, kind: /** @type {string} */ (collectionKind(graph, best)), className: analysis.classes.names[analysis.classOf[best]], share: count / sample.length }
}

/**
 * The functions timers call (a Timeout's `_onTimeout`, an Immediate's `_onImmediate`).
 * @param {HeapGraph} graph
 * @param {number[]} timers
 */
function callbacksOf (graph, timers) {
  return timers.map((timer) => propertyTarget(graph, timer, TIMER_CALLBACKS.get(graph.nodeName(timer)) ?? '_onTimeout')).filter((fn) => fn >= 0)
}
