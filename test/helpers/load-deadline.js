// Time limits for tests that wait on another process. A test waits on an event (a line the child
// prints, a file it writes, its exit); the limit only ends a wait that would otherwise never end,
// so it is generous and stretches with the machine's load: a base that suits an idle machine,
// times the run queue per core when that is above 1. A limit is asked of the load again when it
// runs out, so a machine that got busy during the wait gets the longer limit.
import { execFile } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'

/** How often pollUntil looks by default, in ms. */
const POLL_MS = 20

/**
 * How many times slower than idle this machine runs now: the one-minute load average per core,
 * and never less than 1 (Windows reports no load average: 1 there).
 * @returns {number}
 */
export function loadFactor () {
  return Math.max(1, loadavg()[0] / availableParallelism())
}

/**
 * `baseMs` stretched by the load now, in whole ms.
 * @param {number} baseMs the limit on an idle machine
 * @returns {number}
 */
export function scaledMs (baseMs) {
  return Math.ceil(baseMs * loadFactor())
}

/**
 * A duration for a command line (`--timeout 20s`): `baseMs` stretched by the load now, in whole seconds.
 * @param {number} baseMs
 * @returns {string}
 */
export function scaledSeconds (baseMs) {
  return `${Math.ceil(scaledMs(baseMs) / 1000)}s`
}

/**
 * Calls `onExpire` once `baseMs`, stretched by the load, have passed since the call. When the time
 * comes the load is asked again, and the wait goes on while the newer stretch allows it.
 * @param {() => void} onExpire
 * @param {number} baseMs
 * @returns {() => void} cancels the limit
 */
export function loadTimeout (onExpire, baseMs) {
  const started = Date.now()
  /** @type {NodeJS.Timeout} */
  let timer
  const arm = (/** @type {number} */ ms) => {
    timer = setTimeout(() => {
      const left = scaledMs(baseMs) - (Date.now() - started)
      if (left > 0) arm(left)
      else onExpire()
    }, ms)
  }
  arm(scaledMs(baseMs))
  return () => clearTimeout(timer)
}

/**
 * Asks `check` every `everyMs` until it returns true, or `baseMs` stretched by the load have passed.
 * @param {() => boolean | Promise<boolean>} check
 * @param {number} baseMs
 * @param {number} [everyMs]
 * @returns {Promise<boolean>} the last answer of `check`
 */
export async function pollUntil (check, baseMs, everyMs = POLL_MS) {
  let expired = false
  const cancel = loadTimeout(() => { expired = true }, baseMs)
  try {
    while (true) {
      if (await check()) return true
      if (expired) return false
      await new Promise((resolve) => setTimeout(resolve, everyMs))
    }
  } finally {
    cancel()
  }
}

/**
 * @typedef {object} ProcessResult
 * @property {string} stdout
 * @property {string} stderr
 * @property {number | null} code    the exit code, null when a signal ended it
 * @property {string | null} signal
 * @property {boolean} timedOut       it was killed at the limit
 */

/**
 * Runs a program to its end, as execFile does, and SIGKILLs it only when it outlives `baseMs`
 * stretched by the load (loadTimeout). Resolves whatever the exit code.
 * @param {string} file
 * @param {string[]} args
 * @param {import('node:child_process').ExecFileOptions & {stdin?: string}} options stdin: text written to its standard input
 * @param {number} baseMs
 * @returns {Promise<ProcessResult>}
 */
export function execFileWithin (file, args, { stdin, ...options }, baseMs) {
  return new Promise((resolve) => {
    let timedOut = false
    const child = execFile(file, args, { maxBuffer: 64 << 20, ...options, encoding: 'utf8' }, (error, stdout, stderr) => {
      cancel()
      const failure = /** @type {(Error & {code?: unknown, signal?: string | null}) | null} */ (error)
      const code = failure === null ? 0 : typeof failure.code === 'number' ? failure.code : null
      resolve({ stdout: String(stdout), stderr: String(stderr), code, signal: failure?.signal ?? null, timedOut })
    })
    const cancel = loadTimeout(() => { timedOut = true; child.kill('SIGKILL') }, baseMs)
    child.stdin?.on('error', () => {})
    child.stdin?.end(stdin)
  })
}
