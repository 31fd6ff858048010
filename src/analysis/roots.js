// Which root children DevTools treats as user roots (heapsnapshot-format.md 4.6): the targets of
// the root's edges that are not synthetic, plus a synthetic "(Document DOM trees)" (browsers only).
// In Node that is the global object, reached by the root's shortcut edge "2"; a snapshot taken with
// exposeInternals has none, and DevTools then skips shallow-size reassignment and starts distances at 0.

/** @import {HeapGraph} from '../graph/heap-graph.js' */

const DOCUMENT_DOM_TREES = '(Document DOM trees)'

/**
 * Whether a synthetic node is the browser's "(Document DOM trees)" root.
 * @param {HeapGraph} graph
 * @param {number} ordinal
 */
export function isDocumentDomTreesRoot (graph, ordinal) {
  return graph.nodeTypes[ordinal] === graph.nodeType.synthetic && graph.nodeName(ordinal) === DOCUMENT_DOM_TREES
}

/**
 * The user roots, in the order of the root's edges, each once.
 * @param {HeapGraph} graph
 * @returns {number[]} ordinals
 */
export function findUserRoots (graph) {
  const { firstEdge, edgeTargets, nodeTypes, rootOrdinal } = graph
  /** @type {number[]} */
  const roots = []
  for (let e = firstEdge[rootOrdinal]; e < firstEdge[rootOrdinal + 1]; e++) {
    const target = edgeTargets[e]
    const user = nodeTypes[target] !== graph.nodeType.synthetic || isDocumentDomTreesRoot(graph, target)
    if (user && !roots.includes(target)) roots.push(target)
  }
  return roots
}
