// The run of `leakdiff inspect`: one snapshot read, parsed and analysed on this thread, and the
// report model of its classes and largest dominators.

import { stat } from 'node:fs/promises'
import { parseSnapshot } from '../parse/parse-snapshot.js'
import { analyzeHeap } from '../analysis/analyze-heap.js'
import { classRows } from '../analysis/class-summary.js'
import { largestDominators } from '../analysis/largest-dominators.js'
import { retainerPath } from '../analysis/retainer-paths.js'
import { renderFoldedPath } from '../report/render-path.js'
import { inspectReportModel } from '../report/report-model.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {SnapshotSource} from '../parse/byte-source.js' */
/** @import {ParseProgress} from '../parse/parse-snapshot.js' */
/** @import {InspectReport} from '../report/report-model.js' */

/**
 * Parses and analyses one snapshot and builds the inspect report.
 * @param {SnapshotSource} source
 * @param {{top?: number, cwd?: string, onProgress?: (progress: ParseProgress) => void, lowMemory?: boolean}} [options]
 *   top: classes and dominators to list; 0 lists every class (and 20 dominators); cwd: scripts
 *   under it are shown relative to it in `pathText`; lowMemory: the slower dominator algorithm
 *   where the faster needs more memory (analyzeHeap)
 * @returns {Promise<InspectReport>}
 */
export async function inspectSnapshot (source, { top = 20, cwd = process.cwd(), onProgress, lowMemory = false } = {}) {
  const data = await parseSnapshot(source, { onProgress })
  // A pipe's size is not known on disk: its bytes read stand in, as a stream's do.
  const info = typeof source === 'string' ? await stat(source) : undefined
  const bytes = info?.isFile() ? info.size : data.byteLength
  return buildInspectReport(analyzeHeap(data, { rootSteps: true, lowMemory }), { path: data.label, bytes, top, cwd })
}

/**
 * @param {HeapAnalysis} analysis
 * @param {{path: string, bytes: number, top: number, cwd?: string}} options
 * @returns {InspectReport}
 */
export function buildInspectReport (analysis, { path, bytes, top, cwd = process.cwd() }) {
  const { graph } = analysis
  const rows = classRows(analysis.classes)
  return inspectReportModel({
    snapshot: { path, bytes, nodeCount: graph.nodeCount, edgeCount: graph.edgeCount, totalSize: analysis.totalSize },
    classes: top === 0 ? rows : rows.slice(0, top),
    dominators: largestDominators(analysis, top === 0 ? 20 : top).map((ordinal) => {
      // The path a person knows (module app.js → cache), as the diff's rows and findings give it.
      const steps = retainerPath(analysis, ordinal, { readable: true })
      return {
        id: graph.nodeIds[ordinal],
        name: displayName(analysis, ordinal),
        type: graph.nodeTypeName(ordinal),
        selfSize: analysis.shallowSizes.at(ordinal),
        retainedSize: analysis.retainedSizes.at(ordinal),
        path: steps,
        pathText: renderFoldedPath(steps, { cwd })
      }
    }),
    warnings: analysis.warnings
  })
}

/**
 * The class name, except for functions, whose own name says more than `Function`.
 * @param {HeapAnalysis} analysis
 * @param {number} ordinal
 */
function displayName (analysis, ordinal) {
  const { graph } = analysis
  if (graph.nodeTypes[ordinal] === graph.nodeType.closure) return `${graph.nodeName(ordinal) || '(anonymous)'}()`
  return analysis.classes.names[analysis.classOf[ordinal]]
}
