import { constants as osConstants } from 'node:os'
import { InvalidArgumentError, describeValue } from '../errors.js'
import { parseDuration, parseSize } from '../units.js'

// The agent reads sizes and durations as the CLI and the API do (units.js): 512MB is 512 x 10^6
// bytes, 512MiB 512 x 2^20.
export { parseDuration, parseSize }

const MIB = 1024 * 1024

/**
 * Everything the agent can be told. Sizes are bytes, durations milliseconds.
 * @typedef {object} AgentConfig
 * @property {string} dir                directory for snapshots, sidecars and series files
 * @property {NodeJS.Signals | null} signal  signal that starts a series; null installs no handler
 * @property {number} count              snapshots per series
 * @property {number} intervalMs         time between the starts of two snapshots of a series
 * @property {boolean} gzip              compress finished snapshots on the libuv threadpool
 * @property {number} keep               most snapshot files kept in `dir` (all pids); 0 keeps all
 * @property {number} minFreeBytes       disk space that must stay free after a write
 * @property {number} minHeadroomBytes   memory that must stay free at the peak of a write
 * @property {number} headroomFactor     extra memory per byte of heapUsed assumed before a write was measured
 * @property {number} headroomFloorBytes extra memory assumed for any write, however small the heap
 * @property {number | null} memoryLimitBytes  a limit on RSS on top of the ones found (cgroup, free memory)
 * @property {number | null} stringLimit  characters of each string a snapshot keeps (V8 keeps 1,024:
 *   a longer script source is cut, and leakdiff finds the line that adds to a collection in it);
 *   null leaves V8's limit alone. A larger limit writes more of every string, secrets included.
 * @property {boolean | 'always'} allocSampling  run V8's sampling heap profiler during a series and
 *   save the live samples beside each snapshot (`x.heapprofile`); 'always' runs it from the
 *   agent's start to its stop, so that snapshots of separate series compare (leakdiff soak)
 * @property {number} allocSamplingInterval  mean bytes allocated between two samples
 * @property {WatchConfig | null} watch  watch mode (watch.js): start a series when the heap keeps
 *   growing; null is off
 */

/**
 * Watch mode's settings (docs/agent.md, "Watch mode"). Rates are bytes per hour.
 * @typedef {object} WatchConfig
 * @property {number} windowMs        one window: the heap's floor is the least heap used after a major GC in it
 * @property {number} windows         windows the trend is fitted over (growth must hold for all of them)
 * @property {number} minRateBytesPerHour  growth of the floor that starts a series, once it held for `windows`
 * @property {number} timeToLimitMs   start a series when, at the measured rate, a limit is this close; 0 is off
 * @property {number | null} limitFraction  start a series when the floor passes this share of a limit; null is off
 * @property {number} cooldownMs      least time between two automatic series
 */

/**
 * What `watch` may be given as from code: true for the defaults, or some settings.
 * @typedef {Omit<Partial<AgentConfig>, 'watch'> & {watch?: boolean | null | Partial<WatchConfig>}} AgentConfigInput
 */

/** @type {Readonly<AgentConfig>} */
export const DEFAULT_CONFIG = Object.freeze({
  dir: '.',
  signal: 'SIGUSR2',
  count: 3,
  intervalMs: 60_000,
  gzip: false,
  keep: 10,
  minFreeBytes: 256 * MIB,
  minHeadroomBytes: 64 * MIB,
  // Measured on Node 20 (shared/heapsnapshot-format.md 8-9 and docs/agent.md): a bare process
  // needs ~33 MB for a 4 MB heap; heaps of small linked or keyed objects 6-9x heapUsed; one huge
  // array of small objects 23-36x. The default covers the first two; measured writes refine it.
  headroomFactor: 10,
  headroomFloorBytes: 32 * MIB,
  memoryLimitBytes: null,
  stringLimit: null,
  allocSampling: true,
  // bench/alloc-sampling.js (docs/benchmarks.md, docs/agent.md): at 64 KiB a JSON API spent 0-7%
  // more CPU per request (at most 1.6% of a core at 500 requests/s), at 512 KiB none measurable;
  // 512 KiB leaves a leak of a few MB between snapshots with a handful of samples, 64 KiB dozens.
  allocSamplingInterval: 64 * 1024,
  watch: null
})

/**
 * Watch mode's defaults: a floor that grew at least 16 MiB/h through six 10-minute windows (an
 * hour, one window allowed to stay flat) starts a series, and so does any steady growth that
 * reaches a limit within 30 minutes; at most one automatic series an hour.
 * @type {Readonly<WatchConfig>}
 */
export const DEFAULT_WATCH = Object.freeze({
  windowMs: 600_000,
  windows: 6,
  minRateBytesPerHour: 16 * MIB,
  timeToLimitMs: 1_800_000,
  limitFraction: null,
  cooldownMs: 3_600_000
})

/** The environment variables of watch mode's settings; LEAKDIFF_WATCH=1 turns it on. */
export const WATCH_ENV_NAMES = Object.freeze({
  windowMs: 'LEAKDIFF_WATCH_WINDOW',
  windows: 'LEAKDIFF_WATCH_WINDOWS',
  minRateBytesPerHour: 'LEAKDIFF_WATCH_MIN_RATE',
  timeToLimitMs: 'LEAKDIFF_WATCH_TIME_TO_LIMIT',
  limitFraction: 'LEAKDIFF_WATCH_FRACTION',
  cooldownMs: 'LEAKDIFF_WATCH_COOLDOWN'
})

/**
 * Signals the agent will not take: SIGUSR1 starts Node's inspector, SIGKILL/SIGSTOP cannot be
 * caught, a handler on SIGINT/SIGTERM/SIGQUIT would keep the host from stopping, and the rest are
 * faults or belong to the runtime (profiler, child processes, pipes, timers).
 */
const REFUSED_SIGNALS = new Set([
  'SIGUSR1', 'SIGKILL', 'SIGSTOP', 'SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGSEGV', 'SIGBUS', 'SIGFPE',
  'SIGILL', 'SIGABRT', 'SIGIOT', 'SIGTRAP', 'SIGSYS', 'SIGPROF', 'SIGPIPE', 'SIGCHLD', 'SIGALRM'
])

/** Names the environment variables the agent reads, for messages and docs. */
export const ENV_NAMES = Object.freeze({
  dir: 'LEAKDIFF_DIR',
  signal: 'LEAKDIFF_SIGNAL',
  count: 'LEAKDIFF_SERIES',
  intervalMs: 'LEAKDIFF_INTERVAL',
  gzip: 'LEAKDIFF_GZIP',
  keep: 'LEAKDIFF_KEEP',
  minFreeBytes: 'LEAKDIFF_MIN_FREE',
  minHeadroomBytes: 'LEAKDIFF_MIN_HEADROOM',
  headroomFactor: 'LEAKDIFF_HEADROOM_FACTOR',
  memoryLimitBytes: 'LEAKDIFF_MEMORY_LIMIT',
  stringLimit: 'LEAKDIFF_STRING_LIMIT',
  allocSampling: 'LEAKDIFF_ALLOC_SAMPLING',
  allocSamplingInterval: 'LEAKDIFF_ALLOC_INTERVAL',
  watch: 'LEAKDIFF_WATCH'
})

/**
 * Reads a rate of growth: `16MB/h`, `1MiB/min`, `200KB/s`, or a size alone (per hour).
 * @param {string} text
 * @returns {number | undefined} bytes per hour, or undefined when `text` is not a rate
 */
export function parseRate (text) {
  const match = /^\s*([^/]+?)\s*(?:\/\s*(h|min|m|s))?\s*$/i.exec(text)
  const bytes = match ? parseSize(match[1]) : undefined
  if (match === null || bytes === undefined) return undefined
  const per = (match[2] ?? 'h').toLowerCase()
  return Math.round(bytes * (per === 'h' ? 1 : per === 's' ? 3600 : 60))
}

/**
 * @param {string} text
 * @returns {boolean | undefined}
 */
function parseBoolean (text) {
  const value = text.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(value)) return true
  if (['0', 'false', 'no', 'off', ''].includes(value)) return false
  return undefined
}

/**
 * @param {string} text
 * @returns {number | undefined}
 */
function parseInteger (text) {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined
}

/**
 * Checks a signal name. Returns the reason it is refused, or undefined when it is usable.
 * @param {string} name
 * @returns {string | undefined}
 */
function signalProblem (name) {
  if (name === 'SIGUSR1') return 'SIGUSR1 starts the Node.js inspector'
  if (!(name in osConstants.signals)) return 'not a signal on this platform'
  if (REFUSED_SIGNALS.has(name)) return 'the agent must not catch it (it would change how the process stops or faults)'
  return undefined
}

/**
 * Checks options given from code and fills in defaults. Throws on a bad value: a caller that
 * passes options wants to hear about a typo at startup, not find no snapshots later.
 * @param {AgentConfigInput} [options]
 * @returns {AgentConfig}
 */
export function resolveConfig (options = {}) {
  /** @type {AgentConfig} */
  const config = { ...DEFAULT_CONFIG }
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || key === 'onEvent') continue
    if (!(key in DEFAULT_CONFIG)) throw new InvalidArgumentError(`Expected an agent option (${Object.keys(DEFAULT_CONFIG).join(', ')}, onEvent), got \`${key}\``)
    if (key === 'watch') {
      config.watch = resolveWatch(value)
      continue
    }
    const problem = checkValue(/** @type {keyof AgentConfig} */ (key), value)
    if (problem) throw new InvalidArgumentError(`Expected \`${key}\` to be ${problem}, got ${describeValue(value)}`)
    Object.assign(config, { [key]: value })
  }
  return config
}

/**
 * Watch mode's settings from code: false or null is off, true the defaults, an object some settings.
 * @param {unknown} value
 * @returns {WatchConfig | null}
 */
function resolveWatch (value) {
  if (value === null || value === false) return null
  if (value === true) return { ...DEFAULT_WATCH }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgumentError(`Expected \`watch\` to be true, false or an object of settings (${Object.keys(DEFAULT_WATCH).join(', ')}), got ${describeValue(value)}`)
  }
  /** @type {WatchConfig} */
  const watch = { ...DEFAULT_WATCH }
  for (const [key, setting] of Object.entries(value)) {
    if (setting === undefined) continue
    if (!(key in DEFAULT_WATCH)) throw new InvalidArgumentError(`Expected a watch setting (${Object.keys(DEFAULT_WATCH).join(', ')}), got \`${key}\``)
    const problem = checkWatchValue(/** @type {keyof WatchConfig} */ (key), setting)
    if (problem) throw new InvalidArgumentError(`Expected \`watch.${key}\` to be ${problem}, got ${describeValue(setting)}`)
    Object.assign(watch, { [key]: setting })
  }
  return watch
}

/**
 * @param {keyof WatchConfig} key
 * @param {unknown} value
 * @returns {string | undefined} what was expected, when `value` does not fit
 */
function checkWatchValue (key, value) {
  const isInteger = (/** @type {number} */ min, /** @type {number} */ max) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
  switch (key) {
    // Windows shorter than the time between major GCs have no floor; 100 ms is for tests.
    case 'windowMs': return isInteger(100, 2 ** 31 - 1) ? undefined : 'a number of milliseconds from 100 to 2^31-1'
    // Theil-Sen looks at every pair of windows: 100 windows are 4,950 pairs.
    case 'windows': return isInteger(3, 100) ? undefined : 'an integer from 3 to 100'
    case 'minRateBytesPerHour': return isInteger(1, Number.MAX_SAFE_INTEGER) ? undefined : 'a number of bytes per hour > 0'
    case 'timeToLimitMs':
    case 'cooldownMs':
      return isInteger(0, Number.MAX_SAFE_INTEGER) ? undefined : 'a number of milliseconds >= 0'
    case 'limitFraction':
      return value === null || (typeof value === 'number' && value > 0 && value < 1) ? undefined : 'a number between 0 and 1, or null'
  }
}

/**
 * @param {keyof AgentConfig} key
 * @param {unknown} value
 * @returns {string | undefined} what was expected, when `value` does not fit
 */
function checkValue (key, value) {
  const isCount = (/** @type {unknown} */ v, /** @type {number} */ min, /** @type {number} */ max) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
  switch (key) {
    case 'dir': return typeof value === 'string' && value !== '' ? undefined : 'a directory path'
    case 'signal':
      if (value === null) return undefined
      if (typeof value !== 'string') return 'a signal name such as "SIGUSR2", or null'
      return signalProblem(value) && `a signal the agent may catch (${signalProblem(value)})`
    case 'count': return isCount(value, 1, 1000) ? undefined : 'an integer from 1 to 1000'
    case 'intervalMs': return isCount(value, 0, 2 ** 31 - 1) ? undefined : 'a number of milliseconds from 0 to 2^31-1'
    case 'gzip': return typeof value === 'boolean' ? undefined : 'a boolean'
    case 'keep': return isCount(value, 0, 1_000_000) ? undefined : 'an integer >= 0 (0 keeps every file)'
    case 'minFreeBytes':
    case 'minHeadroomBytes':
    case 'headroomFloorBytes':
      return isCount(value, 0, Number.MAX_SAFE_INTEGER) ? undefined : 'a number of bytes >= 0'
    case 'headroomFactor': return typeof value === 'number' && value >= 0 && Number.isFinite(value) ? undefined : 'a finite number >= 0'
    case 'memoryLimitBytes':
      return value === null || isCount(value, 1, Number.MAX_SAFE_INTEGER) ? undefined : 'a number of bytes > 0, or null'
    case 'stringLimit':
      return value === null || isCount(value, 1, 2 ** 30) ? undefined : 'a number of characters from 1 to 2^30, or null'
    case 'watch': return undefined
    case 'allocSampling': return typeof value === 'boolean' || value === 'always' ? undefined : 'a boolean or "always"'
    case 'allocSamplingInterval': return isCount(value, 1024, 2 ** 30) ? undefined : 'a number of bytes from 1 KiB to 1 GiB'
  }
}

/**
 * Reads the agent's settings from the environment. A bad value never stops the host: it becomes
 * a problem line and the default is used.
 * @param {Record<string, string | undefined>} env
 * @returns {{config: AgentConfig, problems: string[]}}
 */
export function configFromEnv (env) {
  /** @type {Partial<AgentConfig>} */
  const options = {}
  /** @type {string[]} */
  const problems = []
  /**
   * @param {keyof typeof ENV_NAMES} key
   * @param {(text: string) => unknown} parse
   * @param {string} expected
   */
  const read = (key, parse, expected) => {
    const fallback = key === 'dir' ? 'the current directory' : formatDefault(key)
    const found = readSetting(env, ENV_NAMES[key], parse, (value) => checkValue(key, value), expected, fallback, problems)
    if (found) Object.assign(options, { [key]: found.value })
  }
  read('dir', (text) => text, 'a directory path')
  read('signal', (text) => (/^(none|off)$/i.test(text) ? null : normalizeSignal(text)), 'a signal name such as SIGUSR2')
  read('count', parseInteger, 'an integer from 1 to 1000')
  read('intervalMs', parseDuration, 'a duration such as 60s, 2m or 500ms')
  read('gzip', parseBoolean, 'true or false')
  read('keep', parseInteger, 'an integer >= 0')
  read('minFreeBytes', parseSize, 'a size such as 512MB or 512MiB')
  read('minHeadroomBytes', parseSize, 'a size such as 64MB or 64MiB')
  read('headroomFactor', (text) => (/^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : undefined), 'a number >= 0')
  read('memoryLimitBytes', parseSize, 'a size such as 512MB or 512MiB')
  read('stringLimit', (text) => (/^whole$/i.test(text) ? 2 ** 30 : parseInteger(text)), 'a number of characters, or whole')
  read('watch', (text) => (parseBoolean(text) ? { ...DEFAULT_WATCH } : parseBoolean(text) === false ? null : undefined), 'true or false')
  if (options.watch) options.watch = watchFromEnv(env, problems)
  read('allocSampling', (text) => (/^always$/i.test(text) ? 'always' : parseBoolean(text)), 'true, false (0 turns sampling off) or always')
  read('allocSamplingInterval', parseSize, 'a size such as 64KiB')
  return { config: { ...DEFAULT_CONFIG, ...options }, problems }
}

/**
 * Watch mode's settings from LEAKDIFF_WATCH_* variables; a bad one is a problem line and its default.
 * @param {Record<string, string | undefined>} env
 * @param {string[]} problems  added to
 * @returns {WatchConfig}
 */
function watchFromEnv (env, problems) {
  /** @type {WatchConfig} */
  const watch = { ...DEFAULT_WATCH }
  /**
   * @param {keyof WatchConfig} key
   * @param {(text: string) => unknown} parse
   * @param {string} expected
   * @param {string} fallback
   */
  const read = (key, parse, expected, fallback) => {
    const found = readSetting(env, WATCH_ENV_NAMES[key], parse, (value) => checkWatchValue(key, value), expected, fallback, problems)
    if (found) Object.assign(watch, { [key]: found.value })
  }
  const off = (/** @type {(text: string) => number | undefined} */ parse) => (/** @type {string} */ text) => (/^(0|off|none)$/i.test(text) ? 0 : parse(text))
  read('windowMs', parseDuration, 'a duration such as 10m or 30s', '10m')
  read('windows', parseInteger, 'an integer from 3 to 100', '6')
  read('minRateBytesPerHour', parseRate, 'a rate such as 16MB/h or 16MiB/h', '16MiB/h')
  read('timeToLimitMs', off(parseDuration), 'a duration such as 30m, or off', '30m')
  read('limitFraction', (text) => (/^(off|none)$/i.test(text) ? null : /^\d*\.\d+$|^\d+%$/.test(text) ? (text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text)) : undefined), 'a fraction such as 0.9 or 90%, or off', 'off')
  read('cooldownMs', parseDuration, 'a duration such as 1h', '1h')
  return watch
}

/**
 * One setting from the environment: its parsed value, or nothing when it is unset or bad (a bad
 * one adds a problem line naming the value and what is used instead).
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {(text: string) => unknown} parse   undefined for text it does not read
 * @param {(value: any) => string | undefined} check  what was expected, when the value is out of range
 * @param {string} expected
 * @param {string} fallback
 * @param {string[]} problems  added to
 * @returns {{value: unknown} | undefined}
 */
function readSetting (env, name, parse, check, expected, fallback, problems) {
  const text = env[name]
  if (text === undefined || text.trim() === '') return undefined
  const value = parse(text.trim())
  const problem = value === undefined ? expected : check(value)
  if (problem) {
    problems.push(`ignoring ${name}=${JSON.stringify(text)}: expected ${problem}; using ${fallback}`)
    return undefined
  }
  return { value }
}

/**
 * @param {string} text
 * @returns {string}
 */
function normalizeSignal (text) {
  const upper = text.toUpperCase()
  return upper.startsWith('SIG') ? upper : `SIG${upper}`
}

/**
 * @param {keyof AgentConfig} key
 * @returns {string}
 */
function formatDefault (key) {
  const value = DEFAULT_CONFIG[key]
  if (key === 'watch') return 'off'
  if (key === 'intervalMs') return `${Number(value) / 1000}s`
  if (key.endsWith('Bytes') && typeof value === 'number') return `${value / MIB}MiB`
  if (key === 'allocSamplingInterval') return `${Number(value) / 1024}KiB`
  return String(value)
}
