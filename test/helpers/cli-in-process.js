// Runs a piece of the CLI (emitReport, a command's handler, a check) in the test's own process, as
// cli/leakdiff.js runs it once yargs has parsed the command line: what it writes to stdout and
// stderr, the exit code it sets, and an error it throws turned into its one line and exit code by
// reportError. Only the CLI's own process shows what yargs, the terminal and the exit do: those
// stay in the *.e2e.test.js files.
import { DEFAULT_DIFF_OPTIONS } from '#cli/support'
import { handler as captureHandler } from '../../cli/commands/capture.js'
import { handler as diffHandler } from '../../cli/commands/diff.js'
import { handler as inspectHandler } from '../../cli/commands/inspect.js'
import { reportError } from '../../cli/output.js'
import { GATE_OPTIONS } from '../../cli/gate-options.js'

/** What the parent's environment must not give a run (run-cli.js leaves them out too). */
const CLEARED = ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY']

/** @type {Promise<unknown>} */
let queue = Promise.resolve()

/**
 * Runs `fn` with process.stdout and process.stderr captured, `env` set (undefined removes a
 * variable; GITHUB_ACTIONS and GITHUB_STEP_SUMMARY are removed unless given) and process.exitCode
 * cleared; restores all of them after. The stubs are process-wide, so calls run one at a time.
 * @param {() => unknown} fn
 * @param {Record<string, string | undefined>} [env]
 * @returns {Promise<{stdout: string, stderr: string, code: number}>}
 */
export function inProcess (fn, env = {}) {
  const run = queue.then(() => captureOutput(fn, env))
  queue = run.catch(() => {})
  return run
}

/**
 * @param {() => unknown} fn
 * @param {Record<string, string | undefined>} env
 */
async function captureOutput (fn, env) {
  const { stdout, stderr } = process
  const saved = { out: stdout.write, err: stderr.write, exitCode: process.exitCode }
  const given = { ...Object.fromEntries(CLEARED.map((name) => [name, undefined])), ...env }
  const savedEnv = Object.fromEntries(Object.keys(given).map((name) => [name, process.env[name]]))
  const output = { stdout: '', stderr: '' }
  stdout.write = (/** @type {string | Uint8Array} */ chunk) => { output.stdout += String(chunk); return true }
  stderr.write = (/** @type {string | Uint8Array} */ chunk) => { output.stderr += String(chunk); return true }
  setEnv(given)
  process.exitCode = undefined
  try {
    try {
      await fn()
    } catch (error) {
      process.exitCode = reportError(error)
    }
    return { ...output, code: Number(process.exitCode ?? 0) }
  } finally {
    stdout.write = saved.out
    stderr.write = saved.err
    setEnv(savedEnv)
    process.exitCode = saved.exitCode
  }
}

/** @param {Record<string, string | undefined>} env */
function setEnv (env) {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
}

/**
 * The gate options as yargs hands them to a handler, from their command-line text: `{'fail-on':
 * 'any', 'max-growth': '5MB', allow: 'a, b'}` through the options' own coerce.
 * @param {{'fail-on'?: string, 'max-growth'?: string, allow?: string}} flags
 * @returns {{failOn?: 'any' | string[], maxGrowth?: number, allow?: string[]}}
 */
export function gateArgv (flags) {
  return {
    ...(flags['fail-on'] === undefined ? {} : { failOn: GATE_OPTIONS['fail-on'].coerce(flags['fail-on']) }),
    ...(flags['max-growth'] === undefined ? {} : { maxGrowth: GATE_OPTIONS['max-growth'].coerce(flags['max-growth']) }),
    ...(flags.allow === undefined ? {} : { allow: GATE_OPTIONS.allow.coerce(flags.allow) })
  }
}

/**
 * `leakdiff inspect <snapshot> [options]` with the builder's defaults, NO_COLOR as run-cli.js sets it.
 * @param {string} snapshot
 * @param {{top?: number, format?: string, output?: string, skipMemoryCheck?: boolean}} [options]
 * @param {Record<string, string | undefined>} [env]
 */
export function inspect (snapshot, options = {}, env = {}) {
  return inProcess(() => inspectHandler({ snapshot, top: 20, format: 'text', color: false, ...options }), env)
}

/**
 * `leakdiff <snapshots..> [options]` with the builder's defaults, NO_COLOR as run-cli.js sets it.
 * @param {string[]} snapshots
 * @param {Partial<Parameters<typeof diffHandler>[0]>} [options] gate options as gateArgv gives them
 * @param {Record<string, string | undefined>} [env]
 */
export function diff (snapshots, options = {}, env = {}) {
  const { minBytes, minObjects, minContinued } = DEFAULT_DIFF_OPTIONS
  return inProcess(() => diffHandler({ snapshots, top: 10, format: 'text', color: false, minBytes, minObjects, minContinued, ...options }), env)
}

/**
 * `leakdiff capture <pid> [options]` with the builder's defaults.
 * @param {string} pid
 * @param {Partial<Parameters<typeof captureHandler>[0]>} [options]
 */
export function capture (pid, options = {}) {
  return inProcess(() => captureHandler({ pid, timeout: '10s', diff: false, force: false, top: 10, format: 'text', ...options }))
}
