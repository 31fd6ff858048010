import { openByteSource } from './byte-source.js'
import { SnapshotParser, inputLimits } from './snapshot-parser.js'

/** @import {SnapshotSource} from './byte-source.js' */
/** @import {SnapshotData} from './snapshot-data.js' */

/**
 * @typedef {object} ParseProgress
 * @property {number} bytesRead   raw bytes consumed (compressed bytes for gzip input)
 * @property {number} totalBytes  the file size, or 0 when unknown (streams)
 * @property {string} [stage]     set by diffSnapshots once every byte is read and analysed: what
 *                                runs now ('comparing the snapshots', 'matching leak signatures')
 */

/**
 * Parses a V8 heap snapshot from a file (plain or gzip) or a stream into flat typed-array columns.
 * Memory stays near the size of the columns: the file is never held as one string.
 * @param {SnapshotSource} source a path, a Readable such as `v8.getHeapSnapshot()`, or an async iterable of bytes
 * @param {{label?: string, onProgress?: (progress: ParseProgress) => void}} [options]
 * @returns {Promise<SnapshotData>}
 */
export async function parseSnapshot (source, { label, onProgress } = {}) {
  const input = await openByteSource(source, { label })
  const parser = new SnapshotParser({ label: input.label, ...inputLimits(input) })
  for await (const chunk of input.chunks) {
    parser.push(chunk)
    if (onProgress) onProgress({ bytesRead: input.bytesRead(), totalBytes: input.totalBytes })
  }
  return parser.finish()
}
