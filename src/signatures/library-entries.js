// What a package keeps for the program that the program can act on: the program's function its
// objects keep (a callback is written where the program called the package, so it places the call),
// and the method they offer to end them. For a collection a package keeps in its own code, which
// no object of the program's reaches (node-cron's registry of every task it scheduled), and for
// timers a package runs for something the program started in it (the same tasks' heartbeats).

import { AGE_OLD } from '../query/ages.js'
import { CLOSE_METHODS, offeredMethod } from '../query/heap-methods.js'
import { EdgeCursor } from '../query/references.js'
import { packageOf } from './library-handle.js'
import { mostCommonLocation } from './program-location.js'
import { sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {SourceLocation} from './finding.js' */

/** Methods that end what a package handed out, the most final first (node-cron's stop() only pauses a task, destroy() takes it out of the registry). */
const END_METHODS = ['destroy', 'dispose', 'cancel', 'unsubscribe', ...CLOSE_METHODS, 'stop']
/** New entries' values read for the program's functions they keep. */
const MAX_VALUES = 200
/** Nodes looked at from each value, breadth first, for those functions. */
const MAX_NODES_PER_VALUE = 256
/** Links every object of a class shares, and the links of Node's timer lists (a timer's
 * neighbours are other timers, not what this one keeps). */
const SHARED_NAMES = new Set(['__proto__', 'constructor', 'prototype', '_idleNext', '_idlePrev'])
const MAX_DEPTH = 4
/** Internal references to the stores of collections and arrays. */
const STORES = new Set(['table', 'elements'])

/**
 * Whether the walk for the program's functions takes a reference: fields and scope variables, and a
 * function's scope (the package's own callbacks keep the program's in their scope: node-cron's task
 * runner keeps `taskFn`), never into the classes, whose methods every entry shares; the store of a
 * Map, Set or array and its slots (Node keeps an EventTarget's listeners in a Map of lists); what
 * a WeakRef points to (Node's set of an AbortSignal's dependants holds WeakRefs); and the arguments
 * a function was bound with (rxjs runs an interval as its scheduler's `flush` bound to the action).
 * @param {EdgeCursor} edge
 * @param {boolean} store  the edge leaves a store
 */
function followed (edge, store) {
  if (store) return edge.is('internal') || edge.is('element')
  if (edge.is('property')) return !SHARED_NAMES.has(edge.name)
  return edge.is('context') || edge.is('internal', 'context') || (edge.is('internal') && STORES.has(edge.name)) || edge.is('weak', 'target') ||
    (edge.is('shortcut') && edge.name.startsWith('bound_argument_'))
}

/**
 * What a package's own collection keeps that the program can act on: the program's function most
 * of the new entries keep (with how many keep it), and the method the entries' values offer to
 * end them.
 * @param {HeapAnalysis} analysis
 * @param {number[]} values  ordinals of new entries' values
 * @param {Uint8Array} ages  AGE_* per node: only new objects are walked, since what each entry keeps
 *   of its own was made with it, while a function every entry reaches through an old object (a
 *   handler the program passed once, at start-up) is no entry's
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {number} [maxDepth]  steps from each value
 * @returns {{callback: SourceLocation | null, end: string | null}}
 */
export function libraryEntries (analysis, values, ages, cwd, names, maxDepth = MAX_DEPTH) {
  const { graph } = analysis
  const edge = new EdgeCursor(graph)
  /** @type {Array<{location: SourceLocation, count: number}>} */
  const located = []
  const sampled = values.slice(0, MAX_VALUES)
  for (const value of sampled) {
    /** @type {Map<string, SourceLocation>} one count per value for each function */
    const found = new Map()
    const seen = new Set([value])
    let level = [value]
    for (let depth = 0; depth < maxDepth && level.length > 0 && seen.size < MAX_NODES_PER_VALUE; depth++) {
      /** @type {number[]} */
      const next = []
      for (const o of level) {
        const store = graph.nodeTypes[o] === graph.nodeType.array
        for (edge.references(o); edge.next() && seen.size < MAX_NODES_PER_VALUE;) {
          if (!followed(edge, store)) continue
          const target = edge.target
          if (seen.has(target) || ages[target] === AGE_OLD) continue
          seen.add(target)
          if (graph.nodeTypes[target] === graph.nodeType.closure) {
            const location = sourceLocation(analysis, target, cwd, names)
            if (location !== null && !location.file.startsWith('node:') && packageOf(location.file) === null) found.set(`${location.file}:${location.line}:${location.column}`, location)
            else next.push(target)
            continue
          }
          if (graph.nodeTypes[target] === graph.nodeType.object || (graph.nodeTypes[target] === graph.nodeType.array && edge.is('internal') && STORES.has(edge.name))) next.push(target)
        }
      }
      level = next
    }
    for (const location of found.values()) located.push({ location, count: 1 })
  }
  const best = mostCommonLocation(located)
  const callback = best !== null && best.count >= sampled.length / 2 ? best.location : null
  return { callback, end: sampled.length === 0 ? null : offeredMethod(graph, sampled[0], END_METHODS) }
}
