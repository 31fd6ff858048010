export { parseSnapshot } from './parse/parse-snapshot.js'
export { analyzeHeap } from './analysis/analyze-heap.js'
export { inspectSnapshot } from './pipeline/inspect-snapshot.js'
export { diffSnapshots } from './pipeline/diff-snapshots.js'
export { renderReport, FORMATS } from './report/renderers.js'
export { renderInspectReport } from './report/render-inspect.js'
export { renderDiffReport } from './report/render-diff.js'
export { renderHtmlReport } from './report/html/render-html.js'
export { renderJunitReport } from './report/render-junit.js'
export { renderGithubAnnotations } from './report/render-annotations.js'
export { evaluateGates, DEFAULT_GATES } from './report/gates.js'
export { assertNoLeak } from './soak/assert-no-leak.js'
export { runSoak } from './soak/run-soak.js'
export { parseSize, formatBytes } from './units.js'
export {
  LeakdiffError, SnapshotFormatError, SnapshotReadError, SnapshotMismatchError,
  InvalidArgumentError, CaptureError, LeakAssertionError, SoakError
} from './errors.js'

/** @typedef {import('./report/report-model.js').DiffReport} DiffReport */
/** @typedef {import('./report/report-model.js').InspectReport} InspectReport */
/** @typedef {import('./report/report-model.js').ReportModel} ReportModel */
/** @typedef {import('./soak/assert-no-leak.js').ThreadCheck} ThreadCheck */
