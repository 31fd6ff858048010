// `leakdiff capture <pid>`, run: the agent signalled, its series waited for, then its files printed
// or each thread's diffed.
import { constants } from 'node:os'
import { parseDuration } from '#cli/support'
import { agentSettingsOf, describeThread, requestSeries, resolveConfig } from '#cli/agent'
import { checkOutput, UsageError } from '../output.js'

/**
 * The arguments yargs hands the capture command.
 * @typedef {{pid: string, dir?: string, timeout: string, signal?: string, diff: boolean, force: boolean, skipMemoryCheck?: boolean, sourceMaps?: string, sourceRoot?: string[],
 *   top: number, format: string, output?: string, color?: boolean}} CaptureArguments
 */

/** @param {CaptureArguments} argv */
export async function handler (argv) {
  if (!argv.diff && (argv.format !== 'text' || argv.output !== undefined)) throw new UsageError('--format and --output are for the report of --diff')
  await checkOutput(argv.output)
  const pid = /^\d+$/.test(String(argv.pid)) ? Number(argv.pid) : NaN
  if (!(pid > 0)) throw new UsageError(`Expected a process id (an integer > 0), got '${argv.pid}'`)
  const timeoutMs = parseDuration(String(argv.timeout))
  if (timeoutMs === undefined || timeoutMs <= 0) throw new UsageError(`--timeout expects a duration such as 10s, 2m or 500ms, got '${argv.timeout}'`)
  const signal = argv.signal === undefined ? undefined : normalizeSignal(argv.signal)
  const settings = await agentSettingsOf(pid)
  const { snapshots, threads } = await requestSeries(pid, {
    dir: argv.dir ?? settings.dir,
    signal: signal ?? settings.signal,
    timeoutMs,
    force: argv.force,
    onProgress: ({ message }) => process.stderr.write(`leakdiff: ${message}\n`)
  })
  // Each thread has a heap of its own: its snapshots are diffed among themselves.
  const series = [
    { title: 'main thread', snapshots },
    ...threads.map((thread) => ({ title: `${describeThread({ id: thread.threadId, main: false, file: thread.file, name: thread.name })}${thread.status === 'complete' ? '' : `: ${thread.status}${thread.error ? ` (${thread.error})` : ''}`}`, snapshots: thread.snapshots }))
  ]
  if (!argv.diff) {
    for (const [i, part] of series.entries()) {
      if (series.length > 1) process.stdout.write(`${i > 0 ? '\n' : ''}${part.title}:\n`)
      process.stdout.write(part.snapshots.map((file) => `${file}\n`).join(''))
      const files = pickForDiff(part.snapshots)
      if (files.length >= 2) process.stdout.write(`${series.length > 1 ? '' : '\n'}Diff them with:\n  ${diffCommand(files)}\n`)
    }
    return
  }
  const files = pickForDiff(snapshots)
  if (files.length < 2) throw new UsageError(`Expected a series of 2 or more snapshots to diff, got ${files.length}: ${files.join(' ')}`)
  // The engine and the renderers load for a diff only.
  await (await import('./diff-series.js')).diffSeries(series, argv)
}

/**
 * The differ takes 2 or 3 snapshots: a longer series is diffed first, middle, last.
 * @param {string[]} snapshots
 * @returns {string[]}
 */
export function pickForDiff (snapshots) {
  if (snapshots.length <= 3) return snapshots
  return [snapshots[0], snapshots[Math.floor((snapshots.length - 1) / 2)], snapshots[snapshots.length - 1]]
}

/**
 * @param {string[]} files
 * @returns {string} a command line to paste into a POSIX shell
 */
export function diffCommand (files) {
  return ['leakdiff', ...files.map(quote)].join(' ')
}

/** @param {string} text */
function quote (text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}

/**
 * @param {string} text
 * @returns {NodeJS.Signals}
 */
function normalizeSignal (text) {
  const upper = text.trim().toUpperCase()
  const name = upper.startsWith('SIG') ? upper : `SIG${upper}`
  if (!/^SIG[A-Z0-9]+$/.test(name)) throw new UsageError(`--signal expects a signal name such as SIGUSR2, got '${text}'`)
  // The agent refuses the signals that would harm the process (SIGUSR1 opens Node's inspector on a
  // port, SIGTERM ends it) and the process catches them anyway, so the SigCgt check would let them
  // through: refuse them here, before anything is sent.
  if (!(name in constants.signals)) throw new UsageError(`--signal expects a signal name such as SIGUSR2 or SIGHUP, got '${text}'`)
  try {
    resolveConfig({ signal: /** @type {NodeJS.Signals} */ (name) })
  } catch {
    const why = name === 'SIGUSR1' ? 'sending it opens the Node.js inspector' : 'it stops the process or belongs to the runtime'
    throw new UsageError(`--signal ${name}: the agent never listens on it (${why}); use the agent's signal (LEAKDIFF_SIGNAL, SIGUSR2 by default)`)
  }
  return /** @type {NodeJS.Signals} */ (name)
}
