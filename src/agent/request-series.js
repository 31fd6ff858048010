import { watch } from 'node:fs'
import { access, readFile, readdir, readlink } from 'node:fs/promises'
import { constants as osConstants } from 'node:os'
import { join, resolve as resolvePath } from 'node:path'
import { CaptureError, InvalidArgumentError } from '../errors.js'
import { parseFileName } from './file-names.js'
import { DEFAULT_CONFIG, ENV_NAMES } from './config.js'
import { checkMarker } from './agent-marker.js'

/**
 * The series file as the agent writes it (series-writer.js): `planned` when it starts, then the
 * outcome. Names are base names in the series' directory.
 * @typedef {object} SeriesRecord
 * @property {string} id
 * @property {number} pid
 * @property {'running' | 'complete' | 'failed' | 'stopped'} status
 * @property {string} startedAt
 * @property {string | null} endedAt
 * @property {number} count
 * @property {number} intervalMs
 * @property {boolean} gzip
 * @property {string[]} planned
 * @property {string[]} snapshots
 * @property {string | null} error
 * @property {import('./thread-info.js').ThreadInfo} [thread]  the thread that wrote it
 * @property {import('./thread-relay.js').ThreadSeries[]} [threads]  the worker threads' parts of a
 *   main thread's series
 */

/**
 * @typedef {object} RequestedSeries
 * @property {string} id
 * @property {string} seriesFile
 * @property {string[]} snapshots  absolute paths, oldest first
 * @property {string[]} sidecars
 * @property {SeriesRecord} record
 * @property {ThreadFiles[]} threads  each worker thread's part of the series (none in a process
 *   without workers)
 */

/**
 * A worker thread's snapshots of a series, read from the main thread's series file.
 * @typedef {object} ThreadFiles
 * @property {number} threadId
 * @property {string | null} file    the worker's script
 * @property {string | null} name
 * @property {string} status
 * @property {string | null} error
 * @property {string[]} snapshots    absolute paths, oldest first
 */

/**
 * @typedef {object} SeriesProgress
 * @property {'signalled' | 'started' | 'snapshot'} type
 * @property {string} message
 * @property {string} [path]
 */

/**
 * Reads a series file. Undefined while it cannot be read or is not a series record (a reader may
 * look between the agent's writes; the agent renames whole files into place, so this is rare).
 * @param {string} path
 * @returns {Promise<SeriesRecord | undefined>}
 */
export async function readSeriesFile (path) {
  try {
    const record = JSON.parse(await readFile(path, 'utf8'))
    return record && record.kind === 'leakdiff-series' && typeof record.status === 'string' ? record : undefined
  } catch {
    return undefined
  }
}

/**
 * Where the agent in process `pid` writes and which signal it listens on, read from the process's
 * start environment and working directory (Linux /proc, same user). Falls back to the agent's
 * defaults resolved against this process, which is right when both share a directory.
 * @param {number} pid
 * @param {{env?: Record<string, string | undefined>}} [options]  the fallback environment
 * @returns {Promise<{dir: string, signal: NodeJS.Signals, source: 'process' | 'defaults'}>}
 */
export async function agentSettingsOf (pid, { env = process.env } = {}) {
  const fallbackSignal = normalizeSignal(env[ENV_NAMES.signal]) ?? /** @type {NodeJS.Signals} */ (DEFAULT_CONFIG.signal)
  const fallback = { dir: resolvePath(env[ENV_NAMES.dir] || DEFAULT_CONFIG.dir), signal: fallbackSignal, source: /** @type {const} */ ('defaults') }
  let environ
  let cwd
  try {
    environ = await readFile(`/proc/${pid}/environ`, 'latin1')
    cwd = await readlink(`/proc/${pid}/cwd`)
  } catch {
    return fallback
  }
  /** @type {Record<string, string>} */
  const vars = {}
  for (const entry of environ.split('\0')) {
    const eq = entry.indexOf('=')
    if (eq > 0) vars[entry.slice(0, eq)] = entry.slice(eq + 1)
  }
  return {
    dir: resolvePath(cwd, vars[ENV_NAMES.dir]?.trim() || DEFAULT_CONFIG.dir),
    signal: normalizeSignal(vars[ENV_NAMES.signal]) ?? /** @type {NodeJS.Signals} */ (DEFAULT_CONFIG.signal),
    source: 'process'
  }
}

/**
 * @param {string | undefined} text
 * @returns {NodeJS.Signals | undefined}
 */
function normalizeSignal (text) {
  const value = text?.trim().toUpperCase()
  if (!value || value === 'NONE' || value === 'OFF') return undefined
  return /** @type {NodeJS.Signals} */ (value.startsWith('SIG') ? value : `SIG${value}`)
}

/**
 * Series files of `pid` in `dir`, by base name.
 * @param {string} dir
 * @param {number} pid
 * @returns {Promise<string[]>}
 */
async function seriesFilesOf (dir, pid) {
  let names
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  return names.filter((name) => {
    const parsed = parseFileName(name)
    return parsed?.kind === 'series' && parsed.pid === pid
  })
}

/**
 * @param {number} pid
 * @returns {boolean} false once the process is gone
 */
function isAlive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM'
  }
}

/**
 * Asks the agent in another process for a series: checks that the process is that agent's (its
 * marker in `dir`, unless `force`), sends it the agent's signal and waits, watching
 * `dir`, for a new series file of that pid to reach a final status. Resolves with the files of a
 * complete series. Rejects with a CaptureError when there is no such process (ESRCH), it may not
 * be signalled (EPERM), it runs no agent that writes to `dir` (no marker), no series starts within `timeoutMs` (no agent, another directory, another
 * signal), the series fails or is stopped (with the agent's reason), or the process exits mid-series.
 * Once a series has started there is no time limit: writes of big heaps take minutes, and the
 * process's exit is noticed.
 * @param {number} pid
 * @param {{dir: string, signal?: NodeJS.Signals, timeoutMs?: number, pollMs?: number,
 *   onProgress?: (progress: SeriesProgress) => void, abortSignal?: AbortSignal, force?: boolean}} options
 *   pollMs: how often the directory is listed besides fs.watch events (which some file systems lack);
 *   force: send even without the agent's marker in `dir` (agent-marker.js) naming this process
 * @returns {Promise<RequestedSeries>}
 */
export async function requestSeries (pid, { dir, signal = 'SIGUSR2', timeoutMs = 10_000, pollMs = 1000, onProgress = () => {}, abortSignal, force = false }) {
  if (!Number.isSafeInteger(pid) || pid <= 0) throw new InvalidArgumentError(`Expected a process id (an integer > 0), got \`${pid}\``)
  if (typeof dir !== 'string' || dir === '') throw new InvalidArgumentError(`Expected \`dir\` to be a directory path, got \`${dir}\``)
  if (!(timeoutMs > 0)) throw new InvalidArgumentError(`Expected \`timeoutMs\` to be a number > 0, got \`${timeoutMs}\``)
  dir = resolvePath(dir)
  const before = new Set(await seriesFilesOf(dir, pid))
  sendSignal(pid, 0)
  // Many programs catch SIGUSR2 to do something else with it (a shell's trap, nginx's binary
  // upgrade, gunicorn's re-exec): only a process whose agent left its marker gets the signal.
  const notAgent = force ? null : await checkMarker(pid, dir, signal)
  if (notAgent !== null) {
    throw new CaptureError(
      `Nothing was sent to pid ${pid}: ${notAgent}. Check the pid and the agent's directory (LEAKDIFF_DIR, --dir); ` +
      `a service needs the agent (node --import leakdiff/register app.js, or -r leakdiff/register); --force sends ${signal} anyway`)
  }
  if (await catchesSignal(pid, signal) === false) {
    throw new CaptureError(
      `Pid ${pid} does not catch ${signal}, so no agent listens there and ${signal} would terminate it; nothing was sent. ` +
      'Start the process with the agent (node --import leakdiff/register app.js, or -r leakdiff/register), or pass the signal it listens on')
  }
  sendSignal(pid, signal)
  onProgress({ type: 'signalled', message: `sent ${signal} to pid ${pid}; watching ${dir}` })
  /** @type {string[]} */
  const runningBefore = []
  for (const name of before) {
    const record = await readSeriesFile(join(dir, name))
    if (record?.status === 'running') runningBefore.push(record.id)
  }
  return await new Promise((resolve, reject) => {
    /** @type {string | undefined} */
    let seriesName
    /** @type {Set<string>} */
    const seen = new Set()
    let checking = false
    let again = false
    let done = false
    /** @type {import('node:fs').FSWatcher | undefined} */
    let watcher
    const startedAt = Date.now()

    /** @param {() => void} settle */
    const finish = (settle) => {
      if (done) return
      done = true
      clearInterval(poller)
      watcher?.close()
      abortSignal?.removeEventListener('abort', onAbort)
      settle()
    }
    /** @param {Error} error */
    const fail = (error) => finish(() => reject(error))
    const onAbort = () => fail(new CaptureError(`Stopped waiting for the series of pid ${pid}`, { cause: abortSignal?.reason }))

    const tryWatch = () => {
      if (watcher) return
      try {
        watcher = watch(dir, { persistent: false }, () => { check() })
        watcher.on('error', () => { watcher?.close() })
      } catch {}
    }

    const check = async () => {
      if (done) return
      if (checking) {
        again = true
        return
      }
      checking = true
      try {
        do {
          again = false
          if (!done) await step()
        } while (again)
      } catch (error) {
        fail(/** @type {Error} */ (error))
      } finally {
        checking = false
      }
    }

    const step = async () => {
      tryWatch()
      if (seriesName === undefined) {
        seriesName = (await seriesFilesOf(dir, pid)).find((name) => !before.has(name))
        if (seriesName === undefined) {
          if (Date.now() - startedAt >= timeoutMs) {
            const running = runningBefore.length > 0 ? `; series ${runningBefore[0]} of that pid was already running, and the agent ignores signals until it ends` : ''
            fail(new CaptureError(
              `No series from pid ${pid} appeared in ${dir} within ${formatMs(timeoutMs)} after ${signal}${running}: ` +
              `is the agent loaded (node --import leakdiff/register app.js, or -r leakdiff/register), listening on ${signal}, and writing to that directory (LEAKDIFF_DIR, --dir)?`))
          } else if (!isAlive(pid)) {
            fail(new CaptureError(`Pid ${pid} exited after ${signal} before a series started (no agent listening on ${signal}?)`))
          }
          return
        }
      }
      const seriesFile = join(dir, seriesName)
      const record = await readSeriesFile(seriesFile)
      if (record === undefined) return
      if (!seen.has('started')) {
        seen.add('started')
        onProgress({ type: 'started', message: `series ${record.id} started: ${record.count} snapshot${record.count === 1 ? '' : 's'} ${formatMs(record.intervalMs)} apart`, path: seriesFile })
      }
      if (record.status === 'running') {
        for (const name of record.planned) {
          if (seen.has(name) || !(await exists(join(dir, name.replace(/\.heapsnapshot(\.gz)?$/, '.meta.json'))))) continue
          seen.add(name)
          onProgress({ type: 'snapshot', message: `snapshot ${seen.size - 1} of ${record.count}: ${join(dir, name)}`, path: join(dir, name) })
        }
        if (!isAlive(pid)) {
          fail(new CaptureError(`Pid ${pid} exited during series ${record.id} (${seen.size - 1} of ${record.count} snapshots written)`))
        }
        return
      }
      if (record.status === 'complete') {
        const snapshots = record.snapshots.map((name) => join(dir, name))
        const sidecars = snapshots.map((path) => path.replace(/\.heapsnapshot(\.gz)?$/, '.meta.json'))
        finish(() => resolve({ id: record.id, seriesFile, snapshots, sidecars, record, threads: threadFilesOf(record, dir) }))
        return
      }
      fail(new CaptureError(`Series ${record.id} of pid ${pid} ${record.status} after ${record.snapshots.length} of ${record.count} snapshots: ${record.error ?? 'no reason given'}`))
    }

    const poller = setInterval(check, Math.min(pollMs, timeoutMs))
    if (abortSignal?.aborted) return onAbort()
    abortSignal?.addEventListener('abort', onAbort)
    check()
  })
}

/**
 * The worker threads' parts of a main thread's series, as its series file lists them.
 * @param {SeriesRecord} record
 * @param {string} dir
 * @returns {ThreadFiles[]}
 */
export function threadFilesOf (record, dir) {
  if (!Array.isArray(record.threads)) return []
  // Base names only: a series file must not send the reader elsewhere.
  const inDir = (/** @type {unknown} */ name) => (typeof name === 'string' && /^[^/\\]+$/.test(name) ? [join(dir, name)] : [])
  return record.threads.map((thread) => ({
    threadId: Number(thread.threadId),
    file: typeof thread.file === 'string' ? thread.file : null,
    name: typeof thread.name === 'string' ? thread.name : null,
    status: String(thread.status),
    error: typeof thread.error === 'string' ? thread.error : null,
    snapshots: Array.isArray(thread.snapshots) ? thread.snapshots.flatMap(inDir) : []
  }))
}

/**
 * process.kill with the errors a user can act on turned into CaptureErrors.
 * @param {number} pid
 * @param {NodeJS.Signals | 0} signal  0 checks that the process exists and may be signalled
 */
function sendSignal (pid, signal) {
  try {
    process.kill(pid, signal)
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    if (code === 'ESRCH') throw new CaptureError(`No process with pid ${pid}`, { cause: error })
    if (code === 'EPERM') throw new CaptureError(`Not permitted to signal pid ${pid} (EPERM): run as the user that owns the process, or as root`, { cause: error })
    throw new CaptureError(`Expected to send ${signal} to pid ${pid}, but ${/** @type {Error} */ (error).message}`, { cause: error })
  }
}

/**
 * Whether process `pid` has a handler for `signal` (Linux: the SigCgt mask in /proc/<pid>/status).
 * A Node.js process without one dies of SIGUSR2, SIGHUP and most others, so this is checked before
 * sending. Undefined where it cannot be told.
 * @param {number} pid
 * @param {NodeJS.Signals} signal
 * @returns {Promise<boolean | undefined>}
 */
export async function catchesSignal (pid, signal) {
  const number = osConstants.signals[signal]
  if (number === undefined) return undefined
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(await readFile(`/proc/${pid}/status`, 'latin1'))?.[1]
    return mask === undefined ? undefined : ((BigInt(`0x${mask}`) >> BigInt(number - 1)) & 1n) === 1n
  } catch {
    return undefined
  }
}

/**
 * @param {string} path
 * @returns {Promise<boolean>}
 */
async function exists (path) {
  try {
    await access(path)
    return true
  } catch {
    return false
  }
}

/**
 * @param {number} ms
 * @returns {string}
 */
function formatMs (ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
