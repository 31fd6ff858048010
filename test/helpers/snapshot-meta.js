// The `snapshot.meta` V8 writes (Node 20), for snapshots a test writes by hand.
export const META = {
  node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
  node_types: [['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic'], 'string', 'number', 'number', 'number', 'number', 'number'],
  edge_fields: ['type', 'name_or_index', 'to_node'],
  edge_types: [['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'], 'string_or_number', 'node'],
  location_fields: ['object_index', 'script_id', 'line', 'column']
}
