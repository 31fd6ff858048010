/** @import {StringTable} from './string-table.js' */
/** @import {LargeSizes} from './large-sizes.js' */

/**
 * `snapshot.meta` as V8 writes it. Field and enum tables are read from here, never hard-coded.
 * @typedef {object} SnapshotMeta
 * @property {string[]} node_fields
 * @property {[string[], ...string[]]} node_types  per node field: the enum of node type names at the `type` field (0 in V8)
 * @property {string[]} edge_fields
 * @property {[string[], ...string[]]} edge_types  per edge field: the enum of edge type names at the `type` field (0 in V8)
 * @property {string[]} [location_fields]
 */

/**
 * A parsed heap snapshot: one typed array per field ("columns"), indexed by node ordinal or edge
 * number, nothing per node.
 *
 * The file stores rows (`nodes` = 7 ints per node, `edges` = 3 ints per edge, in Node 20); the parser
 * writes each value straight into its column, so the row arrays never exist. That keeps a node at
 * 22 bytes and an edge at 9 bytes (the row form costs 28 and 12, and converting later would hold both
 * at once). Columns are chosen by field *name* from `meta`; unknown fields are skipped.
 *
 *   node ordinal o:  nodeTypes[o]  nodeNames[o]  nodeIds[o]  selfSizes[o]  detachedness[o]
 *                    outgoing edges: e in [firstEdge[o], firstEdge[o + 1])
 *   edge e:          edgeTypes[e]  edgeNames[e]  edgeTargets[e] (an ordinal, not the file's index)
 *
 * `edgeNames[e]` is an index into `strings`, except for `element` and `hidden` edges, where it is the
 * number itself (array index / slot counter), as in the file.
 *
 * @typedef {object} SnapshotData
 * @property {SnapshotMeta} meta
 * @property {string[]} nodeTypeNames  meta.node_types at the `type` field
 * @property {string[]} edgeTypeNames  meta.edge_types at the `type` field
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {Uint8Array} nodeTypes      index into nodeTypeNames
 * @property {Uint32Array} nodeNames     index into strings
 * @property {Uint32Array} nodeIds       V8 SnapshotObjectId
 * @property {Uint32Array} selfSizes     self_size in bytes; LARGE_SIZE (2^32 - 1) marks a size kept in largeSelfSizes
 * @property {LargeSizes} largeSelfSizes  the exact self sizes of 2^32 - 1 bytes and more (V8 keeps 48 bits), usually none
 * @property {Uint8Array} detachedness   0 unknown, 1 attached, 2 detached (all 0 when the field is absent)
 * @property {Uint32Array} firstEdge     nodeCount + 1 prefix sums of edge_count
 * @property {Uint8Array} edgeTypes      index into edgeTypeNames
 * @property {Uint32Array} edgeNames     string index, or the number for element/hidden edges
 * @property {Uint32Array} edgeTargets   target node ordinal
 * @property {Uint32Array} locations     4 values per record: node ordinal, script_id, line, column (0-based)
 * @property {number} locationCount
 * @property {StringTable} strings
 * @property {number} rootOrdinal        snapshot.root_index / node field count (0 in every V8 snapshot)
 * @property {number} byteLength         bytes read (after decompression)
 * @property {string} label              file path or stream label, for messages
 */

export {}
