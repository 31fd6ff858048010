import { SnapshotFormatError } from '../errors.js'
/** @import {SnapshotMeta} from './snapshot-data.js' */

// Codes for the columns a field's values go to. Anything else in a row is skipped, so a V8 that adds
// a field keeps working; a V8 that drops one we need gets a clear error.
export const SKIP = 0
export const NODE_TYPE = 1
export const NODE_NAME = 2
export const NODE_ID = 3
export const NODE_SELF_SIZE = 4
export const NODE_EDGE_COUNT = 5
export const NODE_DETACHEDNESS = 6
export const EDGE_TYPE = 1
export const EDGE_NAME = 2
export const EDGE_TO_NODE = 3
export const LOCATION_OBJECT = 1
export const LOCATION_SCRIPT = 2
export const LOCATION_LINE = 3
export const LOCATION_COLUMN = 4

const MAX_ROWS = 2 ** 32 - 1

/**
 * @typedef {object} SnapshotHeader
 * @property {SnapshotMeta} meta
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} nodeFieldCount
 * @property {number} edgeFieldCount
 * @property {number} locationFieldCount
 * @property {Uint8Array} nodeFieldCodes      one code per node field
 * @property {Uint8Array} edgeFieldCodes
 * @property {Uint8Array} locationFieldCodes
 * @property {string[]} nodeTypeNames
 * @property {string[]} edgeTypeNames
 * @property {{typeAt: number, nameAt: number, idAt: number, selfAt: number, edgeCountAt: number, detachedAt: number}} nodeFieldAt
 *   position of each field in a node row (-1 when absent)
 * @property {{typeAt: number, nameAt: number, toAt: number}} edgeFieldAt
 * @property {Uint8Array} numericEdgeName     per edge type: 1 when name_or_index is a number (element, hidden)
 * @property {number} rootIndex               node index (not ordinal) of the root
 */

/**
 * Validates the `snapshot` object of a heap snapshot and works out where each field's values go.
 * @param {string} text the JSON text of the `snapshot` value
 * @param {{label: string, offset: number}} where for error messages
 * @returns {SnapshotHeader}
 */
export function readHeader (text, { label, offset }) {
  /** @param {string} message */
  const fail = (message) => new SnapshotFormatError(message, { file: label, offset })
  let header
  try {
    header = JSON.parse(text)
  } catch (error) {
    throw new SnapshotFormatError(`the "snapshot" header is not valid JSON (${/** @type {Error} */ (error).message})`, { file: label, offset, cause: error })
  }
  if (!isObject(header) || !isObject(header.meta)) throw fail('not a V8 heap snapshot: "snapshot.meta" is missing')
  const meta = header.meta
  const nodeFields = stringList(meta.node_fields)
  const edgeFields = stringList(meta.edge_fields)
  // node_types[i] describes node_fields[i]: the type names are at the position of the `type`
  // field, which is 0 only in the order V8 writes (DevTools reads them the same way).
  const nodeTypeNames = stringList(typesOf(meta.node_types, nodeFields?.indexOf('type')))
  const edgeTypeNames = stringList(typesOf(meta.edge_types, edgeFields?.indexOf('type')))
  if (!nodeFields || !edgeFields || !nodeTypeNames || !edgeTypeNames) {
    throw fail('unknown snapshot.meta layout: expected string lists node_fields and edge_fields, and in node_types and edge_types the type names at the position of the "type" field')
  }
  if (nodeTypeNames.length > 255 || edgeTypeNames.length > 255) throw fail('unknown snapshot.meta layout: more than 255 node or edge types')
  const nodeFieldCodes = fieldCodes(nodeFields, {
    type: NODE_TYPE, name: NODE_NAME, id: NODE_ID, self_size: NODE_SELF_SIZE, edge_count: NODE_EDGE_COUNT, detachedness: NODE_DETACHEDNESS
  }, ['type', 'name', 'id', 'self_size', 'edge_count'], 'node_fields', fail)
  const edgeFieldCodes = fieldCodes(edgeFields, {
    type: EDGE_TYPE, name_or_index: EDGE_NAME, to_node: EDGE_TO_NODE
  }, ['type', 'name_or_index', 'to_node'], 'edge_fields', fail)
  const locationFields = stringList(meta.location_fields) ?? ['object_index', 'script_id', 'line', 'column']
  const locationFieldCodes = fieldCodes(locationFields, {
    object_index: LOCATION_OBJECT, script_id: LOCATION_SCRIPT, line: LOCATION_LINE, column: LOCATION_COLUMN
  }, ['object_index', 'script_id', 'line', 'column'], 'location_fields', fail)

  const nodeCount = header.node_count
  const edgeCount = header.edge_count
  if (!isCount(nodeCount) || !isCount(edgeCount)) {
    throw fail(`expected non-negative integer node_count and edge_count, got ${JSON.stringify(nodeCount)} and ${JSON.stringify(edgeCount)}`)
  }
  if (nodeCount === 0) throw fail('node_count is 0: a heap snapshot has at least its root node')
  // Edge positions are 32-bit (firstEdge), as are node ordinals; V8 writes neither past 2^32 either.
  if (nodeCount >= MAX_ROWS || edgeCount >= MAX_ROWS) {
    throw fail(`node_count ${nodeCount} and edge_count ${edgeCount}: a snapshot has at most ${MAX_ROWS - 1} nodes and as many edges`)
  }
  const rootIndex = header.root_index ?? 0
  if (!isCount(rootIndex) || rootIndex % nodeFields.length !== 0 || rootIndex / nodeFields.length >= nodeCount) {
    throw fail(`root_index ${JSON.stringify(rootIndex)} is not a node index`)
  }
  const numericEdgeName = new Uint8Array(edgeTypeNames.length)
  for (let i = 0; i < edgeTypeNames.length; i++) {
    numericEdgeName[i] = edgeTypeNames[i] === 'element' || edgeTypeNames[i] === 'hidden' ? 1 : 0
  }
  return {
    meta: /** @type {SnapshotMeta} */ (meta),
    nodeCount,
    edgeCount,
    nodeFieldCount: nodeFields.length,
    edgeFieldCount: edgeFields.length,
    locationFieldCount: locationFields.length,
    nodeFieldCodes,
    edgeFieldCodes,
    locationFieldCodes,
    nodeTypeNames,
    edgeTypeNames,
    numericEdgeName,
    nodeFieldAt: {
      typeAt: nodeFields.indexOf('type'),
      nameAt: nodeFields.indexOf('name'),
      idAt: nodeFields.indexOf('id'),
      selfAt: nodeFields.indexOf('self_size'),
      edgeCountAt: nodeFields.indexOf('edge_count'),
      detachedAt: nodeFields.indexOf('detachedness')
    },
    edgeFieldAt: {
      typeAt: edgeFields.indexOf('type'),
      nameAt: edgeFields.indexOf('name_or_index'),
      toAt: edgeFields.indexOf('to_node')
    },
    rootIndex
  }
}

/**
 * @param {string[]} fields
 * @param {Record<string, number>} codes
 * @param {string[]} required
 * @param {string} what
 * @param {(message: string) => Error} fail
 */
function fieldCodes (fields, codes, required, what, fail) {
  for (const name of required) {
    if (!fields.includes(name)) throw fail(`unknown snapshot.meta layout: ${what} lacks "${name}" (has ${fields.join(', ')})`)
  }
  const result = new Uint8Array(fields.length)
  for (let i = 0; i < fields.length; i++) result[i] = Object.hasOwn(codes, fields[i]) ? codes[fields[i]] : SKIP
  return result
}

/**
 * The entry of a `node_types` or `edge_types` list for the field at `at`.
 * @param {unknown} types
 * @param {number | undefined} at
 */
function typesOf (types, at) {
  return Array.isArray(types) && at !== undefined && at >= 0 ? types[at] : undefined
}

/** @param {unknown} value @returns {value is Record<string, any>} */
function isObject (value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** @param {unknown} value @returns {string[] | undefined} */
function stringList (value) {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string') ? value : undefined
}

/** @param {unknown} value @returns {value is number} */
function isCount (value) {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}
