// Header bombs: snapshots of a few hundred bytes whose header claims billions of rows, for the
// tests that they are refused before memory is taken for the claim.

/**
 * A snapshot of a few hundred bytes whose header claims `nodeCount` nodes and `edgeCount` edges.
 * @param {number} nodeCount
 * @param {number} edgeCount
 */
export function bomb (nodeCount, edgeCount) {
  const snapshot = {
    meta: {
      node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
      node_types: [['hidden', 'object'], 'string', 'number', 'number', 'number', 'number', 'number'],
      edge_fields: ['type', 'name_or_index', 'to_node'],
      edge_types: [['element', 'property'], 'string_or_number', 'node'],
      location_fields: ['object_index', 'script_id', 'line', 'column']
    },
    node_count: nodeCount,
    edge_count: edgeCount
  }
  return Buffer.from(`{"snapshot":${JSON.stringify(snapshot)},\n"nodes":[0,0,1,0,0,0,0,`)
}
