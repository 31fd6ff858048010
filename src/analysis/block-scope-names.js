// Variables of a block scope: `const cache = new Map()` inside `{ }`, a class body, a loop's `let`, or
// a module a test runner wraps in a block (Vitest's `{ ... }` around each test file). V8's snapshot
// names the variables of a function's scope (context edges) but writes a block scope's as hidden
// edges, numbered over the slots that hold an object: a slot holding a small integer has no edge.
// The block's ScopeInfo lists its variables' names in slot order. When it lists as many names as
// the context has hidden edges, no slot held a small integer and the k-th edge is the k-th name;
// otherwise the k-th edge is one of the names from the k-th to as many past it as slots have no
// edge (blockSlotCandidates), and the names resolver may tell which from the script's text.

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/**
 * A block context's variable names in slot order, and how many hidden edges it has.
 * @typedef {{names: string[], slots: number}} BlockScope
 */

/** @type {WeakMap<HeapGraph, {scopeInfo: number, scopeInfoName: number, byContext: Map<number, BlockScope | null>}>} */
const perGraph = new WeakMap()

/**
 * The variable a hidden edge out of a block scope's context stands for, or null.
 * @param {HeapGraph} graph
 * @param {number} edge
 * @returns {string | null}
 */
export function blockVariableName (graph, edge) {
  const found = slotOf(graph, edge)
  return found === null || found.scope.names.length !== found.scope.slots ? null : found.scope.names[found.k] ?? null
}

/**
 * The names a hidden edge out of a block scope's context may stand for when its slots and names do
 * not pair up: from the edge's own position among the names to as many past it as slots have no
 * edge. Null when they pair up (blockVariableName names it) or the edge is no such slot.
 * @param {HeapGraph} graph
 * @param {number} edge
 * @returns {string[] | null}
 */
export function blockSlotCandidates (graph, edge) {
  const found = slotOf(graph, edge)
  if (found === null) return null
  const { names, slots } = found.scope
  return names.length === slots ? null : names.slice(found.k, found.k + names.length - slots + 1)
}

/**
 * The block scope a hidden edge comes out of, and the edge's place among its hidden edges.
 * @param {HeapGraph} graph
 * @param {number} edge
 * @returns {{scope: BlockScope, k: number} | null}
 */
function slotOf (graph, edge) {
  if (graph.edgeTypes[edge] !== graph.edgeType.hidden) return null
  let known = perGraph.get(graph)
  if (known === undefined) {
    known = { scopeInfo: graph.strings.indexOf('scope_info'), scopeInfoName: graph.strings.indexOf('system / ScopeInfo'), byContext: new Map() }
    perGraph.set(graph, known)
  }
  if (known.scopeInfo < 0 || known.scopeInfoName < 0) return null
  const context = graph.edgeSource(edge)
  let scope = known.byContext.get(context)
  if (scope === undefined) {
    scope = scopeOf(graph, context, known.scopeInfo, known.scopeInfoName)
    known.byContext.set(context, scope)
  }
  if (scope === null) return null
  let k = 0
  for (let e = graph.firstEdge[context]; e < edge; e++) if (graph.edgeTypes[e] === graph.edgeType.hidden) k++
  return { scope, k }
}

/**
 * The names a context's ScopeInfo lists and the context's hidden edges; null when it has no
 * ScopeInfo, no hidden edge, or fewer names than hidden edges (then it is no block scope's).
 * @param {HeapGraph} graph
 * @param {number} context
 * @param {number} scopeInfo  string index of `scope_info`
 * @param {number} scopeInfoName  string index of `system / ScopeInfo`
 * @returns {BlockScope | null}
 */
function scopeOf (graph, context, scopeInfo, scopeInfoName) {
  const { firstEdge, edgeTypes, edgeNames, edgeTargets, nodeNames, nodeTypes } = graph
  const { hidden, internal } = graph.edgeType
  let info = -1
  let slots = 0
  for (let e = firstEdge[context]; e < firstEdge[context + 1]; e++) {
    if (edgeTypes[e] === internal && edgeNames[e] === scopeInfo) info = edgeTargets[e]
    else if (edgeTypes[e] === hidden) slots++
  }
  if (info < 0 || slots === 0 || nodeNames[info] !== scopeInfoName) return null
  // The ScopeInfo's first hidden edges lead to the names; what follows (its outer ScopeInfo) is not a string.
  /** @type {string[]} */
  const names = []
  for (let e = firstEdge[info]; e < firstEdge[info + 1]; e++) {
    if (edgeTypes[e] !== hidden) continue
    const target = edgeTargets[e]
    if (nodeTypes[target] !== graph.nodeType.string) break
    names.push(graph.nodeName(target))
  }
  return names.length >= slots ? { names, slots } : null
}
