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
// path. DevTools' distances are untouched; only the choice of path changes.
//
// One pass, not one search per path: per analysis, on first use, every node gets the edge its
// shortest path arrives by, from the root (rootSteps) and from its nearest anchor (the anchor BFS,
// then the same pass over its levels), each 4 bytes per node. A path after that is one step per
// hop with no retainer scan, and a step object only for the hops a cut path keeps: a diff asks
// for the paths of thousands of owners, and an owner deep in a linked list has thousands of hops.
// The choice per node is the one a scan of its retainers makes (retainer slots are in edge order),
// so paths do not depend on whether the graph has a retainer index.

import { NO_DISTANCE, distancesOf } from './distances.js'
import { computeRootSteps, NO_STEP } from './root-steps.js'
import { moduleScopesOf, moduleScriptOf } from './module-scopes.js'
import { HEAP_NAMES, blockVariable, shownClassName, shownEdgeName } from './shown-names.js'

/** @import {HeapAnalysis} from './analyze-heap.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {NodeLocations} from '../graph/locations.js' */
/** @import {ModuleScopes} from './module-scopes.js' */
/** @import {NameResolver} from './shown-names.js' */

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
 * @property {Int32Array | null} distances  null: analysed without them, and then with no paths
 * @property {Uint16Array | Uint32Array} classOf
 * @property {{names: string[]}} classes
 * @property {NodeLocations} [locations]  needed for readable paths (module scopes)
 * @property {number[]} [userRoots]       needed for readable paths
 * @property {Uint32Array} [rootSteps]     computeRootSteps, when the analysis made them
 */

/**
 * Per analysis, what paths are walked over: the edge each node's shortest path from the root
 * arrives by, and for readable paths the anchor distances, the module scopes and the edge each
 * node's shortest path from its nearest anchor arrives by. Each is made in one pass on first use
 * and kept, so a path after that costs one step per hop, whoever asks and however many.
 * @typedef {object} PathSteps
 * @property {Uint32Array} [rootSteps]
 * @property {Int32Array} [anchorDistances]
 * @property {ModuleScopes} [scopes]
 * @property {Uint32Array} [anchorSteps]
 * @property {Map<number, number[] | null>} anchorWalks  walks from an anchor to the root, by anchor
 */

/** @type {WeakMap<PathSource, PathSteps>} */
const stepsOf = new WeakMap()

/**
 * Steps a path has at most, by default: a report's JSON keeps paths whole (the text folds them), and
 * only a path down a linked list of thousands of links is longer; its steps would be most of the
 * report (about 100 bytes each).
 */
export const MAX_PATH_STEPS = 1000
/** Steps a shortened run of equal steps keeps at each end. */
const RUN_ENDS = 2

/** @param {PathSource} analysis */
function pathSteps (analysis) {
  let steps = stepsOf.get(analysis)
  if (!steps) stepsOf.set(analysis, (steps = { anchorWalks: new Map() }))
  return steps
}

/**
 * The path from the roots to `ordinal`, first step at the root end; [] for the root itself and for
 * nodes no root reaches. The path is whole up to `maxLength` steps (MAX_PATH_STEPS by default, far
 * past any path but one through a linked list thousands of links long); a longer one is shortened
 * by pathParts.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 * @param {{maxLength?: number, readable?: boolean, names?: NameResolver}} [options] readable: from
 *   the nearest anchor (the global or a module scope of the program's own scripts) rather than the
 *   shortest overall; names: the names people wrote, for variables, classes and modules (the heap's
 *   by default)
 * @returns {Step[]}
 */
export function retainerPath (analysis, ordinal, { maxLength = MAX_PATH_STEPS, readable = false, names = HEAP_NAMES } = {}) {
  const { edges, scopes } = pathEdges(analysis, ordinal, readable)
  return pathParts(analysis, edges, maxLength, scopes).map((part) => (typeof part === 'number' ? stepOf(analysis, edges[part], scopes, names) : elided(part.count)))
}

/**
 * The path retainerPath makes, as the edges its steps are made of and `{count}` for a step that
 * stands for `count` left out: for a caller that makes many paths of one analysis and a step of
 * each edge once (paths share all but their last few steps), with pathStep.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 * @param {{maxLength?: number, readable?: boolean}} [options]  as retainerPath's
 * @returns {Array<number | {count: number}>}
 */
export function retainerPathEdges (analysis, ordinal, { maxLength = MAX_PATH_STEPS, readable = false } = {}) {
  const { edges, scopes } = pathEdges(analysis, ordinal, readable)
  return pathParts(analysis, edges, maxLength, scopes).map((part) => (typeof part === 'number' ? edges[part] : part))
}

/**
 * The step of a path that goes over `edge` (retainerPathEdges), as retainerPath makes it.
 * @param {HeapAnalysis} analysis
 * @param {number} edge
 * @param {{readable?: boolean, names?: NameResolver}} [options]  as retainerPath's
 * @returns {Step}
 */
export function pathStep (analysis, edge, { readable = false, names = HEAP_NAMES } = {}) {
  return stepOf(analysis, edge, readable && analysis.locations && analysis.userRoots ? readableAnchors(analysis).scopes : undefined, names)
}

/**
 * The edges of a path from the roots to `ordinal`, root end first, and for a readable path the
 * module scopes it marks.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 * @param {boolean} readable
 * @returns {{edges: number[], scopes: ModuleScopes | undefined}}
 */
function pathEdges (analysis, ordinal, readable) {
  const { graph, distances } = analysis
  if (distances === null || ordinal === graph.rootOrdinal || distances[ordinal] === NO_DISTANCE) return { edges: [], scopes: undefined }
  /** @type {number[]} */
  let edges
  /** @type {ModuleScopes | undefined} */
  let scopes
  if (readable && analysis.locations && analysis.userRoots) {
    const anchors = readableAnchors(analysis)
    scopes = anchors.scopes
    // From the node back to its nearest anchor, then from the anchor back to the root.
    const tail = walkToAnchor(analysis, anchors.anchorDistances, ordinal)
    const anchor = tail === null || tail.length === 0 ? ordinal : graph.edgeSource(tail[tail.length - 1])
    const head = tail === null ? null : walkFromAnchor(analysis, anchor)
    edges = tail !== null && head !== null ? [...tail, ...head] : walkToRoot(analysis, ordinal) ?? []
  } else {
    edges = walkToRoot(analysis, ordinal) ?? []
  }
  return { edges: edges.reverse(), scopes }
}

/**
 * Makes now what paths of this analysis walk over (the root steps, and with locations and user
 * roots the anchor distances and steps), instead of on the first path: for a caller with a core
 * idle now and paths to ask for later.
 * @param {PathSource} analysis
 */
export function preparePaths (analysis) {
  if (analysis.distances === null) return
  rootSteps(analysis)
  if (!analysis.locations || !analysis.userRoots) return
  const cached = pathSteps(analysis)
  cached.anchorSteps ??= computeRootSteps(analysis.graph, readableAnchors(analysis).anchorDistances)
}

/**
 * Edges from `ordinal` back to its nearest anchor (a node of anchor distance 0), last edge first:
 * each the edge its shortest path from an anchor arrives by (computeRootSteps over the anchor
 * distances: of the retainers one anchor level closer, the most recognisable edge type, the first
 * in edge order, which is the retainer index's order). Null when no anchor reaches the node.
 * @param {PathSource} analysis
 * @param {Int32Array} levels  the anchor distances
 * @param {number} ordinal
 * @returns {number[] | null}
 */
function walkToAnchor (analysis, levels, ordinal) {
  const { graph } = analysis
  const cached = pathSteps(analysis)
  const steps = cached.anchorSteps ?? (cached.anchorSteps = computeRootSteps(graph, levels))
  if (levels[ordinal] < 0) return null
  /** @type {number[]} */
  const edges = []
  for (let node = ordinal; levels[node] > 0;) {
    const e = steps[node]
    // Cannot happen with levels from a BFS over these edges; guards against foreign arrays.
    if (e === NO_STEP) return null
    edges.push(e)
    node = graph.edgeSource(e)
  }
  return edges
}

/**
 * walkToRoot from an anchor, kept per anchor: readable paths end at few anchors, each reached
 * by many paths.
 * @param {PathSource} analysis
 * @param {number} anchor
 * @returns {number[] | null}
 */
function walkFromAnchor (analysis, anchor) {
  const walks = pathSteps(analysis).anchorWalks
  let edges = walks.get(anchor)
  if (edges === undefined) walks.set(anchor, (edges = walkToRoot(analysis, anchor)))
  return edges === null ? null : [...edges]
}

/**
 * Edges of the shortest path from `ordinal` back to the root, last edge first; null when no root
 * reaches the node. Over the root steps: per node, of its non-weak retainers one distance closer,
 * the most recognisable edge type, the first in edge order (what a scan of the retainer index
 * picks), made in one pass over the edges, 4 bytes per node.
 * @param {PathSource} analysis
 * @param {number} ordinal
 * @returns {number[] | null}
 */
function walkToRoot (analysis, ordinal) {
  const { graph, distances } = analysis
  if (distances === null || distances[ordinal] < 0) return null
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
  if (analysis.rootSteps) return analysis.rootSteps
  const cached = pathSteps(analysis)
  return cached.rootSteps ?? (cached.rootSteps = computeRootSteps(analysis.graph, distancesOf(analysis)))
}

/**
 * The parts of a path of `edges` (root end first) that its steps are made of, at most `limit`: the
 * edges by index, and `{count}` for one step standing for `count` left out. A longer path first
 * loses the middles of its longest runs of equal steps (a linked list's links: the same edge name
 * to the same class), each shortened to its two ends around one elided step, so that every name
 * on the path stays; only a path still too long is cut in its middle around one elided step,
 * keeping the first steps and the end (from the last module scope when it fits). Steps are then
 * made only for the edges kept: a long path costs its hops, not a step object each.
 * @param {HeapAnalysis} analysis
 * @param {number[]} edges
 * @param {number} maxLength
 * @param {ModuleScopes | undefined} scopes  readable paths: module scopes are never elided
 * @returns {Array<number | {count: number}>}
 */
function pathParts (analysis, edges, maxLength, scopes) {
  const limit = Math.max(Math.floor(maxLength), 1)
  if (edges.length <= limit) return edges.map((_, i) => i)
  const isModule = (/** @type {number} */ i) => scopes !== undefined && moduleScriptOf(scopes, analysis.graph.edgeTargets[edges[i]]) !== null
  return cutMiddle(withoutLongRuns(analysis, edges, limit, isModule), limit, isModule)
}

/**
 * The path's edges by index, with the middles of its longest runs of equal steps given as
 * `{count}` (the steps each stands for), run after run, longest first, until the path has `limit`
 * parts or no run is left to shorten. A module scope is never inside a run.
 * @param {HeapAnalysis} analysis
 * @param {number[]} edges
 * @param {number} limit
 * @param {(i: number) => boolean} isModule
 * @returns {Array<number | {count: number}>}
 */
function withoutLongRuns (analysis, edges, limit, isModule) {
  const { graph, classOf } = analysis
  const { edgeTypes, edgeNames, edgeTargets } = graph
  const same = (/** @type {number} */ i, /** @type {number} */ j) => edgeTypes[edges[i]] === edgeTypes[edges[j]] &&
    edgeNames[edges[i]] === edgeNames[edges[j]] && classOf[edgeTargets[edges[i]]] === classOf[edgeTargets[edges[j]]] && !isModule(j)
  /** @type {Array<{from: number, length: number}>} */
  const runs = []
  for (let i = 0; i < edges.length;) {
    let j = i + 1
    while (j < edges.length && same(i, j)) j++
    // A run shortens to its ends around one elided step: shorter ones gain nothing.
    if (j - i > 2 * RUN_ENDS + 1) runs.push({ from: i, length: j - i })
    i = j
  }
  runs.sort((a, b) => b.length - a.length)
  /** @type {Map<number, number>} elided steps by the index they start at */
  const cut = new Map()
  let length = edges.length
  for (const run of runs) {
    if (length <= limit) break
    const count = run.length - 2 * RUN_ENDS
    cut.set(run.from + RUN_ENDS, count)
    length -= count - 1
  }
  /** @type {Array<number | {count: number}>} */
  const parts = []
  for (let i = 0; i < edges.length; i++) {
    const count = cut.get(i)
    if (count === undefined) parts.push(i)
    else {
      parts.push({ count })
      i += count - 1
    }
  }
  return parts
}

/**
 * The parts cut to `limit` around one `{count}` standing for the middle: the first parts and the
 * end, from the last module scope when that fits.
 * @param {Array<number | {count: number}>} parts  edge indexes and elided runs
 * @param {number} limit
 * @param {(i: number) => boolean} isModule  by edge index
 * @returns {Array<number | {count: number}>}
 */
function cutMiddle (parts, limit, isModule) {
  const length = parts.length
  if (length <= limit) return parts
  const stepsIn = (/** @type {Array<number | {count: number}>} */ cut) => cut.reduce((/** @type {number} */ sum, part) => sum + (typeof part === 'number' ? 1 : part.count), 0)
  const anchor = parts.findLastIndex((part) => typeof part === 'number' && isModule(part))
  const head = limit - 1 - (length - anchor)
  if (anchor >= 0 && head >= 1) return [...parts.slice(0, head), { count: stepsIn(parts.slice(head, anchor)) }, ...parts.slice(anchor)]
  const first = Math.ceil((limit - 1) / 2)
  const last = limit - 1 - first
  return [...parts.slice(0, first), { count: stepsIn(parts.slice(first, length - last)) }, ...parts.slice(length - last)]
}

/**
 * The step standing for `count` steps left out of a path.
 * @param {number} count
 * @returns {Step}
 */
function elided (count) {
  return { edge: '…', edgeType: 'elided', node: `${count} steps`, nodeType: 'elided', id: 0 }
}

/**
 * Anchor distances of an analysis, computed on first use: a BFS over non-weak edges from the user
 * roots and the module scopes (level 0), never entering a NativeContext. -1 where none reaches.
 * @param {PathSource} analysis
 */
export function readableAnchors (analysis) {
  const cached = pathSteps(analysis)
  if (cached.anchorDistances && cached.scopes) return { anchorDistances: cached.anchorDistances, scopes: cached.scopes }
  const { graph } = analysis
  const scopes = moduleScopesOf(graph, /** @type {NodeLocations} */ (analysis.locations))
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
  cached.anchorDistances = levels
  cached.scopes = scopes
  return { anchorDistances: levels, scopes }
}

/**
 * @param {HeapAnalysis} analysis
 * @param {number} edge
 * @param {ModuleScopes | undefined} scopes readable paths: mark module scopes
 * @param {NameResolver} names
 * @returns {Step}
 */
function stepOf (analysis, edge, scopes, names) {
  const { graph, classOf, classes } = analysis
  const target = graph.edgeTargets[edge]
  // A block scope's variable is a variable, though V8 writes it as a numbered hidden slot.
  const variable = blockVariable(analysis, edge, names)
  const generated = variable ?? graph.edgeName(edge)
  /** @type {Step} */
  const step = {
    edge: variable ?? shownEdgeName(analysis, edge, names, generated),
    edgeType: variable === null ? graph.edgeTypeName(edge) : 'context',
    // A synthetic node's class is "(synthetic)"; its name says which root it is (a handle kind,
    // `Node / FSEventWrap`), which is what a path through it needs to say.
    node: graph.nodeTypes[target] === graph.nodeType.synthetic ? graph.nodeName(target) : shownClassName(analysis, target, names),
    nodeType: graph.nodeTypeName(target),
    id: graph.nodeIds[target]
  }
  if (generated !== step.edge) step.generatedEdge = generated
  if (step.node !== classes.names[classOf[target]] && graph.nodeTypes[target] !== graph.nodeType.synthetic) step.generatedNode = classes.names[classOf[target]]
  const module = scopes ? moduleScriptOf(scopes, target) : null
  if (module !== null) {
    step.module = module
    const original = names.moduleName(analysis, module)
    if (original !== null) step.originalModule = original
  }
  return step
}
