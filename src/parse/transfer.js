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
  return { ...message, strings: StringTable.fromParts(message.strings) }
}
