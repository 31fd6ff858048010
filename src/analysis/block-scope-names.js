// Variables of a block scope: `const cache = new Map()` inside `{ }`, a class body, a loop's `let`, or
// a module a test runner wraps in a block (Vitest's `{ ... }` around each test file). V8's snapshot
// names the variables of a function's scope (context edges) but writes a block scope's as hidden
// edges, numbered over the slots that hold an object: a slot holding a small integer has no edge.
// The block's ScopeInfo lists its variables' names in slot order. When it lists as many names as
// the context has hidden edges, no slot held a small integer and the k-th edge is the k-th name;
// otherwise which name is whose cannot be told, and none is given.

/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** @type {WeakMap<HeapGraph, {scopeInfo: number, scopeInfoName: number, byContext: Map<number, string[] | null>}>} */
const perGraph = new WeakMap()

/**
 * The variable a hidden edge out of a block scope's context stands for, or null.
 * @param {HeapGraph} graph
 * @param {number} edge
 * @returns {string | null}
 */
export function blockVariableName (graph, edge) {
  if (graph.edgeTypes[edge] !== graph.edgeType.hidden) return null
  let known = perGraph.get(graph)
  if (known === undefined) {
    known = { scopeInfo: graph.strings.indexOf('scope_info'), scopeInfoName: graph.strings.indexOf('system / ScopeInfo'), byContext: new Map() }
    perGraph.set(graph, known)
  }
  if (known.scopeInfo < 0 || known.scopeInfoName < 0) return null
  const context = graph.edgeSource(edge)
  let names = known.byContext.get(context)
  if (names === undefined) {
    names = namesOf(graph, context, known.scopeInfo, known.scopeInfoName)
    known.byContext.set(context, names)
  }
  if (names === null) return null
  // The edge's place among the context's hidden edges.
  let k = 0
  for (let e = graph.firstEdge[context]; e < edge; e++) if (graph.edgeTypes[e] === graph.edgeType.hidden) k++
  return names[k] ?? null
}

/**
 * The names of a context's hidden slots, in order, when its ScopeInfo gives one per hidden edge.
 * @param {HeapGraph} graph
 * @param {number} context
 * @param {number} scopeInfo  string index of `scope_info`
 * @param {number} scopeInfoName  string index of `system / ScopeInfo`
 * @returns {string[] | null}
 */
function namesOf (graph, context, scopeInfo, scopeInfoName) {
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
  return names.length === slots ? names : null
}
