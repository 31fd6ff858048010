// The report model: the one shape that `--format json` prints, the renderers and the gates read,
// and schema/report.schema.json describes (schemaVersion 1). Nothing internal crosses it: every
// field is named here and copied from the analysis by hand, so that a field renamed in diff/,
// signatures/ or sources/ breaks the type check or a schema test instead of changing the JSON.
// Keys are written in the order the JSON has always had them.
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {ClassDelta} from '../diff/class-deltas.js' */
/** @import {GrowthGroup} from '../diff/growth-groups.js' */
/** @import {AllocatedAt as AllocationTie, AllocationStack as TiedStack, FrameLocation} from '../diff/alloc-stacks.js' */
/** @import {Finding as SignatureFinding, FindingEvidence, SourceLocation as FoundLocation, SourceLines as FoundLines} from '../signatures/finding.js' */
/** @import {GrowthRate} from './growth-rate.js' */
/** @import {WatchTriggerMeta} from './sidecars.js' */
/** @import {AllocationsReport} from './allocated-at.js' */
/** @import {MemorySplit, MemoryAround} from '../diff/memory-split.js' */

export const SCHEMA_VERSION = 1

/**
 * One hop of a retainer path from the GC roots.
 * @typedef {object} PathStep
 * @property {string} edge      property, variable or internal name, or the index as text
 * @property {string} edgeType  `property`, `context`, `element`, `internal`, `hidden`, `shortcut`, `elided`
 * @property {string} node      class name of the node the edge leads to, as the class table names it
 * @property {string} nodeType  `object`, `closure`, ... (`elided` for the step standing for a long middle)
 * @property {number} id        V8 id of that node (0 for an elided step)
 * @property {string} [generatedEdge]  a variable a minifier renamed: its name in the code that ran
 * @property {string} [generatedNode]  a class a minifier renamed: its name in the code that ran
 * @property {string} [module]  the node is the module scope of this script (a URL as V8 names it)
 * @property {string} [originalModule]  with `module`: the source file that script was compiled from
 */

/**
 * @typedef {object} Owner
 * @property {number} id
 * @property {string} name
 * @property {string} type
 * @property {string} [generatedName]  the class's name in the code that ran, when a minifier renamed it
 */

/**
 * @typedef {object} SnapshotInfo
 * @property {string} path
 * @property {number} bytes
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} totalSize
 * @property {string | null} takenAt  ISO time: the sidecar's capture time, else the file's
 *   modification time (null for streams)
 * @property {'sidecar' | 'mtime' | null} takenAtSource
 * @property {number | null} pid          from the sidecar (null without one)
 * @property {string | null} hostname     from the sidecar
 * @property {string | null} nodeVersion  from the sidecar
 * @property {number | null} heapUsed     bytes, from the sidecar (V8's used heap before the write)
 * @property {number | null} rss          bytes, from the sidecar
 */

/**
 * @typedef {object} ClassRow  a class in the first snapshot against the last (DevTools' Comparison view)
 * @property {string} name
 * @property {number} newCount
 * @property {number} deletedCount
 * @property {number} countDelta
 * @property {number} sizeDelta          shallow bytes allocated minus shallow bytes freed
 * @property {number} retainedSizeDelta
 * @property {string} [generatedName]    the class's name in the code that ran, when a minifier renamed it
 */

/**
 * @typedef {object} HeldClass  leaked objects of one class under a growth row
 * @property {string} name
 * @property {number} count
 * @property {number} size    bytes
 * @property {string} [generatedName]
 */

/**
 * An owner (or a group of owners on one path) whose new objects grew.
 * @typedef {object} GrowthRow
 * @property {Owner} owner             the group's largest owner
 * @property {PathStep[]} path         its retainer path
 * @property {number} ownerCount
 * @property {number} leakedObjects    allocated after the baseline and alive in the last snapshot
 * @property {number} leakedBytes      their shallow sizes
 * @property {number} recentObjects    allocated in the last step (three snapshots; 0 with two)
 * @property {number} recentBytes
 * @property {number} retainedBefore  owners' retained sizes in the first snapshot
 * @property {number | null} retainedMiddle  in the middle snapshot (null with two)
 * @property {number} retainedAfter   in the last snapshot
 * @property {HeldClass[]} classes     leaked objects by class, largest first
 * @property {number} entries          new objects held as entries of the owners themselves
 * @property {{name: string, count: number} | null} entryClass  the most common class among them
 * @property {boolean} leak            whether the row passes the growth thresholds
 * @property {Array<{ownerId: number, objects: number, bytes: number}>} sharedWith  other leaking
 *   rows holding most of this row's new objects too
 * @property {string} pathText         `path` folded for people, as the text report prints it
 */

/**
 * The evidence behind a finding. The declared part is the same for every signature: `counts` are
 * what it counts (one per snapshot, oldest first), `retained` the owners' retained bytes per
 * snapshot, `notes` its facts as short phrases. The optional declared fields are those a
 * renderer or the report layer reads. Any other key is the signature's own record (a JSON value:
 * `event`, `newTimers`, `capturedVariables`, ...), carried as the signature wrote it, in its order;
 * the schema does not fix those, so programs should read the declared part.
 * @typedef {object} DeclaredEvidence
 * @property {string} unit           what `counts` count: 'listeners', 'entries', ...
 * @property {number[]} counts
 * @property {number[]} retained     bytes
 * @property {number} perStep        average growth of `counts` per step
 * @property {number} ownerCount     owners behind the finding
 * @property {string[]} notes        short phrases, one per card line, in reading order
 * @property {string | null} [locationRole]  what the code at the location is: 'listener', 'module scope', ...
 * @property {string[]} [keepsAlive]   what each listener keeps alive
 * @property {number} [bytesPerListener]
 * @property {number} [bytesPerEntry]
 * @property {string[]} [keyClasses]   a collection's key classes
 * @property {string[]} [valueClasses] its value classes
 * @property {number} [bytesPerElement]
 * @property {string[]} [elementClasses]  an array's element classes
 * @property {string} [holderClass]    the class of the object that holds the records
 */

/**
 * The declared part, and the signature's own keys: JSON values (null, booleans, numbers, strings,
 * arrays and objects of them), unknown to the model until read.
 * @typedef {DeclaredEvidence & {[key: string]: unknown}} Evidence
 */

/**
 * @typedef {object} Position
 * @property {string} file
 * @property {number} line    1-based
 * @property {number} column  1-based
 */

/**
 * Where a finding's code is, for people: 1-based; the file relative to the working directory.
 * @typedef {object} Location
 * @property {string} file
 * @property {number} line
 * @property {number} column
 * @property {string} function  '' when anonymous
 * @property {Position} [generated]  where the code that ran is, when the location was mapped
 *   through a source map (file, line and column above are then the original's)
 * @property {Position & {snippet: string | null}} [original]  the source as written, and its line
 * @property {string} [generatedFunction]  its name in the code that ran, when a minifier renamed it
 */

/**
 * @typedef {object} SourceLines  lines of the script that ran around an unmapped location
 * @property {string} file
 * @property {number} start   1-based number of `lines[0]`
 * @property {string[]} lines
 */

/**
 * A frame of an allocation stack: `line` is the calling line when `callLine`, else the function's start.
 * @typedef {object} Frame
 * @property {string} file     `(native)` for native code
 * @property {number} line     1-based; 0 for native code, which has no position
 * @property {number} column   1-based; 0 likewise
 * @property {string} function
 * @property {'user' | 'library' | 'node' | 'native'} kind
 * @property {boolean} callLine
 * @property {Position} [generated]
 * @property {Position & {snippet: string | null}} [original]
 * @property {string} [generatedFunction]
 */

/**
 * @typedef {object} StackRow  one allocation site whose live sampled bytes grew
 * @property {Frame[]} frames  the allocating frame first
 * @property {number} bytes    sampled bytes allocated after the first snapshot, alive at the last
 * @property {number} samples
 * @property {number[]} steps  per step between snapshots
 * @property {number} callers  the ways the site was called that the samples were summed over
 */

/**
 * @typedef {object} AllocatedAt  the growing allocation stacks tied to a finding
 * @property {Frame | null} site  the user's own frame on the largest tied stack
 * @property {number} bytes
 * @property {number} samples
 * @property {string[]} basis     what the tie rests on
 * @property {StackRow[]} stacks  most bytes first
 */

/**
 * One named leak.
 * @typedef {object} Finding
 * @property {string} signature   a stable id, never renamed
 * @property {string} title
 * @property {number} confidence  0..1
 * @property {string[]} reasons
 * @property {Owner} owner
 * @property {PathStep[]} path
 * @property {Evidence} evidence
 * @property {Location | null} location
 * @property {{summary: string, snippet: string}} fix
 * @property {AllocatedAt | null} [allocatedAt]  with allocation profiles (null: nothing tied)
 * @property {SourceLines | null} [source]  lines around an unmapped location, when its text is known
 * @property {NativeHold} [native]  the entries hold native memory that grew; `fix` then releases each resource
 */

/**
 * @typedef {object} NativeHold  native memory a finding's entries hold (diff/memory-split.js)
 * @property {string} kind       the native node kind, as the snapshot names it (`Node / zlib_memory`)
 * @property {string} holder     the class of the entries that hold it (`Deflate`)
 * @property {number} bytes      the kind's growth, first snapshot to last
 * @property {number} bytesEach  bytes each holder keeps, in the last snapshot
 */

/**
 * @typedef {object} Process  the one process every sidecar names
 * @property {number | null} pid
 * @property {string | null} hostname
 * @property {string | null} nodeVersion
 * @property {string | null} script
 * @property {Thread} [thread]  the worker thread whose heap the snapshots are; absent for the main thread
 */

/**
 * @typedef {object} Thread
 * @property {number} id           the thread id (0 is the main thread)
 * @property {boolean} main
 * @property {string | null} file  the worker's script
 * @property {string | null} name  the name given to the Worker
 */

/**
 * @typedef {object} Rate  retained growth per minute, from the sidecars' times
 * @property {number} bytes
 * @property {number} minutes
 * @property {number} bytesPerMinute
 * @property {RateLimit | null} limit  the nearest limit at its own pace; null when the verdict is clean
 */

/**
 * @typedef {object} RateLimit
 * @property {'heap' | 'memory'} kind
 * @property {number} bytes
 * @property {string} source          `heap_size_limit`, or where the memory limit came from (`cgroup v2`, ...)
 * @property {number} used            heap used, or RSS, in the last snapshot's sidecar
 * @property {number} minutesToLimit  at the limit's own pace; 0 when already there
 * @property {number} [bytesPerMinute]  that pace: the JS heap's growth for the heap limit, RSS
 *   growth (the writes' own RSS taken out) for a memory limit; else the retained growth
 * @property {string} [nearerThan]    the other limit, when both were projected: `heap limit (4345298944)`
 */

/**
 * @typedef {object} Capture  why the agent's watch mode took the series by itself
 * @property {'growth' | 'time-to-limit' | 'fraction'} reason
 * @property {'heap' | 'rss'} [measure]  what grew: absent for the heap after GC, `rss` for the process's RSS
 * @property {number} bytesPerHour
 * @property {number} spanMinutes
 * @property {number} heapAfterGc
 * @property {{kind: 'heap' | 'memory', bytes: number, source: string, minutesToLimit: number | null, fraction: number} | null} limit
 */

/**
 * What a sidecar recorded about the process's memory just before one write.
 * @typedef {object} ProcessMemory
 * @property {number} rss
 * @property {number} heapUsed
 * @property {number} external        includes arrayBuffers
 * @property {number} arrayBuffers
 * @property {number | null} cgroupUsage     the cgroup's memory use
 * @property {number | null} heapMappingRss  RSS of the `[heap]` mapping (glibc's main arena)
 * @property {number} writeRss        RSS the write left (after less before, 0 or more)
 */

/**
 * @typedef {object} NativeKind  a kind of native memory that grew in every step
 * @property {string} name      `Node / zlib_memory`
 * @property {number[]} counts  per snapshot
 * @property {number[]} bytes   per snapshot
 * @property {Array<{name: string, count: number}>} holders  the JS objects that hold them (last
 *   snapshot): `Deflate/Zlib` when a handle object is held by the program's object
 */

/**
 * The growth split into kinds of memory (diff/memory-split.js).
 * @typedef {object} Memory
 * @property {Array<{jsHeap: number, backingStores: number, native: number, process: ProcessMemory | null}>} snapshots
 *   per snapshot: bytes of the JS heap, of ArrayBuffer stores and of native memory Node records,
 *   and the sidecar's readings (null without them)
 * @property {{jsHeap: number, backingStores: number, native: number, rss: number | null, writeRss: number | null, rest: number | null}} growth
 *   first to last: rss is the program's RSS growth (the writes' RSS taken out), writeRss what the
 *   writes left, rest the RSS growth no kind of memory in the snapshot explains (null without sidecars)
 * @property {NativeKind[]} nativeKinds  most growth first
 * @property {number[]} workers  Worker objects per snapshot (threads whose heaps these snapshots do not cover)
 * @property {'heap' | 'native' | 'outside' | 'none'} where  what most of the growth is
 * @property {string | null} summary  one line when the growth is outside the JS heap (then a
 *   verdict that is not a leak is `inconclusive`); null otherwise
 */

/**
 * @typedef {object} Allocations
 * @property {string[]} profiles
 * @property {number | null} intervalBytes
 * @property {StackRow[]} growing
 */

/**
 * `leakdiff a b [c] --format json` and `leakdiff soak`.
 * @typedef {object} DiffReport
 * @property {1} schemaVersion
 * @property {'diff'} kind
 * @property {SnapshotInfo[]} snapshots
 * @property {'leak' | 'clean' | 'inconclusive'} verdict
 * @property {string} reason
 * @property {'ids' | 'aggregates'} comparison
 * @property {{totalSizeDelta: number, leakedObjects: number, leakedBytes: number}} summary
 * @property {ClassRow[]} classes
 * @property {GrowthRow[]} growth
 * @property {Finding[]} findings  ranked like the growth rows they explain
 * @property {Process | null} process
 * @property {Rate | null} rate  none across processes
 * @property {Memory | null} memory  null when the snapshots come from different processes
 * @property {Capture | null} capture
 * @property {string[]} warnings
 * @property {Allocations | null} allocations
 */

/**
 * @typedef {object} InspectClassRow
 * @property {string} name
 * @property {number} count
 * @property {number} selfSize
 * @property {number} retainedSize
 */

/**
 * @typedef {object} Dominator
 * @property {number} id
 * @property {string} name
 * @property {string} type
 * @property {number} selfSize
 * @property {number} retainedSize
 * @property {PathStep[]} path
 * @property {string} pathText
 */

/**
 * `leakdiff inspect --format json`.
 * @typedef {object} InspectReport
 * @property {1} schemaVersion
 * @property {'inspect'} kind
 * @property {{path: string, bytes: number, nodeCount: number, edgeCount: number, totalSize: number}} snapshot
 * @property {InspectClassRow[]} classes
 * @property {Dominator[]} dominators
 * @property {string[]} warnings
 */

/** @typedef {DiffReport | InspectReport} ReportModel */

/**
 * What a diff report is made of, in the analysis' own types.
 * @typedef {object} DiffReportParts
 * @property {SnapshotInfo[]} snapshots
 * @property {'leak' | 'clean' | 'inconclusive'} verdict
 * @property {string} reason
 * @property {'ids' | 'aggregates'} comparison
 * @property {{totalSizeDelta: number, leakedObjects: number, leakedBytes: number}} summary
 * @property {ClassDelta[]} classes
 * @property {Array<{group: GrowthGroup, pathText: string}>} growth
 * @property {SignatureFinding[]} findings
 * @property {Process | null} process
 * @property {GrowthRate | null} rate
 * @property {MemorySplit | null} memory
 * @property {WatchTriggerMeta | null} capture
 * @property {string[]} warnings
 * @property {AllocationsReport | null} allocations
 */

/**
 * The diff report model.
 * @param {DiffReportParts} parts
 * @returns {DiffReport}
 */
export function diffReportModel (parts) {
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: 'diff',
    snapshots: parts.snapshots.map(snapshotInfo),
    verdict: parts.verdict,
    reason: parts.reason,
    comparison: parts.comparison,
    summary: { totalSizeDelta: parts.summary.totalSizeDelta, leakedObjects: parts.summary.leakedObjects, leakedBytes: parts.summary.leakedBytes },
    classes: parts.classes.map(classRow),
    growth: parts.growth.map(({ group, pathText }) => growthRow(group, pathText)),
    findings: parts.findings.map(finding),
    process: parts.process && processOf(parts.process),
    rate: parts.rate && rate(parts.rate),
    memory: parts.memory && memory(parts.memory),
    capture: parts.capture && capture(parts.capture),
    warnings: [...parts.warnings],
    allocations: parts.allocations && {
      profiles: [...parts.allocations.profiles],
      intervalBytes: parts.allocations.intervalBytes,
      growing: parts.allocations.growing.map(stackRow)
    }
  }
}

/**
 * What an inspect report is made of.
 * @typedef {object} InspectReportParts
 * @property {{path: string, bytes: number, nodeCount: number, edgeCount: number, totalSize: number}} snapshot
 * @property {InspectClassRow[]} classes
 * @property {Array<{id: number, name: string, type: string, selfSize: number, retainedSize: number, path: Step[], pathText: string}>} dominators
 * @property {string[]} warnings
 */

/**
 * The inspect report model.
 * @param {InspectReportParts} parts
 * @returns {InspectReport}
 */
export function inspectReportModel ({ snapshot, classes, dominators, warnings }) {
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: 'inspect',
    snapshot: { path: snapshot.path, bytes: snapshot.bytes, nodeCount: snapshot.nodeCount, edgeCount: snapshot.edgeCount, totalSize: snapshot.totalSize },
    classes: classes.map((row) => ({ name: row.name, count: row.count, selfSize: row.selfSize, retainedSize: row.retainedSize })),
    dominators: dominators.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      selfSize: row.selfSize,
      retainedSize: row.retainedSize,
      path: row.path.map(pathStep),
      pathText: row.pathText
    })),
    warnings: [...warnings]
  }
}

/**
 * `{key: value}` when the value is there, `{}` when it is undefined: for the optional fields, which
 * the JSON leaves out rather than writing null.
 * @template {string} K
 * @template V
 * @param {K} key
 * @param {V | undefined} value
 * @returns {{[P in K]?: V}}
 */
function optional (key, value) {
  return value === undefined ? {} : /** @type {{[P in K]?: V}} */ ({ [key]: value })
}

/**
 * @param {SnapshotInfo} info
 * @returns {SnapshotInfo}
 */
function snapshotInfo (info) {
  return {
    path: info.path,
    bytes: info.bytes,
    nodeCount: info.nodeCount,
    edgeCount: info.edgeCount,
    totalSize: info.totalSize,
    takenAt: info.takenAt,
    takenAtSource: info.takenAtSource,
    pid: info.pid,
    hostname: info.hostname,
    nodeVersion: info.nodeVersion,
    heapUsed: info.heapUsed,
    rss: info.rss
  }
}

/**
 * @param {Step} step
 * @returns {PathStep}
 */
export function pathStep (step) {
  return {
    edge: step.edge,
    edgeType: step.edgeType,
    node: step.node,
    nodeType: step.nodeType,
    id: step.id,
    ...optional('generatedEdge', step.generatedEdge),
    ...optional('generatedNode', step.generatedNode),
    ...optional('module', step.module),
    ...optional('originalModule', step.originalModule)
  }
}

/**
 * @param {{id: number, name: string, type: string, generatedName?: string}} owner
 * @returns {Owner}
 */
function owner (owner) {
  return { id: owner.id, name: owner.name, type: owner.type, ...optional('generatedName', owner.generatedName) }
}

/**
 * @param {ClassDelta} row
 * @returns {ClassRow}
 */
function classRow (row) {
  return {
    name: row.name,
    newCount: row.newCount,
    deletedCount: row.deletedCount,
    countDelta: row.countDelta,
    sizeDelta: row.sizeDelta,
    retainedSizeDelta: row.retainedSizeDelta,
    ...optional('generatedName', row.generatedName)
  }
}

/**
 * @param {GrowthGroup} group
 * @param {string} pathText
 * @returns {GrowthRow}
 */
function growthRow (group, pathText) {
  return {
    owner: owner(group.owner),
    path: group.path.map(pathStep),
    ownerCount: group.ownerCount,
    leakedObjects: group.leakedObjects,
    leakedBytes: group.leakedBytes,
    recentObjects: group.recentObjects,
    recentBytes: group.recentBytes,
    retainedBefore: group.retainedBefore,
    retainedMiddle: group.retainedMiddle,
    retainedAfter: group.retainedAfter,
    classes: group.classes.map((held) => ({ name: held.name, count: held.count, size: held.size, ...optional('generatedName', held.generatedName) })),
    entries: group.entries,
    entryClass: group.entryClass && { name: group.entryClass.name, count: group.entryClass.count },
    leak: group.leak,
    sharedWith: group.sharedWith.map((shared) => ({ ownerId: shared.ownerId, objects: shared.objects, bytes: shared.bytes })),
    pathText
  }
}

/**
 * @param {SignatureFinding} found
 * @returns {Finding}
 */
function finding (found) {
  return {
    signature: found.signature,
    title: found.title,
    confidence: found.confidence,
    reasons: [...found.reasons],
    owner: owner(found.owner),
    path: found.path.map(pathStep),
    evidence: evidence(found.evidence),
    location: found.location && location(found.location),
    fix: { summary: found.fix.summary, snippet: found.fix.snippet },
    ...optional('allocatedAt', found.allocatedAt === undefined ? undefined : found.allocatedAt && allocatedAt(found.allocatedAt)),
    ...optional('source', found.source === undefined ? undefined : found.source && sourceLines(found.source)),
    ...optional('native', found.native && { kind: found.native.kind, holder: found.native.holder, bytes: found.native.bytes, bytesEach: found.native.bytesEach })
  }
}

/**
 * The declared part by name; the signature's own keys as JSON values. Keys keep the signature's order.
 * @param {FindingEvidence & Record<string, unknown>} found
 * @returns {Evidence}
 */
function evidence (found) {
  /** @type {DeclaredEvidence} */
  const declared = {
    unit: found.unit,
    counts: [...found.counts],
    retained: [...found.retained],
    perStep: found.perStep,
    ownerCount: found.ownerCount,
    notes: [...found.notes],
    ...optional('locationRole', stringOrNull(found.locationRole)),
    ...optional('keepsAlive', strings(found.keepsAlive)),
    ...optional('bytesPerListener', number(found.bytesPerListener)),
    ...optional('bytesPerEntry', number(found.bytesPerEntry)),
    ...optional('keyClasses', strings(found.keyClasses)),
    ...optional('valueClasses', strings(found.valueClasses)),
    ...optional('bytesPerElement', number(found.bytesPerElement)),
    ...optional('elementClasses', strings(found.elementClasses)),
    ...optional('holderClass', typeof found.holderClass === 'string' ? found.holderClass : undefined)
  }
  /** @type {Record<string, unknown>} */
  const model = {}
  for (const [key, value] of Object.entries(found)) model[key] = Object.hasOwn(declared, key) ? declared[/** @type {keyof DeclaredEvidence} */ (key)] : jsonValue(value)
  for (const [key, value] of Object.entries(declared)) if (!Object.hasOwn(model, key)) model[key] = value
  return /** @type {Evidence} */ (model)
}

/**
 * A copy of a value as JSON would carry it: what JSON cannot hold is left out (undefined).
 * @param {unknown} value
 * @returns {unknown}
 */
function jsonValue (value) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (Array.isArray(value)) return value.map((item) => jsonValue(item) ?? null)
  if (typeof value !== 'object') return undefined
  /** @type {Record<string, unknown>} */
  const copy = {}
  for (const [key, item] of Object.entries(value)) {
    const json = jsonValue(item)
    if (json !== undefined) copy[key] = json
  }
  return copy
}

/** @param {unknown} value */
function stringOrNull (value) {
  return value === null || typeof value === 'string' ? value : undefined
}

/** @param {unknown} value */
function strings (value) {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : undefined
}

/** @param {unknown} value */
function number (value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/**
 * @param {{file: string, line: number, column: number}} position
 * @returns {Position}
 */
function position (position) {
  return { file: position.file, line: position.line, column: position.column }
}

/**
 * @param {{file: string, line: number, column: number, snippet: string | null}} original
 * @returns {Position & {snippet: string | null}}
 */
function original (original) {
  return { file: original.file, line: original.line, column: original.column, snippet: original.snippet }
}

/**
 * @param {FoundLocation} found
 * @returns {Location}
 */
function location (found) {
  return { file: found.file, line: found.line, column: found.column, function: found.function, ...mappedParts(found) }
}

/**
 * What a source map adds to a location or a frame: where the code that ran is, the source as
 * written, and the function's name as it ran when a minifier renamed it.
 * @param {Pick<FoundLocation, 'generated' | 'original' | 'generatedFunction'>} found
 * @returns {Pick<Location, 'generated' | 'original' | 'generatedFunction'>}
 */
function mappedParts (found) {
  return {
    ...optional('generated', found.generated && position(found.generated)),
    ...optional('original', found.original && original(found.original)),
    ...optional('generatedFunction', found.generatedFunction)
  }
}

/**
 * @param {FoundLines} found
 * @returns {SourceLines}
 */
function sourceLines (found) {
  return { file: found.file, start: found.start, lines: [...found.lines] }
}

/**
 * @param {FrameLocation} found
 * @returns {Frame}
 */
function frame (found) {
  return {
    file: found.file,
    line: found.line,
    column: found.column,
    function: found.function,
    kind: found.kind,
    callLine: found.callLine,
    ...mappedParts(found)
  }
}

/**
 * @param {TiedStack} stack
 * @returns {StackRow}
 */
function stackRow (stack) {
  return { frames: stack.frames.map(frame), bytes: stack.bytes, samples: stack.samples, steps: [...stack.steps], callers: stack.callers }
}

/**
 * @param {AllocationTie} tie
 * @returns {AllocatedAt}
 */
function allocatedAt (tie) {
  return { site: tie.site && frame(tie.site), bytes: tie.bytes, samples: tie.samples, basis: [...tie.basis], stacks: tie.stacks.map(stackRow) }
}

/**
 * @param {GrowthRate} found
 * @returns {Rate}
 */
function rate (found) {
  const { limit } = found
  return {
    bytes: found.bytes,
    minutes: found.minutes,
    bytesPerMinute: found.bytesPerMinute,
    limit: limit && {
      kind: limit.kind,
      bytes: limit.bytes,
      source: limit.source,
      used: limit.used,
      minutesToLimit: limit.minutesToLimit,
      ...optional('bytesPerMinute', limit.bytesPerMinute),
      ...optional('nearerThan', limit.nearerThan)
    }
  }
}

/**
 * @param {Process} found
 * @returns {Process}
 */
function processOf (found) {
  const { thread } = found
  return {
    pid: found.pid,
    hostname: found.hostname,
    nodeVersion: found.nodeVersion,
    script: found.script,
    ...optional('thread', thread && { id: thread.id, main: thread.main, file: thread.file, name: thread.name })
  }
}

/**
 * @param {MemorySplit} split
 * @returns {Memory}
 */
function memory (split) {
  const { growth } = split
  return {
    snapshots: split.snapshots.map((s) => ({ jsHeap: s.jsHeap, backingStores: s.backingStores, native: s.native, process: s.process && processMemory(s.process) })),
    growth: { jsHeap: growth.jsHeap, backingStores: growth.backingStores, native: growth.native, rss: growth.rss, writeRss: growth.writeRss, rest: growth.rest },
    nativeKinds: split.nativeKinds.map((kind) => ({
      name: kind.name,
      counts: [...kind.counts],
      bytes: [...kind.bytes],
      holders: kind.holders.map((holder) => ({ name: holder.name, count: holder.count }))
    })),
    workers: [...split.workers],
    where: split.where,
    summary: split.summary
  }
}

/**
 * @param {MemoryAround} around
 * @returns {ProcessMemory}
 */
function processMemory (around) {
  return {
    rss: around.rss,
    heapUsed: around.heapUsed,
    external: around.external,
    arrayBuffers: around.arrayBuffers,
    cgroupUsage: around.cgroupUsage,
    heapMappingRss: around.heapMappingRss,
    writeRss: around.writeRss
  }
}

/**
 * @param {WatchTriggerMeta} trigger
 * @returns {Capture}
 */
function capture (trigger) {
  const { limit } = trigger
  return {
    reason: trigger.reason,
    ...optional('measure', trigger.measure),
    bytesPerHour: trigger.bytesPerHour,
    spanMinutes: trigger.spanMinutes,
    heapAfterGc: trigger.heapAfterGc,
    limit: limit && { kind: limit.kind, bytes: limit.bytes, source: limit.source, minutesToLimit: limit.minutesToLimit, fraction: limit.fraction }
  }
}
