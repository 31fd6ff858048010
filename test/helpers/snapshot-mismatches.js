// How far a parse is from an independent reading of the same snapshot by JSON.parse, for the parser's tests.

/**
 * Compares every column with an independent reading of the same file by JSON.parse.
 * @param {import('../../src/parse/snapshot-data.js').SnapshotData} data
 * @param {any} json
 */
export function mismatches (data, json) {
  const meta = json.snapshot.meta
  const nf = meta.node_fields.length
  const ef = meta.edge_fields.length
  const at = (/** @type {string} */ name) => meta.node_fields.indexOf(name)
  const [type, name, id, self, edgeCount, detached] = ['type', 'name', 'id', 'self_size', 'edge_count', 'detachedness'].map(at)
  let bad = 0
  for (let o = 0; o < data.nodeCount; o++) {
    const b = o * nf
    if (data.nodeTypes[o] !== json.nodes[b + type] || data.nodeNames[o] !== json.nodes[b + name] ||
      data.nodeIds[o] !== json.nodes[b + id] || data.selfSizes[o] !== json.nodes[b + self] ||
      data.firstEdge[o + 1] - data.firstEdge[o] !== json.nodes[b + edgeCount] ||
      data.detachedness[o] !== json.nodes[b + detached]) bad++
  }
  for (let e = 0; e < data.edgeCount; e++) {
    if (data.edgeTypes[e] !== json.edges[e * ef] || data.edgeNames[e] !== json.edges[e * ef + 1] ||
      data.edgeTargets[e] * nf !== json.edges[e * ef + 2]) bad++
  }
  if (data.strings.length !== json.strings.length) bad++
  for (let s = 0; s < json.strings.length; s++) if (data.strings.get(s) !== json.strings[s]) bad++
  if (data.locationCount * 4 !== json.locations.length) bad++
  for (let k = 0; k < json.locations.length; k++) {
    if (data.locations[k] !== (k % 4 === 0 ? json.locations[k] / nf : json.locations[k])) bad++
  }
  return bad
}
