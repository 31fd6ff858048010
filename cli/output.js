// Everything the CLI writes besides reports: error lines, exit codes, the progress bar, and the
// checks around writing a report to --output.
import { access, constants, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { escapeText, formatBytes } from '#cli/support'

/** A mistake in the command line (yargs' messages, our own argument checks). */
export class UsageError extends Error {
  /** @param {string} message */
  constructor (message) {
    super(message)
    this.code = 'LEAKDIFF_USAGE'
  }
}

/** A report that cannot be written where --output says. */
export class OutputError extends Error {
  /**
   * @param {string} message
   * @param {{cause?: unknown}} [options]
   */
  constructor (message, options) {
    super(message, options)
    this.code = 'LEAKDIFF_OUTPUT'
  }
}

/**
 * What a lone `-` argument becomes before yargs sees it: yargs turns it into an empty string, or
 * drops it from an array (yargs/yargs#1312). No file name holds a NUL byte.
 */
export const DASH = '\0-'

/**
 * The command line for yargs: each lone `-` before `--` replaced by DASH (what follows `--` is
 * another program's command line).
 * @param {string[]} args
 */
export function protectDashes (args) {
  const end = args.indexOf('--')
  return args.map((arg, i) => (arg === '-' && (end === -1 || i < end) ? DASH : arg))
}

/**
 * A snapshot argument as the parser takes it: `-` is standard input, as in most command-line tools
 * (`ssh prod cat /tmp/x.heapsnapshot | leakdiff inspect -`).
 * @param {string} argument
 * @returns {string | NodeJS.ReadableStream}
 */
export function snapshotSource (argument) {
  if (argument !== DASH) return argument
  // Nobody types a heap snapshot: without this the command would wait for input forever.
  if (process.stdin.isTTY) throw new UsageError('- reads the snapshot from standard input, which is a terminal here: pipe or redirect a snapshot into it')
  return process.stdin
}

/**
 * Checks that --output names a file that can be written, before minutes of analysis are spent
 * on a report that would then be lost.
 * @param {string | undefined} file
 */
export async function checkOutput (file) {
  if (file === undefined) return
  if (file === '') throw new UsageError('--output expects a file name')
  const existing = await stat(file).catch(() => undefined)
  if (existing?.isDirectory()) throw new OutputError(`Cannot write the report to ${file}: it is a directory`)
  const dir = dirname(file)
  const parent = await stat(dir).catch(() => undefined)
  if (!parent) throw new OutputError(`Cannot write the report to ${file}: no directory ${dir}`)
  if (!parent.isDirectory()) throw new OutputError(`Cannot write the report to ${file}: ${dir} is not a directory`)
  try {
    await access(existing ? file : dir, constants.W_OK)
  } catch (error) {
    throw new OutputError(`Cannot write the report to ${file}: permission denied`, { cause: error })
  }
}

/**
 * Writes a report to a file; a failure is one line naming the file, not an internal error.
 * @param {string} file
 * @param {string} text
 */
export async function writeReport (file, text) {
  try {
    await writeFile(file, text)
  } catch (error) {
    const code = /** @type {{code?: string}} */ (error).code
    const reason = code === 'ENOSPC' ? 'no space left on the device' : code === 'EACCES' ? 'permission denied' : /** @type {Error} */ (error).message
    throw new OutputError(`Cannot write the report to ${file}: ${reason}`, { cause: error })
  }
}

/**
 * How an option's number reads in a message: yargs turns `--top abc` into NaN, which says nothing.
 * @param {unknown} value
 */
export function describeNumber (value) {
  return typeof value === 'number' && Number.isNaN(value) ? 'something that is not a number' : String(value)
}

/**
 * Prints one line for an error (the stack only with --debug) and returns the exit code:
 * 1 for a failed leak assertion, 2 for bad usage or bad input.
 * @param {unknown} error
 * @param {{debug?: boolean}} [options]
 * @returns {number}
 */
export function reportError (error, { debug = false } = {}) {
  const code = typeof error === 'object' && error !== null ? /** @type {{code?: unknown}} */ (error).code : undefined
  const ours = typeof code === 'string' && code.startsWith('LEAKDIFF_')
  const message = error instanceof Error ? error.message : String(error)
  if (debug && error instanceof Error) {
    process.stderr.write(`${error.stack}\n`)
  } else if (code === 'LEAKDIFF_USAGE') {
    process.stderr.write(`leakdiff: ${escapeText(message)}\nRun 'leakdiff --help' for usage.\n`)
  } else if (ours) {
    // Messages quote the input (a key of a broken snapshot, a file name): no terminal escapes.
    process.stderr.write(`leakdiff: ${escapeText(firstLine(message))}\n`)
  } else {
    process.stderr.write(`leakdiff: internal error: ${escapeText(firstLine(message))} (run with --debug for details)\n`)
  }
  return code === 'LEAKDIFF_LEAK' ? 1 : 2
}

/** @param {string} text */
function firstLine (text) {
  const end = text.indexOf('\n')
  return end === -1 ? text : text.slice(0, end)
}

/**
 * A progress bar on stderr, drawn only when stderr is a terminal: bytes read, then the stage that
 * runs. Returns a callback for parseSnapshot's (or diffSnapshots') onProgress and a function that
 * clears the line.
 * @param {string} label
 * @returns {{update: (progress: {bytesRead: number, totalBytes: number, stage?: string}) => void, done: () => void}}
 */
export function progressBar (label) {
  const stream = process.stderr
  if (!stream.isTTY) return { update () {}, done () {} }
  let last = 0
  let drawn = false
  let shown = ''
  return {
    update ({ bytesRead, totalBytes, stage }) {
      // Once every byte is read, the analysis runs (most of the time for a big file): say so,
      // and then what the diff does, instead of leaving a full bar on the screen.
      const phase = stage ?? (totalBytes > 0 && bytesRead >= totalBytes ? 'analysing' : '')
      if (phase !== '') {
        if (phase !== shown) stream.write(`\r\x1b[K${phase} …`)
        shown = phase
        drawn = true
        return
      }
      const now = Date.now()
      if (now - last < 100) return
      last = now
      const width = Math.max(10, Math.min(40, (stream.columns || 80) - label.length - 30))
      const read = formatBytes(bytesRead)
      if (totalBytes > 0) {
        const ratio = Math.min(1, bytesRead / totalBytes)
        const filled = Math.round(ratio * width)
        stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0)}% ${read}`)
      } else {
        stream.write(`\r${label} ${read}`)
      }
      drawn = true
    },
    done () {
      if (drawn) stream.write('\r\x1b[K')
      drawn = false
    }
  }
}
