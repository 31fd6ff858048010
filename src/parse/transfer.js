import { StringTable } from './string-table.js'
/** @import {SnapshotData} from './snapshot-data.js' */

const COLUMNS = /** @type {const} */ (['nodeTypes', 'nodeNames', 'nodeIds', 'selfSizes', 'detachedness', 'firstEdge', 'edgeTypes', 'edgeNames', 'edgeTargets', 'locations'])

/**
 * Prepares parsed data for postMessage: the columns move (transfer), nothing is copied.
 * The data must not be used by the sender afterwards.
 * @param {SnapshotData} data
 * @returns {{message: object, transferList: ArrayBuffer[]}}
 */
export function snapshotDataToMessage (data) {
  const strings = data.strings.toParts()
  const message = { ...data, strings }
  /** @type {Set<ArrayBuffer>} */
  const buffers = new Set()
  for (const name of COLUMNS) buffers.add(/** @type {ArrayBuffer} */ (data[name].buffer))
  buffers.add(/** @type {ArrayBuffer} */ (strings.bytes.buffer))
  buffers.add(/** @type {ArrayBuffer} */ (strings.starts.buffer))
  return { message, transferList: [...buffers] }
}

/**
 * Rebuilds parsed data received from another thread.
 * @param {any} message
 * @returns {SnapshotData}
 */
export function snapshotDataFromMessage (message) {
  const { nodeTypeNames, edgeTypeNames, largeSelfSizes } = message
  return {
    ...message,
    // Made again as a parse on this thread makes them (packed arrays, an object of the parser's
    // shape): a structured clone makes holey arrays and objects of other hidden classes, and code
    // V8 optimized for one graph would be thrown away at the next (a diff analyses snapshots
    // parsed here and in workers, one after the other).
    nodeTypeNames: Array.of(...nodeTypeNames),
    edgeTypeNames: Array.of(...edgeTypeNames),
    largeSelfSizes: { ordinals: largeSelfSizes.ordinals, sizes: largeSelfSizes.sizes },
    strings: StringTable.fromParts(message.strings)
  }
}
