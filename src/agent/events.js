/**
 * One thing the agent did or refused to do. `message` is the human line (without the `leakdiff: `
 * prefix); the other fields are for programs.
 * @typedef {object} AgentEvent
 * @property {'ready' | 'config' | 'series-start' | 'snapshot' | 'compressed' | 'refused' | 'error' | 'ignored' | 'series-end' | 'pruned' | 'stopped' | 'watch-trigger'} type
 * @property {string} message
 * @property {string} [seriesId]
 * @property {number} [index]         1-based position in the series
 * @property {number} [count]         snapshots in the series
 * @property {string} [path]          the file written, compressed or planned
 * @property {number} [bytes]
 * @property {number} [durationMs]    the pause a write caused
 * @property {string} [status]        series-end: 'complete' | 'failed' | 'stopped'
 * @property {string[]} [paths]       pruned: the files removed; series-end: the snapshots written
 * @property {unknown} [error]        error: what failed
 * @property {import('./watch.js').WatchTrigger} [trigger]  watch-trigger, and a refusal of watch mode: why
 */

/** @typedef {(event: AgentEvent) => void} EventSink */

// Sizes in log lines read as in the reports and the CLI: SI units, 12.3 MB (units.js).
export { formatBytes } from '../units.js'

/**
 * A pause, always in seconds so that log lines compare at a glance: 0.41 s, 12.30 s.
 * @param {number} ms
 * @returns {string}
 */
export function formatPause (ms) {
  return `${(ms / 1000).toFixed(2)} s`
}

/**
 * An interval as it was most likely written: 400 ms, 60 s, 2 min, 1.5 h.
 * @param {number} ms
 * @returns {string}
 */
export function formatInterval (ms) {
  if (ms < 1000) return `${ms} ms`
  if (ms < 120_000 || ms % 60_000 !== 0) return `${Math.round(ms / 100) / 10} s`
  if (ms < 7_200_000 || ms % 3_600_000 !== 0) return `${ms / 60_000} min`
  return `${ms / 3_600_000} h`
}

/**
 * The default sink: one line per event on stderr. Writing must never throw into the host (a closed
 * stderr gives EPIPE), and nothing else of the host's output is touched.
 * @type {EventSink}
 */
export function writeEventToStderr (event) {
  try {
    process.stderr.write(`leakdiff: ${event.message}\n`)
  } catch {}
}

/**
 * Wraps a sink so that a throwing callback cannot reach the agent's code or the host.
 * @param {EventSink} sink
 * @returns {EventSink}
 */
export function guardSink (sink) {
  return (event) => {
    try {
      sink(event)
    } catch {}
  }
}
