// Runs the agent fixtures (fixtures/agent/) as real child processes, the way users load the agent:
// from a directory whose node_modules/leakdiff is this package, so `--import leakdiff/register` and
// `-r leakdiff/register` resolve through the exports map.
import { spawn } from 'node:child_process'
import { mkdtemp, mkdir, rm, symlink, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import http from 'node:http'
import { isMarkerName } from '../../src/agent/agent-marker.js'
import { loadTimeout, scaledMs } from './load-deadline.js'

/** How long a wait for the child's next line may take on an idle machine (stretched by the load). */
const LINE_MS = 30_000
/** How long an HTTP request to the child may go without an answer on an idle machine. */
const REQUEST_MS = 10_000

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const FIXTURES = join(ROOT, 'fixtures', 'agent')

/**
 * A temporary directory with node_modules/leakdiff -> the package root. Remove it with `cleanup()`.
 * @returns {Promise<{dir: string, cleanup: () => Promise<void>}>}
 */
export async function makeInstallDir () {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-agent-'))
  await mkdir(join(dir, 'node_modules'))
  await symlink(ROOT, join(dir, 'node_modules', 'leakdiff'), 'dir')
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/**
 * @typedef {object} ChildApp
 * @property {import('node:child_process').ChildProcess} child
 * @property {string[]} ready      the words of the ready line after `ready`
 * @property {() => string} stderr everything written to stderr so far
 * @property {(pattern: RegExp, nth?: number) => Promise<string>} waitForStderr  resolves with the nth (default first) matching line
 * @property {() => Promise<void>} stop  SIGKILL (to the cluster workers too) and wait for exit
 */

/**
 * Starts a fixture and waits for its `ready` line.
 * @param {{script: string, nodeArgs?: string[], env?: Record<string, string>, cwd: string, extraPids?: (ready: string[]) => number[], fileSizeBlocks?: number}} options
 * @returns {Promise<ChildApp>}
 */
export async function startApp ({ script, nodeArgs = [], env = {}, cwd, extraPids = () => [], fileSizeBlocks }) {
  const args = [...nodeArgs, join(FIXTURES, script)]
  // A file-size limit (RLIMIT_FSIZE, in 512-byte blocks) set by the shell, which then becomes node:
  // a write past it fails with EFBIG, as on a full disk (node ignores SIGXFSZ).
  const [command, argv] = fileSizeBlocks === undefined
    ? [process.execPath, args]
    : ['/bin/sh', ['-c', `ulimit -f ${fileSizeBlocks} && exec "$0" "$@"`, process.execPath, ...args]]
  const child = spawn(command, argv, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  /** @type {Set<() => void>} */
  const listeners = new Set()
  child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; for (const f of listeners) f() })
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; for (const f of listeners) f() })
  child.on('exit', () => { for (const f of listeners) f() })

  /**
   * @param {() => string | undefined} check
   * @param {number} baseMs  limit on an idle machine, stretched by the load
   * @param {string} what
   * @returns {Promise<string>}
   */
  const waitFor = (check, baseMs, what) => new Promise((resolve, reject) => {
    const poll = () => {
      const found = check()
      if (found !== undefined) return finish(() => resolve(found))
      if (child.exitCode !== null || child.signalCode !== null) {
        finish(() => reject(new Error(`child exited (${child.exitCode ?? child.signalCode}) before ${what}; stderr:\n${stderr}`)))
      }
    }
    const cancel = loadTimeout(() => finish(() => reject(new Error(`timed out waiting for ${what}; stderr:\n${stderr}`))), baseMs)
    /** @param {() => void} settle */
    const finish = (settle) => {
      cancel()
      listeners.delete(poll)
      settle()
    }
    listeners.add(poll)
    poll()
  })

  /** @type {number[]} */
  let pids = []
  const app = {
    child,
    ready: /** @type {string[]} */ ([]),
    stderr: () => stderr,
    /** @param {RegExp} pattern @param {number} [nth] */
    waitForStderr: (pattern, nth = 1) =>
      waitFor(() => stderr.split('\n').filter((line) => pattern.test(line))[nth - 1], LINE_MS, `stderr line ${nth} matching ${pattern}`),
    stop: async () => {
      for (const pid of pids) {
        try { process.kill(pid, 'SIGKILL') } catch {}
      }
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGKILL')
        await exited
      }
    }
  }
  try {
    const line = await waitFor(() => stdout.split('\n').find((l) => l.startsWith('ready ')), LINE_MS, 'the ready line')
    // What the app wrote to stderr before its ready line (the agent's own lines) is in the pipe by
    // then, but the event loop may hand the stdout chunk over first, with the stderr chunk next in
    // the same round: tests read those lines as soon as this returns.
    await new Promise((resolve) => { setImmediate(resolve) })
    app.ready = line.split(' ').slice(1)
    pids = extraPids(app.ready)
  } catch (error) {
    await app.stop()
    throw error
  }
  return app
}

/**
 * One HTTP GET to the app; resolves with the body.
 * @param {number | string} port
 * @returns {Promise<string>}
 */
export function get (port) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: Number(port), path: '/', agent: false }, (response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk) => { body += chunk }).on('end', () => resolve(body))
    }).on('error', reject).setTimeout(scaledMs(REQUEST_MS), function () { this.destroy(new Error('request timed out')) })
  })
}

/**
 * @param {string} dir
 * @returns {Promise<string[]>} sorted names, [] when `dir` does not exist; the agent's marker
 *   (present while it listens for a signal) left out: the tests count what a series wrote
 */
export async function listDir (dir) {
  try {
    return (await readdir(dir)).filter((name) => !isMarkerName(name)).sort()
  } catch {
    return []
  }
}
