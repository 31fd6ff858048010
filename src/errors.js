// Every error leakdiff throws. The `code` is the contract: `instanceof` fails across two installed
// copies of the package, so callers (and our CLI) test `error.code`.

import { cutMiddle } from './cut-text.js'

export class LeakdiffError extends Error {
  /**
   * @param {string} message
   * @param {{code?: string, cause?: unknown}} [options]
   */
  constructor (message, { code = 'LEAKDIFF_ERROR', cause } = {}) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'LeakdiffError'
    /** Stable machine-readable code (LEAKDIFF_*). */
    this.code = code
  }
}

/** A file or stream that is not a readable V8 heap snapshot. */
export class SnapshotFormatError extends LeakdiffError {
  /**
   * @param {string} message what was expected and what arrived
   * @param {{file?: string, offset?: number, cause?: unknown}} [options]
   */
  constructor (message, { file, offset, cause } = {}) {
    const where = [file, offset === undefined ? undefined : `byte ${offset}`].filter(Boolean).join(' at ')
    super(where ? `${where}: ${message}` : message, { code: 'LEAKDIFF_SNAPSHOT_FORMAT', cause })
    this.name = 'SnapshotFormatError'
    /** @type {string | undefined} the file (or stream label) being read */
    this.file = file
    /** @type {number | undefined} byte offset in the (decompressed) snapshot where reading stopped */
    this.offset = offset
  }
}

/** A snapshot file that cannot be opened or read at all (missing, a directory, no permission). */
export class SnapshotReadError extends LeakdiffError {
  /**
   * @param {string} message
   * @param {{file?: string, cause?: unknown}} [options]
   */
  constructor (message, { file, cause } = {}) {
    super(file ? `${file}: ${message}` : message, { code: 'LEAKDIFF_SNAPSHOT_READ', cause })
    this.name = 'SnapshotReadError'
    this.file = file
  }
}

/** Two snapshots that cannot be compared object by object (different processes, wrong order). */
export class SnapshotMismatchError extends LeakdiffError {
  /** @param {string} message @param {{cause?: unknown}} [options] */
  constructor (message, { cause } = {}) {
    super(message, { code: 'LEAKDIFF_SNAPSHOT_MISMATCH', cause })
    this.name = 'SnapshotMismatchError'
  }
}

/** A bad argument or option passed by the caller. */
export class InvalidArgumentError extends LeakdiffError {
  /** @param {string} message @param {{cause?: unknown}} [options] */
  constructor (message, { cause } = {}) {
    super(message, { code: 'LEAKDIFF_INVALID_ARG', cause })
    this.name = 'InvalidArgumentError'
  }
}

/** Taking a heap snapshot failed or was refused (headroom, disk, permissions). */
export class CaptureError extends LeakdiffError {
  /** @param {string} message @param {{cause?: unknown}} [options] */
  constructor (message, { cause } = {}) {
    super(message, { code: 'LEAKDIFF_CAPTURE', cause })
    this.name = 'CaptureError'
  }
}

/** `leakdiff soak` could not run its service to the end: it did not start, answer or stay up. */
export class SoakError extends LeakdiffError {
  /** @param {string} message @param {{cause?: unknown}} [options] */
  constructor (message, { cause } = {}) {
    super(message, { code: 'LEAKDIFF_SOAK', cause })
    this.name = 'SoakError'
  }
}

/** A leak assertion failed; the message is the text report. */
export class LeakAssertionError extends LeakdiffError {
  /**
   * @param {string} message
   * @param {{report?: unknown, cause?: unknown}} [options]
   */
  constructor (message, { report, cause } = {}) {
    super(message, { code: 'LEAKDIFF_LEAK', cause })
    this.name = 'LeakAssertionError'
    /** The Report model that failed the assertion. */
    this.report = report
  }
}

/**
 * Formats a value for an error message the way p-map does: "`-1` (number)".
 * @param {unknown} value
 * @returns {string}
 */
export function describeValue (value) {
  let text
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(value)
  } catch {
    text = Object.prototype.toString.call(value)
  }
  // A long value is mostly a path or a URL, told apart by its end.
  text = cutMiddle(text, 60)
  return `\`${text}\` (${value === null ? 'null' : typeof value})`
}
