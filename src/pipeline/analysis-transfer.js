// A HeapAnalysis crosses a thread boundary as plain data: typed arrays move (transfer, no copy),
// the graph, its string table and the location index are rebuilt around the moved columns.
import { HeapGraph } from '../graph/heap-graph.js'
import { NodeLocations } from '../graph/locations.js'
import { snapshotDataFromMessage, snapshotDataToMessage } from '../parse/transfer.js'
import { ShallowSizes } from '../analysis/shallow-sizes.js'
import { SizeColumn } from '../analysis/size-column.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {SnapshotData} from '../parse/snapshot-data.js' */

/**
 * Prepares an analysis for postMessage. The analysis must not be used by the sender afterwards.
 * @param {HeapAnalysis} analysis
 * @returns {{message: object, transferList: ArrayBuffer[]}}
 */
export function analysisToMessage (analysis) {
  const { graph, locations, shallowSizes, ...rest } = analysis
  // Class instances lose their prototype (and private fields) in a structured clone: their data goes.
  const results = { ...rest, folded: shallowSizes.folded, locations: locations.toParts() }
  /** @type {SnapshotData} */
  const data = {
    meta: graph.meta,
    label: graph.label,
    byteLength: graph.byteLength,
    nodeCount: graph.nodeCount,
    edgeCount: graph.edgeCount,
    rootOrdinal: graph.rootOrdinal,
    nodeTypeNames: graph.nodeTypeNames,
    edgeTypeNames: graph.edgeTypeNames,
    nodeTypes: graph.nodeTypes,
    nodeNames: graph.nodeNames,
    nodeIds: graph.nodeIds,
    selfSizes: graph.selfSizes,
    largeSelfSizes: graph.largeSelfSizes,
    detachedness: graph.detachedness,
    firstEdge: graph.firstEdge,
    edgeTypes: graph.edgeTypes,
    edgeNames: graph.edgeNames,
    edgeTargets: graph.edgeTargets,
    locations: graph.locations,
    locationCount: graph.locationCount,
    strings: graph.strings
  }
  const { message: graphMessage, transferList } = snapshotDataToMessage(data)
  /** @type {Set<ArrayBuffer>} */
  const buffers = new Set(transferList)
  collectBuffers(results, buffers)
  return { message: { graph: graphMessage, results }, transferList: [...buffers] }
}

/**
 * Rebuilds an analysis received from another thread.
 * @param {any} message
 * @returns {HeapAnalysis}
 */
export function analysisFromMessage (message) {
  const graph = new HeapGraph(snapshotDataFromMessage(message.graph))
  const { folded, retainedSizes, locations, ...results } = message.results
  return {
    ...results,
    graph,
    locations: new NodeLocations(graph, locations),
    shallowSizes: new ShallowSizes(graph, folded.bits, folded.any),
    retainedSizes: SizeColumn.fromData(retainedSizes)
  }
}

/**
 * The buffers behind every typed array in plain data (objects and arrays, a few levels deep).
 * @param {unknown} value
 * @param {Set<ArrayBuffer>} buffers
 */
function collectBuffers (value, buffers) {
  if (ArrayBuffer.isView(value)) {
    buffers.add(/** @type {ArrayBuffer} */ (value.buffer))
  } else if (Array.isArray(value)) {
    // Arrays of plain values (names, ordinals) hold no buffers: look at the first only.
    if (value.length > 0 && typeof value[0] === 'object') for (const item of value) collectBuffers(item, buffers)
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collectBuffers(item, buffers)
  }
}
