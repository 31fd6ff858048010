// What the CLI uses besides the public API (src/index.js): reached as `#cli/support` through
// package.json `imports`, which only this package can resolve, so none of it is public.
export { readSnapshotCounts } from './parse/read-header.js'
export { estimateMemory, lengauerTarjanBytes } from './analysis/memory-need.js'
export { DEFAULT_DIFF_OPTIONS } from './diff/default-options.js'
export { SIGNATURE_IDS } from './signatures/ids.js'
export { formatsFor, describeFormats } from './report/renderers.js'
export { gatesFor, summarizeViolations, summarizePass, parseFailOn } from './report/gates.js'
export { escapeText } from './report/escape/escape-text.js'
export { markdownCode, markdownText } from './report/escape/escape-markdown.js'
export { parseSize, parseDuration, formatBytes, SIZE_EXAMPLES } from './units.js'
// The agent's pieces the CLI calls, each from its own module: the package's `leakdiff/agent` entry
// loads the whole agent (its signal listener, watch mode, writers), which no command runs.
export { measureHeadroom } from './agent/memory-limits.js'
export { parseFileName } from './agent/file-names.js'
export { agentSettingsOf, readSeriesFile, requestSeries, threadFilesOf } from './agent/request-series.js'
export { resolveConfig } from './agent/config.js'
export { describeThread } from './agent/thread-info.js'
