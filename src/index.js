export { parseSnapshot } from './parse/parse-snapshot.js'
export { analyzeHeap } from './analysis/analyze-heap.js'
export { inspectSnapshot, buildInspectReport } from './report/inspect-report.js'
export { renderInspectReport } from './report/render-inspect.js'
export {
  LeakdiffError, SnapshotFormatError, SnapshotReadError, SnapshotMismatchError,
  InvalidArgumentError, CaptureError, LeakAssertionError, SoakError
} from './errors.js'
export { diffSnapshots, buildDiffReport } from './report/diff-report.js'
export { renderDiffReport } from './report/render-diff.js'
export { diffHeaps, DEFAULT_DIFF_OPTIONS } from './diff/diff-heaps.js'
export { matchSignatures, SIGNATURES } from './signatures/index.js'
export { parseBytes, formatBytes } from './report/format.js'
export { assertNoLeak } from './soak/assert-no-leak.js'
export { evaluateGates, measureGrowth, summarizeViolations, parseFailOn, DEFAULT_GATES } from './report/gates.js'
export { renderJunitReport } from './report/render-junit.js'
export { renderGithubAnnotations } from './report/render-annotations.js'
export { runSoak } from './soak/run-soak.js'
