// Runs one fuzz case through leakdiff's real entry points (parse, analysis, the inspect report and
// its renderers, as `leakdiff inspect` runs them) and judges the outcome.
import { parseSnapshot } from '../src/parse/parse-snapshot.js'
import { SnapshotParser } from '../src/parse/snapshot-parser.js'
import { analyzeHeap } from '../src/analysis/analyze-heap.js'
import { buildInspectReport } from '../src/pipeline/inspect-snapshot.js'
import { renderInspectReport } from '../src/report/render-inspect.js'
import { diffSnapshots } from '../src/pipeline/diff-snapshots.js'
import { renderDiffReport } from '../src/report/render-diff.js'
import { Readable } from 'node:stream'
import { applyCase } from './snapshot-mutations.js'
/** @import {SnapshotLayout} from './snapshot-mutations.js' */

// Control characters an error line or a text report may hold: none (chalk is off here).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/

/**
 * The facts of an analysis that a faithful change of the file must leave alone.
 * @param {import('../src/analysis/analyze-heap.js').HeapAnalysis} analysis
 */
export function digest (analysis) {
  const { graph, classes } = analysis
  const rows = classes.names.map((name, i) => `${name}:${classes.counts[i]}:${classes.retainedSizes[i]}`).sort()
  return JSON.stringify({ nodes: graph.nodeCount, edges: graph.edgeCount, total: analysis.totalSize, warnings: analysis.warnings, rows })
}

// The share of the cases that analyse which are diffed against the original too.
const DIFF_SHARE = 0.1

// Cases with this chunk size go to the parser directly, with columns that start small and grow.
const GROWING_CHUNK = 4093

/**
 * Parses with the columns growing from a few rows, as they do past the first million rows of a
 * stream (plain text; gzip goes through parseSnapshot).
 * @param {Buffer} bytes
 */
function parseGrowing (bytes) {
  const parser = new SnapshotParser({ label: 'fuzz.heapsnapshot', firstRows: 5 })
  for (let i = 0; i < bytes.length; i += GROWING_CHUNK) parser.push(bytes.subarray(i, i + GROWING_CHUNK))
  return parser.finish()
}

/**
 * @param {Buffer} bytes
 * @param {number} chunkBytes
 */
async function * chunked (bytes, chunkBytes) {
  for (let i = 0; i < bytes.length; i += chunkBytes) yield bytes.subarray(i, i + chunkBytes)
}

/**
 * Runs a case; returns undefined when leakdiff's answer is right, or what is wrong with it.
 * @param {SnapshotLayout} layout
 * @param {string} expectedDigest digest of the unchanged snapshot
 * @param {any} fuzz a value of `fuzzCase`
 * @returns {Promise<string | undefined>}
 */
export async function checkCase (layout, expectedDigest, fuzz) {
  const { bytes, expect } = applyCase(layout, fuzz)
  let analysis
  try {
    const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b
    const data = fuzz.chunkBytes === GROWING_CHUNK && !gzip ? parseGrowing(bytes) : await parseSnapshot(chunked(bytes, fuzz.chunkBytes), { label: 'fuzz.heapsnapshot' })
    analysis = analyzeHeap(data, { rootSteps: true })
    const report = buildInspectReport(analysis, { path: data.label, bytes: bytes.length, top: 20 })
    const text = renderInspectReport(report, { format: 'text', color: false, width: 100 })
    if (text.split('\n').some((line) => CONTROL.test(line))) return 'the text report holds a control character'
    JSON.parse(renderInspectReport(report, { format: 'json' }))
    // Some of the cases that analyse are also diffed against the original, as `leakdiff a b` does.
    if (fuzz.gzipAt < DIFF_SHARE) {
      const diff = await diffSnapshots([Readable.from([layout.bytes]), Readable.from([bytes])], { parallel: false })
      const diffText = renderDiffReport(diff, { format: 'text', color: false })
      if (diffText.split('\n').some((line) => CONTROL.test(line))) return 'the diff\'s text report holds a control character'
      renderDiffReport(diff, { format: 'markdown' })
    }
    if (!(analysis.totalSize >= 0 && Number.isFinite(analysis.totalSize))) return `total size ${analysis.totalSize}`
    for (let o = 0; o < analysis.graph.nodeCount; o++) {
      const retained = analysis.retainedSizes.at(o)
      if (!(retained >= 0 && retained <= analysis.totalSize)) return `node ${o} retains ${retained} of a ${analysis.totalSize} byte heap`
    }
  } catch (error) {
    const code = /** @type {{code?: unknown}} */ (error)?.code
    const message = error instanceof Error ? error.message : String(error)
    // A format error from the parse, or a mismatch the diff refuses (ids that no longer line up).
    if (code !== 'LEAKDIFF_SNAPSHOT_FORMAT' && code !== 'LEAKDIFF_SNAPSHOT_MISMATCH') return `threw ${code ?? /** @type {Error} */ (error)?.name}: ${message}`
    if (message.includes('\n') || CONTROL.test(message)) return `the error message is not one clean line: ${JSON.stringify(message)}`
    if (expect === 'same') return `refused a snapshot that only changed its layout: ${message}`
    return undefined
  }
  if (expect === 'error') return 'accepted a snapshot that is broken'
  if (expect === 'same' && digest(analysis) !== expectedDigest) return 'a faithful change of the file changed the analysis'
  return undefined
}
