export { parseSnapshot } from './parse/parse-snapshot.js'
export { analyzeHeap } from './analysis/analyze-heap.js'
export { renderReport, FORMATS } from './report/renderers.js'
export { renderInspectReport } from './report/render-inspect.js'
export { renderDiffReport } from './report/render-diff.js'
export { renderHtmlReport } from './report/html/render-html.js'
export { renderJunitReport } from './report/render-junit.js'
export { renderGithubAnnotations } from './report/render-annotations.js'
export { evaluateGates, DEFAULT_GATES } from './report/gates.js'
export { assertNoLeak } from './soak/assert-no-leak.js'
export { parseSize, formatBytes } from './units.js'
export {
  LeakdiffError, SnapshotFormatError, SnapshotReadError, SnapshotMismatchError,
  InvalidArgumentError, CaptureError, LeakAssertionError, SoakError
} from './errors.js'

// A diff, an inspect and a soak need the upper half (the diff, the signatures, the sources layer
// and its JavaScript parser), which is loaded on their first call: a process that imports leakdiff
// for assertNoLeak, a renderer or the engine alone keeps it out of its heap, and so out of the
// snapshots assertNoLeak takes of that heap (about 2.5 MB of a test process's 9).

/** @type {typeof import('./pipeline/diff-snapshots.js').diffSnapshots} */
export const diffSnapshots = async (sources, options) => (await import('./pipeline/diff-snapshots.js')).diffSnapshots(sources, options)

/** @type {typeof import('./pipeline/inspect-snapshot.js').inspectSnapshot} */
export const inspectSnapshot = async (source, options) => (await import('./pipeline/inspect-snapshot.js')).inspectSnapshot(source, options)

/** @type {typeof import('./soak/run-soak.js').runSoak} */
export const runSoak = async (options) => (await import('./soak/run-soak.js')).runSoak(options)

/** @typedef {import('./report/report-model.js').DiffReport} DiffReport */
/** @typedef {import('./report/report-model.js').InspectReport} InspectReport */
/** @typedef {import('./report/report-model.js').ReportModel} ReportModel */
/** @typedef {import('./soak/assert-no-leak.js').ThreadCheck} ThreadCheck */
