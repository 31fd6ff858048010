// The agent's pieces the CLI calls (`#cli/agent` through package.json `imports`), each from its own
// module: the package's `leakdiff/agent` entry loads the whole agent (its signal listener, watch
// mode, writers), which no command runs; and a capture that only waits for the agent's files loads
// no engine or renderer.
export { measureHeadroom } from './agent/memory-limits.js'
export { parseFileName } from './agent/file-names.js'
export { agentSettingsOf, readSeriesFile, requestSeries, threadFilesOf } from './agent/request-series.js'
export { resolveConfig } from './agent/config.js'
export { describeThread } from './agent/thread-info.js'
