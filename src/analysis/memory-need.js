// How much memory an analysis will take, from the snapshots' headers: the CLI compares it with what
// the machine or container has left and refuses a job that cannot fit before it starts, instead of
// being killed by the kernel halfway (exit 137), or making the kernel kill a neighbour, the service
// itself when leakdiff runs in its container.
//
// The model is the memory table of docs/benchmarks.md: per snapshot the parser's columns (18 B per
// node, 9 B per edge), the analysis arrays (18 B per node) and the strings, about the bytes of the
// file that are not node or edge rows; on top, 62 MB for node itself and 16 MB that any analysis
// adds whatever its size (code, the JS heap's growth, read buffers). `inspect` keeps 4 B per node in
// hand for its report (the paths' first edges go into memory the analysis is done with), and 12 B
// more for its readable paths (retainer-paths.js: anchor levels, their BFS queue, each node's step
// from its anchor; counted, not measured); the diff
// adds the matching of ids and the owner groups. For `leakdiff inspect` it lands 4% below the
// measured peak at 20 MB, within 2.5% either way at 201 MB (the peak moves with the garbage
// collector) and 6% above at 1 GB; the diff was measured within 6% (201 MB to 2.1 GB, and three
// 1 GB snapshots) and counts more per node since. A heap whose dominators need Lengauer–Tarjan
// (lengauer-tarjan.js: a chain of a million links, or iterative passes that do not settle) takes
// more than this: 75 MB more at the peak of `leakdiff inspect` of the 237 MB bench snapshot (2.87
// million nodes), 26 B per node (lengauerTarjanBytes).

/** @import {SnapshotCounts} from '../parse/read-header.js' */

const BASE_BYTES = 62e6
const RUNNING_BYTES = 16e6
const BYTES_PER_NODE = 36
const BYTES_PER_EDGE = 9
// Text a node row and an edge row take in V8's output, on average (the bench's heaps).
const TEXT_PER_NODE = 28
const TEXT_PER_EDGE = 14
const EXTRA_PER_NODE = { inspect: 16, diff: 35 }
const LENGAUER_TARJAN_PER_NODE = 26

/**
 * Peak memory of an analysis (`leakdiff inspect`, or the diff of `snapshots`), in bytes.
 * @param {SnapshotCounts[]} snapshots
 * @param {'inspect' | 'diff'} job
 */
export function estimateMemory (snapshots, job) {
  let bytes = BASE_BYTES + (snapshots.length > 0 ? RUNNING_BYTES : 0)
  for (const { nodeCount, edgeCount, textBytes } of snapshots) {
    const strings = Math.max(0, textBytes - TEXT_PER_NODE * nodeCount - TEXT_PER_EDGE * edgeCount)
    bytes += (BYTES_PER_NODE + EXTRA_PER_NODE[job]) * nodeCount + BYTES_PER_EDGE * edgeCount + strings
  }
  return bytes
}

/**
 * What Lengauer–Tarjan adds to the peak of an inspect or a diff when it finds the dominators instead
 * of the iterative passes: for the largest snapshot, as a diff analyses its snapshots one after the
 * other (analyze-in-parallel.js).
 * @param {SnapshotCounts[]} snapshots
 */
export function lengauerTarjanBytes (snapshots) {
  return LENGAUER_TARJAN_PER_NODE * Math.max(0, ...snapshots.map(({ nodeCount }) => nodeCount))
}
