// Where the process's memory went, beyond the JS heap. A heap snapshot records three kinds of
// memory, told apart by node type and name (heapsnapshot-format.md):
//   - JS heap: every node that is not `native`;
//   - ArrayBuffer backing stores: native `system / JSArrayBufferData` nodes (Buffers, typed arrays),
//     counted in process.memoryUsage().arrayBuffers, outside V8's heap;
//   - native memory Node records: the embedder graph's `Node / ...` nodes (a zlib context's
//     `Node / zlib_memory`, a stream's handle), outside V8's heap; DevTools prefixes those no JS
//     object holds with `Detached `.
// The agent's sidecars add RSS, heapUsed, external, arrayBuffers and the cgroup's use, read just
// before and just after each write. RSS growth that none of these explain (the allocator keeping
// freed pages, glibc arenas, a native addon's own memory) is "the rest of RSS": the snapshot
// cannot attribute it. The RSS each write itself left is measured and never counted as growth.

import { EdgeCursor, findRetainer } from '../query/references.js'
import { formatBytes } from '../units.js'
/** @import {HeapGraph} from '../graph/heap-graph.js' */

const BACKING_STORE = 'system / JSArrayBufferData'
const DETACHED = 'Detached '
/**
 * A kind of native memory must grow by this much to be named (a few resources in flight at a
 * snapshot, a zlib stream being closed, are not growth), and in every step of the series.
 */
const MIN_KIND_GROWTH = 1024 * 1024
/** Native nodes of a kind whose holders are looked up. */
const HOLDER_SAMPLE = 200
/** Retainer hops climbed through native nodes to the JS object that holds one. */
const MAX_HOPS = 6

/**
 * @typedef {object} MemoryKinds
 * @property {number} jsHeapBytes
 * @property {number} backingStoreBytes
 * @property {number} nativeBytes
 * @property {Map<string, {count: number, bytes: number}>} nativeKinds  by name, `Detached ` removed
 * @property {number} workers  Worker handles (`Node / Worker`): each is a thread whose heap no snapshot of this one covers
 */

/**
 * Sums a snapshot's self sizes by kind of memory. One pass over the nodes.
 * @param {HeapGraph} graph
 * @returns {MemoryKinds}
 */
export function measureMemoryKinds (graph) {
  const { nodeCount, nodeTypes, nodeNames } = graph
  const native = graph.nodeType.native
  const backing = graph.strings.indexOf(BACKING_STORE)
  // Node's embedder graph has one `Node / Worker` node per Worker handle (a synthetic node).
  const worker = graph.strings.indexOf('Node / Worker')
  let workers = 0
  let jsHeapBytes = 0
  let backingStoreBytes = 0
  let nativeBytes = 0
  /** @type {Map<number, {count: number, bytes: number}>} */
  const byName = new Map()
  for (let o = 0; o < nodeCount; o++) {
    const size = graph.selfSize(o)
    if (nodeNames[o] === worker) workers++
    if (nodeTypes[o] !== native) {
      jsHeapBytes += size
    } else if (nodeNames[o] === backing) {
      backingStoreBytes += size
    } else {
      nativeBytes += size
      const entry = byName.get(nodeNames[o])
      if (entry) {
        entry.count++
        entry.bytes += size
      } else {
        byName.set(nodeNames[o], { count: 1, bytes: size })
      }
    }
  }
  /** @type {Map<string, {count: number, bytes: number}>} */
  const nativeKinds = new Map()
  for (const [name, entry] of byName) {
    const text = graph.strings.get(name)
    const kind = text.startsWith(DETACHED) ? text.slice(DETACHED.length) : text
    const sum = nativeKinds.get(kind)
    if (sum) {
      sum.count += entry.count
      sum.bytes += entry.bytes
    } else {
      nativeKinds.set(kind, { ...entry })
    }
  }
  return { jsHeapBytes, backingStoreBytes, nativeBytes, nativeKinds, workers }
}

/**
 * The JS objects that hold nodes of one native kind: for a sample of them, the first retainer
 * that is not native or synthetic, a few hops up, counted by class.
 * @param {HeapGraph} graph
 * @param {string} kind  a native node name without `Detached `
 * @returns {Array<{name: string, count: number}>} most first; `Deflate/Zlib` when a handle object
 *   (`Zlib`) is itself held by the program's object (`Deflate`)
 */
export function nativeHolders (graph, kind) {
  const { nodeCount, nodeTypes } = graph
  const native = graph.nodeType.native
  const synthetic = graph.nodeType.synthetic
  const names = new Set([graph.strings.indexOf(kind), graph.strings.indexOf(DETACHED + kind)].filter((i) => i >= 0))
  const edge = new EdgeCursor(graph)
  const fromObject = (/** @type {EdgeCursor} */ { source }) => nodeTypes[source] === graph.nodeType.object && source !== graph.rootOrdinal
  /** @type {Map<string, number>} */
  const holders = new Map()
  let sampled = 0
  for (let o = 0; o < nodeCount && sampled < HOLDER_SAMPLE; o++) {
    if (nodeTypes[o] !== native || !names.has(graph.nodeNames[o])) continue
    sampled++
    let at = o
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      let next = -1
      for (edge.retainers(at); edge.next();) {
        const from = edge.source
        const type = nodeTypes[from]
        if (type !== native && type !== synthetic && from !== graph.rootOrdinal) {
          next = from
          break
        }
        if (next === -1 && type === native) next = from
      }
      if (next === -1) break
      at = next
      if (nodeTypes[at] !== native) {
        // A handle object (zlib's `Zlib`, a `TCP`) is held by the object the program made (a
        // `Deflate`, a `Socket`): name both.
        const object = findRetainer(graph, at, fromObject)
        const name = object < 0 ? graph.nodeName(at) : `${graph.nodeName(object)}/${graph.nodeName(at)}`
        holders.set(name, (holders.get(name) ?? 0) + 1)
        break
      }
    }
  }
  return [...holders].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count)
}

/**
 * What a sidecar recorded about the process's memory around one write.
 * @typedef {object} MemoryAround
 * @property {number} rss          before the write
 * @property {number} heapUsed
 * @property {number} external     (includes arrayBuffers)
 * @property {number} arrayBuffers
 * @property {number | null} cgroupUsage  the cgroup's memory use, before the write
 * @property {number | null} heapMappingRss  RSS of the `[heap]` mapping (glibc's main arena), before the write
 * @property {number} writeRss     RSS the write left (after less before, 0 or more)
 */

/**
 * @typedef {object} NativeKindGrowth
 * @property {string} name          `Node / zlib_memory`
 * @property {number[]} counts      per snapshot
 * @property {number[]} bytes       per snapshot
 * @property {Array<{name: string, count: number}>} holders  the JS objects that hold them (last snapshot)
 */

/**
 * @typedef {object} MemorySplit
 * @property {Array<{jsHeap: number, backingStores: number, native: number, process: MemoryAround | null}>} snapshots
 * @property {{jsHeap: number, backingStores: number, native: number, rss: number | null, writeRss: number | null, rest: number | null}} growth
 *   first to last: rss is the program's RSS growth (the writes' RSS taken out), writeRss what the
 *   writes themselves left, rest the RSS growth no kind of memory in the snapshot explains
 * @property {NativeKindGrowth[]} nativeKinds  kinds of native memory that grew, most first
 * @property {number[]} workers  Worker objects per snapshot (threads whose heaps these snapshots do not cover)
 * @property {'heap' | 'native' | 'outside' | 'none'} where  what most of the growth is
 * @property {string | null} summary  one line when the growth is outside the JS heap; null otherwise
 */

/**
 * RSS growth (writes taken out) below this is noise; growth that nothing in the snapshot explains
 * must also keep on in every step, by its share of this, as a kind of native memory must: a process
 * under load takes memory while it warms up (buffers, compiled code, its allocator's arenas), once.
 */
const MIN_RSS_GROWTH = 16 * 1024 * 1024

/**
 * Splits the growth between the first and the last snapshot into the JS heap, backing stores,
 * native memory and the rest of RSS.
 * @param {HeapGraph[]} graphs  oldest first
 * @param {Array<MemoryAround | null>} around  per snapshot, from its sidecar
 * @returns {MemorySplit}
 */
export function splitMemory (graphs, around) {
  const kinds = graphs.map(measureMemoryKinds)
  const first = kinds[0]
  const last = kinds[kinds.length - 1]
  const growth = {
    jsHeap: last.jsHeapBytes - first.jsHeapBytes,
    backingStores: last.backingStoreBytes - first.backingStoreBytes,
    native: last.nativeBytes - first.nativeBytes,
    rss: /** @type {number | null} */ (null),
    writeRss: /** @type {number | null} */ (null),
    rest: /** @type {number | null} */ (null)
  }
  /** @type {number[]} per step, the RSS growth nothing in the snapshots explains */
  let restSteps = []
  if (around.every((reading) => reading !== null)) {
    const readings = /** @type {MemoryAround[]} */ (around)
    // Every write but the last happened between the first reading and the last.
    const writeRss = readings.slice(0, -1).reduce((sum, reading) => sum + reading.writeRss, 0)
    const rssGrowth = readings[readings.length - 1].rss - readings[0].rss
    growth.writeRss = writeRss
    growth.rss = rssGrowth - Math.min(writeRss, Math.max(0, rssGrowth))
    growth.rest = growth.rss - Math.max(0, growth.jsHeap) - Math.max(0, growth.backingStores) - Math.max(0, growth.native)
    restSteps = readings.slice(1).map((reading, i) => {
      const program = reading.rss - readings[i].rss - readings[i].writeRss
      return program - Math.max(0, kinds[i + 1].jsHeapBytes - kinds[i].jsHeapBytes) - Math.max(0, kinds[i + 1].backingStoreBytes - kinds[i].backingStoreBytes) - Math.max(0, kinds[i + 1].nativeBytes - kinds[i].nativeBytes)
    })
  }
  /** @type {NativeKindGrowth[]} */
  const nativeKinds = []
  for (const [name, { bytes }] of last.nativeKinds) {
    const before = first.nativeKinds.get(name)?.bytes ?? 0
    if (bytes - before < MIN_KIND_GROWTH) continue
    const steps = kinds.map((k) => k.nativeKinds.get(name)?.bytes ?? 0)
    if (steps.some((value, i) => i > 0 && value <= steps[i - 1])) continue
    nativeKinds.push({
      name,
      counts: kinds.map((k) => k.nativeKinds.get(name)?.count ?? 0),
      bytes: kinds.map((k) => k.nativeKinds.get(name)?.bytes ?? 0),
      holders: nativeHolders(graphs[graphs.length - 1], name).slice(0, 3)
    })
  }
  nativeKinds.sort((a, b) => (b.bytes.at(-1) ?? 0) - (b.bytes[0] ?? 0) - ((a.bytes.at(-1) ?? 0) - (a.bytes[0] ?? 0)))
  const outsideHeap = Math.max(0, growth.native) + Math.max(0, growth.backingStores)
  const rest = Math.max(0, growth.rest ?? 0)
  const restGrows = rest >= MIN_RSS_GROWTH && restSteps.every((step) => step >= MIN_RSS_GROWTH / restSteps.length)
  const heap = Math.max(0, growth.jsHeap)
  /** @type {MemorySplit['where']} */
  let where = 'none'
  const largest = Math.max(heap, outsideHeap, rest)
  if (largest >= MIN_KIND_GROWTH) where = largest === heap ? 'heap' : largest === outsideHeap ? 'native' : restGrows ? 'outside' : 'heap'
  const split = { snapshots: kinds.map((k, i) => ({ jsHeap: k.jsHeapBytes, backingStores: k.backingStoreBytes, native: k.nativeBytes, process: around[i] ?? null })), growth, nativeKinds, workers: kinds.map((k) => k.workers), where, summary: /** @type {string | null} */ (null) }
  split.summary = summarize(split, restGrows)
  return split
}

/** @param {number} bytes */
function mb (bytes) {
  return formatBytes(bytes, { sign: true })
}

/**
 * One line when the growth is outside the JS heap: what the snapshot can attribute, and for the
 * rest what to try. Null when the JS heap holds most of it.
 * @param {Omit<MemorySplit, 'summary'>} split
 * @param {boolean} restGrows  whether the RSS nothing explains grew, in every step
 * @returns {string | null}
 */
function summarize ({ growth, nativeKinds, where, snapshots, workers }, restGrows) {
  if (where !== 'native' && where !== 'outside') return null
  const parts = []
  const rss = growth.rss === null ? '' : `RSS ${mb(growth.rss)}${growth.writeRss ? ` (not counting ${formatBytes(growth.writeRss)} the snapshot writes left)` : ''}, `
  const head = `memory outside the JS heap grows: ${rss}JS heap ${mb(growth.jsHeap)}`
  for (const kind of nativeKinds.slice(0, 2)) {
    const holder = kind.holders[0]
    parts.push(`native memory ${mb((kind.bytes.at(-1) ?? 0) - kind.bytes[0])} in ${kind.name} (${kind.counts[0]} → ${kind.counts.at(-1)})${holder ? ` held by ${holder.name.split('/')[0]} objects: end, close or destroy each when its work is done` : ''}`)
  }
  if (growth.backingStores >= MIN_KIND_GROWTH) parts.push(`ArrayBuffer/Buffer stores ${mb(growth.backingStores)} (the growth rows name their holders)`)
  const moreWorkers = (workers.at(-1) ?? 0) - workers[0]
  if (restGrows && moreWorkers > 0) {
    parts.push(`${moreWorkers} more worker threads (${workers[0]} → ${workers.at(-1)}), each with a heap and an isolate of its own that no snapshot of this thread covers: terminate() the ones that are done, and diff each worker's own series (the agent runs in workers too)`)
  }
  if (restGrows) {
    const first = snapshots[0].process?.heapMappingRss
    const last = snapshots[snapshots.length - 1].process?.heapMappingRss
    const mapping = typeof first === 'number' && typeof last === 'number' ? ` (the [heap] mapping, glibc's main arena, went ${mb(last - first)})` : ''
    parts.push(`${mb(growth.rest ?? 0)} of RSS is in nothing the snapshot records${mapping}: ${moreWorkers > 0 ? 'those threads, ' : ''}the allocator keeping freed memory (glibc arenas: try MALLOC_ARENA_MAX=2, or jemalloc through LD_PRELOAD), or a native addon's own memory`)
  }
  return `${head}; ${parts.join('; ')}`
}
