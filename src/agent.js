/**
 * leakdiff/agent: capture heap snapshots inside a running process (docs/agent.md).
 *
 * `startAgent(options)` listens on a signal (default SIGUSR2); each signal, or `captureSeries()`,
 * writes a series of snapshots with sidecars. A series' file names are fixed when it starts
 * (`seriesFileNames()`), and its series file `leakdiff-<pid>-<start>.series.json` is written last:
 * once it says `"status": "complete"`, every snapshot and sidecar of the series is in place.
 * With `watch` (or LEAKDIFF_WATCH=1) the agent also starts a series by itself when the heap after
 * GC keeps growing (agent/watch.js). Worker threads run an agent of their own (the preload reaches
 * them, or `startAgent()` in the worker) that writes its heap's series with the main thread's.
 */
export { startAgent, Agent } from './agent/start-agent.js'
export { seriesFileNames, sidecarPath, parseFileName, formatStamp } from './agent/file-names.js'
export { configFromEnv, resolveConfig, parseDuration, parseSize, parseRate, DEFAULT_CONFIG, ENV_NAMES, DEFAULT_WATCH, WATCH_ENV_NAMES } from './agent/config.js'
export { readCgroupMemory, measureHeadroom } from './agent/memory-limits.js'
export { requestSeries, readSeriesFile, agentSettingsOf, catchesSignal, threadFilesOf } from './agent/request-series.js'
export { currentThread, describeThread } from './agent/thread-info.js'
