// forgotten-timer: Timeout (and Immediate) objects that are never cleared pile up in Node's timer
// lists (`timerListMap[ms]` → TimersList ⇄ Timeout ⇄ Timeout ...), each keeping its callback and
// what the callback captures alive. Timers are found by their shape, not by a path: a live timer is
// an object of class Timeout or Immediate that is not `_destroyed` and has a callback. The list is a
// ring linked both ways, and Node's own timers in the same list (an http.Server's 30 s connection
// check) are held from elsewhere too, so the dominator of the timers is often the root (V8 11, Node
// 20) or the global object (V8 12 and later, Node 22, 24) rather than their list: the matcher counts
// timers per callback location in every snapshot and stands alone when no row holds them.

import { retainerPath } from '../analysis/retainer-paths.js'
import { shownEdgeName } from '../analysis/shown-names.js'
import { AGE_OLD } from '../query/ages.js'
import { locationKey } from './program-location.js'
import { oddballValue, unwrapBound, variableName } from '../query/heap-values.js'
import { EdgeCursor, propertyTarget, reference, retainers } from '../query/references.js'
import { collectionKind, collectionOfStore } from '../query/collection-entries.js'
import { growsEveryStep, judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { countText, durationText, bytesText, namedBytes, notesOf } from './evidence-notes.js'
import { readableFunctionName, sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */

export const ID = 'forgotten-timer'

/** @type {Signature} */
export const forgottenTimer = { id: ID, match: matchForgottenTimer }

/** Timer classes and the property holding their callback (lib/internal/timers.js). */
const TIMER_CALLBACKS = new Map([['Timeout', '_onTimeout'], ['Immediate', '_onImmediate']])
/** Fewer new live timers than this at one location is too little to call a leak. */
const MIN_NEW_TIMERS = 20
/** The timers claim a growth row when they hold at least this share of its growth (claimedRow). */
const MIN_ROW_SHARE = 0.5
/** Steps walked along a timer list to find its TimersList head. */
const MAX_LIST_WALK = 1 << 22
const TOP_VARIABLES = 3

/**
 * @typedef {object} TimerTally
 * @property {number} count      live timers with this callback location
 * @property {number} intervals  of them, repeating (setInterval)
 * @property {number} retained   bytes the timers retain, summed
 * @property {SourceLocation | null} location
 * @property {string} fn         the callback's name, '' when anonymous
 * @property {number[]} timers   ordinals (kept for the last snapshot only)
 */

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

  const rowOfOwner = new Int32Array(last.graph.nodeCount).fill(-1)
  for (const g of input.candidates) for (const o of detail.groupOwners[g]) if (rowOfOwner[o] < 0) rowOfOwner[o] = g

  /** @type {Match[]} */
  const matches = []
  for (const [key, tally] of latest) {
    const counts = tallies.map((byKey) => byKey.get(key)?.count ?? 0)
    const newTimers = tally.timers.filter((o) => ages[o] !== AGE_OLD)
    if (!growsEveryStep(counts) || newTimers.length < MIN_NEW_TIMERS) continue
    const retained = tallies.map((byKey) => byKey.get(key)?.retained ?? 0)

    const group = claimedRow(input, newTimers, owners, rowOfOwner, retained)
    const list = timerList(last, newTimers[newTimers.length - 1])
    const head = list >= 0 ? list : newTimers[newTimers.length - 1]
    const path = group.row >= 0 && group.row < result.growth.length && list < 0 ? result.growth[group.row].path : retainerPath(last, head, { names })
    const durationMs = list >= 0 ? listDuration(last, list) : null
    const variables = capturedVariables(last, tally.timers, names)
    const repeating = tally.intervals * 2 >= tally.count
    const callText = tally.fn === '' ? 'an anonymous callback' : tally.fn

    const facts = [{
      weight: 0.1 * (newTimers.length / newTimersEverywhere),
      reason: `${percent(newTimers.length / newTimersEverywhere)} of the timers started since the first snapshot and still live run this callback`
    }]
    if (repeating) facts.push({ weight: 0.08, reason: `${tally.intervals} of ${tally.count} are intervals, which never end on their own` })
    else facts.push({ weight: 0, reason: 'they are one-shot timeouts that have not fired yet (long delays, or re-armed)' })
    // Named by its owner, not its number: the report may list fewer rows than the diff found.
    const rowOwner = group.row >= 0 ? result.growth[group.row].owner : null
    if (rowOwner !== null) facts.push({ weight: 0.05, reason: `they retain ${percent(group.share)} of the growth held by ${rowOwner.name} @${rowOwner.id}` })
    else facts.push({ weight: 0, reason: 'no growth row owns them: the timer list is a ring that other references also enter, so its timers are counted directly' })
    const { confidence, reasons } = judgeGrowth(counts, facts)

    const fnName = tally.fn !== '' ? tally.fn : '() => { /* ... */ }'
    const delay = durationMs ?? 'ms'
    // The program may keep the handles already, in a collection it never clears them from.
    const kept = keptIn(last, newTimers)
    matches.push({
      group: group.row,
      finding: {
        signature: ID,
        title: `${repeating ? 'Intervals' : 'Timeouts'} started with ${callText} are never cleared: ${counts.map((n) => n.toLocaleString('en-US')).join(' → ')} live timers${durationMs === null ? '' : ` in the ${durationMs.toLocaleString('en-US')} ms list`}.`,
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
          notes: notesOf([
            `${tally.intervals > 0 ? `${countText(tally.intervals)} intervals` : ''}${tally.intervals > 0 && tally.intervals < tally.count ? ' and ' : ''}${tally.intervals < tally.count ? `${countText(tally.count - tally.intervals)} pending timeouts` : ''}${durationMs === null ? '' : ` of ${durationText(durationMs)}`}, ~${bytesText(tally.retained / tally.count)} each`,
            `${countText(newTimers.length)} started since the first snapshot and still live`,
            variables.length > 0 && `the callback captures ${namedBytes(variables)}`,
            kept !== null && `the program keeps ${percent(kept.share)} of the new handles in ${kept.name} (${kept.className}), and clears none of them`
          ])
        },
        location: tally.location,
        members: newTimers,
        fix: kept !== null
          ? keptFix(kept, repeating)
          : repeating
            ? {
                summary: 'keep the handle and clearInterval it when the request or connection it serves ends; unref() a timer that must not keep the process alive.',
                snippet: `const timer = setInterval(${fnName}, ${delay})\nres.on('close', () => clearInterval(timer))`
              }
            : {
                summary: 'keep the handle and clearTimeout it when the work it guards ends; unref() a timer that must not keep the process alive.',
                snippet: `const timer = setTimeout(${fnName}, ${delay})\nres.on('close', () => clearTimeout(timer))`
              }
      }
    })
  }
  return matches
}

/**
 * Live timers of one snapshot by the location of their callback.
 * @param {HeapAnalysis} analysis
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {boolean} keepOrdinals
 * @returns {Map<string, TimerTally>}
 */
function tallyTimers (analysis, cwd, names, keepOrdinals) {
  const { graph, classOf, retainedSizes, locations } = analysis
  const callbackOfClass = analysis.classes.names.map((name) => TIMER_CALLBACKS.get(name) ?? null)
  /** @type {Map<string, TimerTally>} */
  const byKey = new Map()
  for (let o = 0; o < graph.nodeCount; o++) {
    const callbackName = callbackOfClass[classOf[o]]
    if (callbackName === null || graph.nodeTypes[o] !== graph.nodeType.object) continue
    // Cleared and fired one-shot timers are marked destroyed; the lists no longer hold them.
    if (oddballValue(graph, propertyTarget(graph, o, '_destroyed')) !== 'false') continue
    const callback = propertyTarget(graph, o, callbackName)
    if (callback < 0 || graph.nodeTypes[callback] !== graph.nodeType.closure) continue
    const fn = unwrapBound(graph, callback)
    const location = sourceLocation(analysis, fn, cwd, names)
    // A socket's idle timeout is Node's own function run for the socket: the open connection is
    // what piles up (retained-sockets counts those), not a timer the program started.
    if (location !== null && location.file.startsWith('node:') && isSocketTimeout(analysis, o, callback)) continue
    const name = readableFunctionName(locations.functionName(fn))
    const key = location === null ? `function ${name}` : locationKey(location)
    let tally = byKey.get(key)
    if (!tally) byKey.set(key, (tally = { count: 0, intervals: 0, retained: 0, location, fn: name, timers: [] }))
    tally.count++
    tally.retained += retainedSizes.at(o)
    // `_repeat` is null for a timeout and the interval in ms (a Smi, no edge) for an interval.
    const repeat = oddballValue(graph, propertyTarget(graph, o, '_repeat'))
    if (callbackName === '_onTimeout' && repeat !== 'null' && repeat !== 'undefined') tally.intervals++
    if (keepOrdinals) tally.timers.push(o)
  }
  return byKey
}

/**
 * Whether a timer runs its callback for a socket: bound to it (`socket._onTimeout.bind(socket)`,
 * Node 20 and 22) or given it as the timer's first argument (`onStreamTimeout` with the socket in
 * `_timerArgs`, Node 24).
 * @param {HeapAnalysis} analysis
 * @param {number} timer
 * @param {number} callback
 */
function isSocketTimeout (analysis, timer, callback) {
  const { graph } = analysis
  if (isSocket(analysis, propertyTarget(graph, callback, 'bound_this'))) return true
  const args = propertyTarget(graph, timer, '_timerArgs')
  if (args < 0 || graph.nodeName(args) !== 'Array') return false
  return isSocket(analysis, reference(graph, args, 0, 'element'))
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 */
function isSocket (analysis, ordinal) {
  if (ordinal < 0) return false
  const name = analysis.classes.names[analysis.classOf[ordinal]]
  return (name === 'Socket' || name === 'TLSSocket') && propertyTarget(analysis.graph, ordinal, '_readableState') >= 0
}

/**
 * The growth row whose owners hold most of the new timers, when the timers explain most of its
 * growth; row -1 otherwise.
 * @param {SignatureInput} input
 * @param {number[]} newTimers
 * @param {Uint32Array} owners
 * @param {Int32Array} rowOfOwner
 * @param {number[]} retained
 */
function claimedRow (input, newTimers, owners, rowOfOwner, retained) {
  /** @type {Map<number, number>} */
  const votes = new Map()
  for (const o of newTimers) {
    const g = rowOfOwner[owners[o]]
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
 * The head of the list a timer is linked into (a TimersList or ImmediateList), or -1.
 * @param {HeapAnalysis} analysis
 * @param {number} timer
 */
function timerList (analysis, timer) {
  const { graph, classOf } = analysis
  const timerClass = classOf[timer]
  let current = timer
  for (let step = 0; step < MAX_LIST_WALK; step++) {
    const next = propertyTarget(graph, current, '_idleNext')
    if (next < 0 || next === timer || graph.nodeTypes[next] !== graph.nodeType.object) return -1
    if (classOf[next] !== timerClass) return next
    current = next
  }
  return -1
}

/**
 * The delay of a TimersList: its key in `timerListMap`, an element edge from a non-array object.
 * @param {HeapAnalysis} analysis
 * @param {number} list
 * @returns {number | null}
 */
function listDuration (analysis, list) {
  const { graph } = analysis
  for (const edge = retainers(graph, list); edge.next();) {
    const source = edge.source
    if (edge.is('element') && graph.nodeTypes[source] === graph.nodeType.object && graph.nodeName(source) !== 'Array') return edge.index
  }
  return null
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
 * @returns {{name: string, kind: string, className: string, share: number} | null}
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
 * The remedy when the program keeps the handles but never clears them.
 * @param {{name: string, kind: string}} kept
 * @param {boolean} repeating
 * @returns {{summary: string, snippet: string}}
 */
function keptFix (kept, repeating) {
  const clear = repeating ? 'clearInterval' : 'clearTimeout'
  const { name, kind } = kept
  const snippet = kind === 'Map'
    ? `${clear}(${name}.get(id))\n${name}.delete(id)`
    : kind === 'Set'
      ? `${clear}(timer)\n${name}.delete(timer)`
      : `${clear}(timer)\n${name}.splice(${name}.indexOf(timer), 1)`
  return {
    summary: `the program keeps each handle in ${name} but never clears it: when the work the timer guards ends, ${clear} it and take it out of ${name}.`,
    snippet: `// when the work ends\n${snippet}`
  }
}
