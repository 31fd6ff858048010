// The agent's marker: a file in its directory that says "pid N runs a leakdiff agent listening on
// this signal". `leakdiff capture` (requestSeries) sends a signal only to a process that has one, so
// that a mistyped pid never reaches a shell that traps SIGUSR2, nginx (binary upgrade), gunicorn or
// unicorn (re-exec), which all catch it. A pid is reused once its process is gone, so the marker also
// names the executable and, on Linux, the process's start time, which the reader compares with
// /proc: a marker left by a killed process names another process than the one now under that pid.
//
//   .leakdiff-agent-<pid>.json   0600, written when the agent starts listening, removed when it stops
//                                or the process exits; markers of gone processes go at the next start
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { readFile, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { isProcessAlive } from './fs-safe.js'

const MARKER_NAME = /^\.leakdiff-agent-(\d+)\.json$/

/**
 * @typedef {object} AgentMarker
 * @property {'leakdiff-agent'} kind
 * @property {number} pid
 * @property {string} signal     the signal the agent listens on
 * @property {string} execPath   the Node.js executable
 * @property {string | null} startTime  field 22 of /proc/<pid>/stat (clock ticks after boot), null off Linux
 */

/**
 * @param {string} dir
 * @param {number} pid
 * @returns {string}
 */
export function markerPath (dir, pid) {
  return join(dir, `.leakdiff-agent-${pid}.json`)
}

/**
 * Whether a base name is an agent's marker.
 * @param {string} name
 */
export function isMarkerName (name) {
  return MARKER_NAME.test(name)
}

/**
 * When process `pid` started, as the kernel counts it (field 22 of /proc/<pid>/stat); null where
 * there is no /proc. Synchronous, for the agent's start.
 * @param {number} pid
 * @returns {string | null}
 */
function startTimeOf (pid) {
  try {
    return startTimeIn(readFileSync(`/proc/${pid}/stat`, 'latin1'))
  } catch {
    return null
  }
}

/**
 * @param {string} stat the text of /proc/<pid>/stat
 * @returns {string | null}
 */
function startTimeIn (stat) {
  // Field 2 (the command) may hold spaces and ')': count the fields after its last ')'; that is
  // field 3, so the start time (field 22) is the 20th from there.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
}

/**
 * Writes this process's marker (creating `dir`, 0700, when missing) and removes the markers of
 * processes that are gone. Returns a function that removes it; throws what the file system threw.
 * @param {string} dir
 * @param {string} signal
 * @returns {() => void}
 */
export function writeMarker (dir, signal) {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  for (const name of readdirSync(dir)) {
    const pid = Number(MARKER_NAME.exec(name)?.[1])
    if (pid > 0 && pid !== process.pid && !isProcessAlive(pid)) removeQuietly(join(dir, name))
  }
  const path = markerPath(dir, process.pid)
  /** @type {AgentMarker} */
  const marker = { kind: 'leakdiff-agent', pid: process.pid, signal, execPath: process.execPath, startTime: startTimeOf(process.pid) }
  removeQuietly(path)
  writeFileSync(path, JSON.stringify(marker) + '\n', { mode: 0o600, flag: 'wx' })
  return () => removeQuietly(path)
}

/** @param {string} path */
function removeQuietly (path) {
  try {
    unlinkSync(path)
  } catch {}
}

/**
 * Why process `pid` is not known to run an agent that listens on `signal` and writes to `dir`, or
 * null when its marker says it does and, where /proc tells, names the process now under that pid.
 * @param {number} pid
 * @param {string} dir
 * @param {string} signal
 * @returns {Promise<string | null>}
 */
export async function checkMarker (pid, dir, signal) {
  /** @type {Partial<AgentMarker>} */
  let marker
  try {
    marker = JSON.parse(await readFile(markerPath(dir, pid), 'utf8'))
  } catch {
    return `no leakdiff agent of pid ${pid} writes to ${dir} (it leaves ${markerPath(dir, pid)} when it starts)`
  }
  if (marker?.kind !== 'leakdiff-agent' || marker.pid !== pid) return `${markerPath(dir, pid)} is not an agent's marker for pid ${pid}`
  if (marker.signal !== signal) return `the agent of pid ${pid} listens on ${marker.signal}, not ${signal}`
  let exe
  let stat
  try {
    exe = (await readlink(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '')
    stat = await readFile(`/proc/${pid}/stat`, 'latin1')
  } catch {
    // No /proc (macOS), or another user's process: the marker is all there is to go by.
    return null
  }
  if (exe !== marker.execPath) return `pid ${pid} runs ${exe}, not the Node.js of its agent's marker (${marker.execPath}): the agent's process is gone`
  if (marker.startTime !== null && startTimeIn(stat) !== marker.startTime) return `pid ${pid} is not the process that left ${markerPath(dir, pid)} (it started later): the agent's process is gone`
  return null
}
