// Retainer paths from the roots to a node, with edge names (the JSON report's `path`).
//
// Shortest paths: distances already encode every shortest path. Walking back from the node, each
// step goes to a retainer exactly one closer to the roots, over a non-weak edge. Where several
// retainers qualify, the step people recognise wins: a property over a closure variable over an
// array index over engine-internal slots. The walk ends at the snapshot root; a user root (the
// global, distance 1) steps to the root over the root's own edge to it.
//
// Readable paths (`readable: true`): the shortest path is often not the one a person knows. A
// module-level `const seen = []` is captured by the server's request listener, and Node's timer
// list reaches that listener in fewer hops than anything else: the shortest path runs through
// `setTimeout`'s Context, a TimersList, a Timeout and the Server (Node 20; Node 22 and 24 reach the
// scope first through the loader's ModuleWrap and the module body's Generator). What the person
// wrote is "module app.js, variable seen". So readable paths are shortest paths from the nearest *anchor*: the user
// roots (the global) and the module-scope Contexts of the program's own scripts (module-scopes.js;
// `node:` scripts excluded). One BFS from all anchors at once (not entering the NativeContext, which
// leads back to everything) gives each node its anchor distance; a path walks back over those as
// the shortest path does over distances, then goes on from the anchor to the root by the shortest
// path. DevTools' distances are untouched; only the choice of path changes. The BFS runs once per
// analysis (4 bytes per node kept, 4 more while it runs); each path after that costs the retainers
// of its steps up to the anchor (the retainer index), and one step per hop from there to the root
// (rootSteps).

import { NO_DISTANCE } from './distances.js'
import { computeRootSteps, edgeTypeRanks, NO_STEP } from './root-steps.js'
import { findModuleScopes, moduleScriptOf } from './module-scopes.js'

/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {NodeLocations} from '../graph/locations.js' */
/** @import {ModuleScopes} from './module-scopes.js' */

/**
 * One hop of a retainer path from the GC roots (design.md's JSON contract).
 * @typedef {object} Step
 * @property {string} edge      property, variable or internal name, or the index as text
 * @property {string} edgeType  `property`, `context`, `element`, `internal`, `hidden`, `shortcut`
 *                              (`elided` for the one step standing for the middle of a long path)
 * @property {string} node      class name of the node the edge leads to, as the class table has it
 * @property {string} nodeType  node type name (`object`, `closure`, ...; `elided` likewise)
 * @property {number} id        V8 id of that node (0 for an elided step)
 * @property {string} [module]  readable paths only: the node is the module scope (top-level
 *                              variables) of this script, a URL as V8 names it
 * @property {string} [originalModule]  with `module`: the source file that script was compiled
 *                              from (tsc's one .ts file per script), as reports show files
 * @property {string} [generatedEdge]  a variable a minifier renamed: its name in the code that
 *                              ran (`edge` is then the name its source map gives)
 * @property {string} [generatedNode]  likewise for a class a minifier renamed (`node` is then
 *                              the name its source map gives)
 */

/**
 * What a path needs from an analysis (HeapAnalysis has it all).
 * @typedef {object} PathSource
 * @property {HeapGraph} graph
 * @property {Int32Array} distances
 * @property {Uint16Array | Uint32Array} classOf
 * @property {{names: string[]}} classes
 * @property {NodeLocations} [locations]  needed for readable paths (module scopes)
 * @property {number[]} [userRoots]       needed for readable paths
 * @property {Uint32Array} [rootSteps]     computeRootSteps, when the analysis made them
 * @property {(ordinal: number, name: string) => string | null} [nameClass]  see HeapAnalysis
 * @property {(scriptName: string) => string | null} [nameModule]  see HeapAnalysis
 */

/**
 * Per analysis, what readable paths need: anchor distances and the module scopes.
 * @type {WeakMap<PathSource, {anchorDistances: Int32Array, scopes: ModuleScopes}>}
 */
const anchorsOf = new WeakMap()

/**
 * Per analysis, the edge each node's shortest path from the root arrives by (rootSteps).
 * @type {WeakMap<PathSource, Uint32Array>}
 */
const rootStepsOf = new WeakMap()

/**
 * Per analysis, walks to the root over the retainer index, by start node: the anchors of readable
 * paths, few, each walked once.
 * @type {WeakMap<PathSource, Map<number, number[] | null>>}
 */
const rootWalksOf = new WeakMap()

/**
 * The path from the roots to `ordinal`, first step at the root end; [] for the root itself and for
 * nodes no root reaches. A path longer than `maxLength` keeps its two ends around one `elided`
 * step; a readable path keeps its last module scope and what follows it when they fit.
 * @param {PathSource} analysis
 * @param {number} ordinal
 * @param {{maxLength?: number, readable?: boolean}} [options] readable: from the nearest anchor
 *   (the global or a module scope of the program's own scripts) rather than the shortest overall
 * @returns {Step[]}
 */
export function retainerPath (analysis, ordinal, { maxLength = 100, readable = false } = {}) {
  const { graph, distances } = analysis
  if (ordinal === graph.rootOrdinal || distances[ordinal] === NO_DISTANCE) return []
  const rank = edgeTypeRanks(graph)
  /** @type {number[]} */
  let edges
  /** @type {ModuleScopes | undefined} */
  let scopes
  if (readable && analysis.locations && analysis.userRoots) {
    const anchors = readableAnchors(analysis)
    scopes = anchors.scopes
    // From the node back to its nearest anchor, then from the anchor back to the root. Without a
    // retainer index (`leakdiff inspect` builds none) the walk follows each node's first step
    // from its anchor, chosen by the same rule: the same path, 4 bytes per node.
    const tail = graph.hasRetainers ? walkBack(graph, anchors.anchorDistances, ordinal, 0, rank) : walkAnchorSteps(analysis, anchors.anchorDistances, ordinal)
    const anchor = tail === null || tail.length === 0 ? ordinal : graph.edgeSource(tail[tail.length - 1])
    const head = tail === null ? null : walkToRoot(analysis, anchor)
    edges = tail !== null && head !== null ? [...tail, ...head] : walkToRoot(analysis, ordinal) ?? []
  } else {
    edges = walkToRoot(analysis, ordinal) ?? []
  }
  edges.reverse()
  const steps = edges.map((e) => stepOf(analysis, e, scopes))
  return shorten(steps, Math.max(Math.floor(maxLength), 1))
}

/**
 * Edges from `ordinal` back towards the start of a BFS whose levels are `levels`, each to a
 * retainer one level closer, preferring recognisable edge types, over the retainer index. With
 * `stop` = -1 the walk ends at the root (DevTools distances: a user root at 1 steps to the root);
 * with `stop` = 0 it ends at a node of level 0. Null when the node has no level or a level has no
 * retainer one closer.
 * @param {HeapGraph} graph
 * @param {Int32Array} levels
 * @param {number} ordinal
 * @param {number} stop
 * @param {number[]} rank
 * @returns {number[] | null}
 */
function walkBack (graph, levels, ordinal, stop, rank) {
  const { rootOrdinal, firstRetainer, retainerEdges, edgeTypes } = graph
  const weakType = graph.edgeType.weak
  /** @type {number[]} */
  const edges = []
  let node = ordinal
  if (levels[node] < 0) return null
  while (stop < 0 ? node !== rootOrdinal : levels[node] > 0) {
    const level = levels[node]
    let best = -1
    let bestRank = Infinity
    for (let slot = firstRetainer[node], end = firstRetainer[node + 1]; slot < end; slot++) {
      const e = retainerEdges[slot]
      if (edgeTypes[e] === weakType) continue
      const source = graph.edgeSource(e)
      const closer = levels[source] === level - 1 || (stop < 0 && level === 1 && source === rootOrdinal)
      if (!closer || source === node) continue
      const r = rank[edgeTypes[e]]
      if (r < bestRank) {
        best = slot
        bestRank = r
      }
    }
    // Cannot happen with levels from a BFS over these edges; guards against foreign arrays.
    if (best < 0) return null
    edges.push(retainerEdges[best])
    node = graph.retainerSource(best)
  }
  return edges
}

/**
 * Per analysis without a retainer index, the edge each node's shortest path from its nearest
 * anchor arrives by (computeRootSteps over the anchor distances).
 * @type {WeakMap<PathSource, Uint32Array>}
 */
const anchorStepsOf = new WeakMap()

/**
 * What walkBack gives with `stop` = 0, over anchor steps instead of the retainer index: of the
 * retainers one anchor level closer, the most recognisable edge type, the first in edge order.
 * @param {PathSource} analysis
 * @param {Int32Array} levels  the anchor distances
 * @param {number} ordinal
 * @returns {number[] | null}
 */
function walkAnchorSteps (analysis, levels, ordinal) {
  const { graph } = analysis
  let steps = anchorStepsOf.get(analysis)
  if (!steps) anchorStepsOf.set(analysis, (steps = computeRootSteps(graph, levels)))
  if (levels[ordinal] < 0) return null
  /** @type {number[]} */
  const edges = []
  for (let node = ordinal; levels[node] > 0;) {
    const e = steps[node]
    if (e === NO_STEP) return null
    edges.push(e)
    node = graph.edgeSource(e)
  }
  return edges
}

/**
 * Edges of the shortest path from `ordinal` back to the root, last edge first; null when no root
 * reaches the node. Over the retainer index when the graph has one (the diff builds it), with the
 * walk from each start kept (a module scope's retainers, one per nested Context, are many);
 * else over rootSteps, which costs 4 bytes per node instead of the index.
 * @param {PathSource} analysis
 * @param {number} ordinal
 * @returns {number[] | null}
 */
function walkToRoot (analysis, ordinal) {
  const { graph, distances } = analysis
  if (distances[ordinal] < 0) return null
  if (graph.hasRetainers) {
    let walks = rootWalksOf.get(analysis)
    if (!walks) rootWalksOf.set(analysis, (walks = new Map()))
    let edges = walks.get(ordinal)
    if (edges === undefined) walks.set(ordinal, (edges = walkBack(graph, distances, ordinal, -1, edgeTypeRanks(graph))))
    return edges === null ? null : [...edges]
  }
  const steps = rootSteps(analysis)
  /** @type {number[]} */
  const edges = []
  for (let node = ordinal; node !== graph.rootOrdinal;) {
    const e = steps[node]
    // Cannot happen with DevTools' distances; guards against foreign arrays.
    if (e === NO_STEP || edges.length > graph.nodeCount) return null
    edges.push(e)
    node = graph.edgeSource(e)
  }
  return edges
}

/**
 * The analysis's root steps: its own (analyzeHeap's `rootSteps` option), or computed on first use.
 * @param {PathSource} analysis
 * @returns {Uint32Array}
 */
function rootSteps (analysis) {
  let steps = analysis.rootSteps ?? rootStepsOf.get(analysis)
  if (steps) return steps
  steps = computeRootSteps(analysis.graph, analysis.distances)
  rootStepsOf.set(analysis, steps)
  return steps
}

/**
 * A node's class as reports show it: the class table's name, or the name people wrote when a
 * minifier renamed the class and the analysis knows the original (HeapAnalysis.nameClass).
 * @param {PathSource} analysis
 * @param {number} ordinal
 */
export function shownClassName (analysis, ordinal) {
  const name = analysis.classes.names[analysis.classOf[ordinal]]
  return analysis.nameClass?.(ordinal, name) ?? name
}

/**
 * A path cut to `limit` steps around one `elided` step. The cut keeps the first steps and the
 * end; when the path has a module scope, the end kept starts at the last one if it fits.
 * @param {Step[]} steps
 * @param {number} limit
 * @returns {Step[]}
 */
function shorten (steps, limit) {
  if (steps.length <= limit) return steps
  const elided = (/** @type {number} */ count) => ({ edge: '…', edgeType: 'elided', node: `${count} steps`, nodeType: 'elided', id: 0 })
  const anchor = steps.findLastIndex((step) => step.module !== undefined)
  const head = limit - 1 - (steps.length - anchor)
  if (anchor >= 0 && head >= 1) return [...steps.slice(0, head), elided(anchor - head), ...steps.slice(anchor)]
  const first = Math.ceil((limit - 1) / 2)
  const last = limit - 1 - first
  return [...steps.slice(0, first), elided(steps.length - first - last), ...steps.slice(steps.length - last)]
}

/**
 * Anchor distances of an analysis, computed on first use: a BFS over non-weak edges from the user
 * roots and the module scopes (level 0), never entering a NativeContext. -1 where none reaches.
 * @param {PathSource} analysis
 */
export function readableAnchors (analysis) {
  let anchors = anchorsOf.get(analysis)
  if (anchors) return anchors
  const { graph } = analysis
  const scopes = findModuleScopes(graph, /** @type {NodeLocations} */ (analysis.locations))
  const { firstEdge, edgeTargets, edgeTypes, nodeNames, rootOrdinal } = graph
  const weakType = graph.edgeType.weak
  const nativeContext = graph.strings.indexOf('system / NativeContext')
  const levels = new Int32Array(graph.nodeCount).fill(-1)
  const queue = new Uint32Array(graph.nodeCount)
  let length = 0
  for (const start of [...(analysis.userRoots ?? []), ...scopes.ordinals]) {
    if (levels[start] === 0) continue
    levels[start] = 0
    queue[length++] = start
  }
  for (let head = 0; head < length; head++) {
    const node = queue[head]
    const level = levels[node] + 1
    for (let e = firstEdge[node], end = firstEdge[node + 1]; e < end; e++) {
      if (edgeTypes[e] === weakType) continue
      const target = edgeTargets[e]
      if (levels[target] !== -1 || target === rootOrdinal || nodeNames[target] === nativeContext) continue
      levels[target] = level
      queue[length++] = target
    }
  }
  anchors = { anchorDistances: levels, scopes }
  anchorsOf.set(analysis, anchors)
  return anchors
}

/**
 * @param {PathSource} analysis
 * @param {number} edge
 * @param {ModuleScopes} [scopes] readable paths: mark module scopes
 * @returns {Step}
 */
function stepOf (analysis, edge, scopes) {
  const { graph, classOf, classes } = analysis
  const target = graph.edgeTargets[edge]
  /** @type {Step} */
  const step = {
    edge: graph.displayEdgeName(edge),
    edgeType: graph.edgeTypeName(edge),
    // A synthetic node's class is "(synthetic)"; its name says which root it is (a handle kind,
    // `Node / FSEventWrap`), which is what a path through it needs to say.
    node: graph.nodeTypes[target] === graph.nodeType.synthetic ? graph.nodeName(target) : shownClassName(analysis, target),
    nodeType: graph.nodeTypeName(target),
    id: graph.nodeIds[target]
  }
  const generated = graph.edgeName(edge)
  if (generated !== step.edge) step.generatedEdge = generated
  if (step.node !== classes.names[classOf[target]] && graph.nodeTypes[target] !== graph.nodeType.synthetic) step.generatedNode = classes.names[classOf[target]]
  const module = scopes ? moduleScriptOf(scopes, target) : null
  if (module !== null) {
    step.module = module
    const original = analysis.nameModule?.(module) ?? null
    if (original !== null) step.originalModule = original
  }
  return step
}
