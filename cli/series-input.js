import { readdir, stat } from 'node:fs/promises'
import { join, dirname, basename } from 'node:path'
import { describeThread, parseFileName, readSeriesFile, threadFilesOf } from '#cli/agent'
import { UsageError } from './output.js'
import { pickForDiff } from './run/capture.js'

/**
 * @typedef {object} ThreadGroup
 * @property {number} threadId  0 for the main thread
 * @property {string} title     `main thread`, `thread 3 (pool-worker.js)`
 * @property {string[]} files   the snapshots to diff, oldest first (2 or 3: a longer series is diffed first, middle, last)
 */

/**
 * When the one argument of a diff is a directory the agent wrote to, or a series file: each
 * thread's snapshots of that series (the newest complete series of the main thread in a
 * directory). Undefined for anything else: the arguments are snapshots.
 * @param {string[]} args
 * @param {number} [thread]  only this thread (--thread)
 * @param {(line: string) => void} [note]  told which series a directory of several gave
 * @returns {Promise<ThreadGroup[] | undefined>}
 */
export async function seriesGroups (args, thread, note = () => {}) {
  if (args.length !== 1) return undefined
  const [arg] = args
  let info
  try {
    info = await stat(arg)
  } catch {
    return undefined
  }
  let seriesFile
  if (info.isDirectory()) {
    const complete = await completeSeries(arg)
    const newest = complete[0]
    if (newest === undefined) throw new UsageError(`${arg} holds no complete series of the leakdiff agent (leakdiff-<pid>-<start>.series.json)`)
    // A signal makes one series per thread: only series of the same kind of thread are others.
    const others = complete.slice(1).filter((file) => (parseFileName(file)?.threadId === 0) === (parseFileName(newest)?.threadId === 0))
    if (others.length > 0) note(`${arg} holds ${others.length + 1} complete series: diffing the newest, ${basename(newest)} (give another's .series.json to diff that one)`)
    seriesFile = newest
  } else if (arg.endsWith('.series.json')) {
    seriesFile = arg
  } else {
    return undefined
  }
  const record = await readSeriesFile(seriesFile)
  if (record === undefined) throw new UsageError(`${seriesFile} is not a series file of the leakdiff agent`)
  if (record.status !== 'complete') throw new UsageError(`series ${record.id} is ${record.status}, not complete${record.error ? `: ${record.error}` : ''}`)
  const dir = dirname(seriesFile)
  const own = record.thread ?? { id: 0, main: true, file: null, name: null }
  const groups = [
    { threadId: own.id, title: describeThread(own), files: record.snapshots.map((name) => join(dir, basename(name))) },
    ...threadFilesOf(record, dir).map((t) => ({ threadId: t.threadId, title: describeThread({ id: t.threadId, main: false, file: t.file, name: t.name }), files: t.snapshots }))
  ].map((group) => ({ ...group, files: pickForDiff(group.files) }))
  const chosen = thread === undefined ? groups : groups.filter((group) => group.threadId === thread)
  if (chosen.length === 0) throw new UsageError(`series ${record.id} has no thread ${thread}: it has ${groups.map((group) => group.threadId).join(', ')}`)
  return chosen
}

/**
 * The complete series files in `dir`, newest first, main threads' before worker threads'.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function completeSeries (dir) {
  const names = (await readdir(dir)).filter((name) => parseFileName(name)?.kind === 'series')
  const ordered = names.map((name) => ({ name, threadId: parseFileName(name)?.threadId ?? 0, stamp: parseFileName(name)?.stamp ?? '' }))
    .sort((a, b) => (a.threadId === 0 ? 0 : 1) - (b.threadId === 0 ? 0 : 1) || (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0))
  const records = await Promise.all(ordered.map(({ name }) => readSeriesFile(join(dir, name))))
  return ordered.filter((_, i) => records[i]?.status === 'complete').map(({ name }) => join(dir, name))
}
