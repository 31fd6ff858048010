// Everything the CLI writes besides reports: error lines, exit codes and the progress bar.

/** A mistake in the command line (yargs' messages, our own argument checks). */
export class UsageError extends Error {
  /** @param {string} message */
  constructor (message) {
    super(message)
    this.code = 'LEAKDIFF_USAGE'
  }
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
    process.stderr.write(`leakdiff: ${message}\nRun 'leakdiff --help' for usage.\n`)
  } else if (ours) {
    process.stderr.write(`leakdiff: ${firstLine(message)}\n`)
  } else {
    process.stderr.write(`leakdiff: internal error: ${firstLine(message)} (run with --debug for details)\n`)
  }
  return code === 'LEAKDIFF_LEAK' ? 1 : 2
}

/** @param {string} text */
function firstLine (text) {
  const end = text.indexOf('\n')
  return end === -1 ? text : text.slice(0, end)
}

/**
 * A progress bar on stderr, drawn only when stderr is a terminal. Returns a callback for
 * parseSnapshot's onProgress and a function that clears the line.
 * @param {string} label
 * @returns {{update: (progress: {bytesRead: number, totalBytes: number}) => void, done: () => void}}
 */
export function progressBar (label) {
  const stream = process.stderr
  if (!stream.isTTY) return { update () {}, done () {} }
  let last = 0
  let drawn = false
  return {
    update ({ bytesRead, totalBytes }) {
      const now = Date.now()
      if (now - last < 100) return
      last = now
      const width = Math.max(10, Math.min(40, (stream.columns || 80) - label.length - 30))
      const mb = (bytesRead / 1e6).toFixed(0)
      if (totalBytes > 0) {
        const ratio = Math.min(1, bytesRead / totalBytes)
        const filled = Math.round(ratio * width)
        stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0)}% ${mb} MB`)
      } else {
        stream.write(`\r${label} ${mb} MB`)
      }
      drawn = true
    },
    done () {
      if (drawn) stream.write('\r\x1b[K')
      drawn = false
    }
  }
}
