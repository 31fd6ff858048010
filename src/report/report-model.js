// The report model: the one shape that `--format json` prints, the renderers and the gates read,
// and schema/report.schema.json describes (schemaVersion 1). Nothing internal crosses it: every
// field is named and copied from the analysis by hand (here, and part by part in model/), so that
// a field renamed in diff/, signatures/ or sources/ breaks the type check or a schema test instead
// of changing the JSON. Keys are written in the order the JSON has always had them.
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {ClassDelta} from '../diff/class-deltas.js' */
/** @import {GrowthGroup} from '../diff/growth-groups.js' */
/** @import {MemorySplit} from '../diff/memory-split.js' */
/** @import {Finding as SignatureFinding} from '../signatures/finding.js' */
/** @import {GrowthRate} from '../diff/growth-rate.js' */
/** @import {WatchTriggerMeta} from '../diff/snapshot-meta.js' */
/** @import {AllocationsReport} from '../diff/alloc-stacks.js' */
/** @import {Allocations} from './model/allocations.js' */
/** @import {Finding} from './model/findings.js' */
/** @import {ClassRow, GrowthRow} from './model/growth-rows.js' */
/** @import {Memory, Rate} from './model/memory.js' */
/** @import {PathStep} from './model/path-steps.js' */
/** @import {Capture, Process, SnapshotInfo} from './model/snapshots.js' */
import { allocationsModel } from './model/allocations.js'
import { findingModel } from './model/findings.js'
import { classRowModel, growthRowModel } from './model/growth-rows.js'
import { memoryModel, rateModel } from './model/memory.js'
import { pathStepModel } from './model/path-steps.js'
import { captureModel, processModel, snapshotInfoModel } from './model/snapshots.js'

export const SCHEMA_VERSION = 1

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
    snapshots: parts.snapshots.map(snapshotInfoModel),
    verdict: parts.verdict,
    reason: parts.reason,
    comparison: parts.comparison,
    summary: { totalSizeDelta: parts.summary.totalSizeDelta, leakedObjects: parts.summary.leakedObjects, leakedBytes: parts.summary.leakedBytes },
    classes: parts.classes.map(classRowModel),
    growth: parts.growth.map(({ group, pathText }) => growthRowModel(group, pathText)),
    findings: parts.findings.map(findingModel),
    process: parts.process && processModel(parts.process),
    rate: parts.rate && rateModel(parts.rate),
    memory: parts.memory && memoryModel(parts.memory),
    capture: parts.capture && captureModel(parts.capture),
    warnings: [...parts.warnings],
    allocations: parts.allocations && allocationsModel(parts.allocations)
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
      path: row.path.map(pathStepModel),
      pathText: row.pathText
    })),
    warnings: [...warnings]
  }
}
