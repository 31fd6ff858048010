import { open, stat } from 'node:fs/promises'
import { openByteSource } from './byte-source.js'
import { SnapshotParser, inputLimits } from './snapshot-parser.js'

/**
 * What the start of a snapshot file tells before it is parsed.
 * @typedef {object} SnapshotCounts
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} textBytes  the JSON's length (for gzip: from the trailer), 0 when unknown
 */

// A gzip trailer's ISIZE is the length modulo 2^32; the JSON text of a snapshot compresses about
// 5 to 10 times, so a length past this many times the file is a misreading (e.g. several members).
const MAX_GZIP_RATIO = 30

/**
 * Reads a snapshot file's header (its first kilobytes) for the node and edge counts, without
 * parsing the rest. Undefined when the file has no readable header (the parse says why) or is not
 * a regular file: reading a pipe would take the bytes the parse needs.
 * @param {string} path
 * @returns {Promise<SnapshotCounts | undefined>}
 */
export async function readSnapshotCounts (path) {
  let input
  try {
    if (!(await stat(path)).isFile()) return undefined
    input = await openByteSource(path)
  } catch {
    return undefined
  }
  // With the input's size limits, a header whose counts no file of this size holds is no header
  // (the parse says why), rather than a reason to refuse for want of memory.
  const parser = new SnapshotParser({ label: path, ...inputLimits(input), headerOnly: true })
  try {
    for await (const chunk of input.chunks) {
      parser.push(chunk)
      if (parser.header) break
    }
  } catch {
    return undefined
  }
  const { header } = parser
  if (!header) return undefined
  const { nodeCount, edgeCount } = header
  let textBytes = input.totalBytes
  if (input.gzip) textBytes = input.totalBytes > 0 ? await gzipTextBytes(path, input.totalBytes, 14 * nodeCount + 6 * edgeCount) : 0
  return { nodeCount, edgeCount, textBytes }
}

/**
 * The uncompressed length of a gzip file from its trailer, past 4 GiB too: the smallest length with
 * those low 32 bits that can hold `minText` bytes (each node row takes at least 14 bytes, each
 * edge row 6). 0 when the trailer cannot be read or makes no sense.
 * @param {string} path
 * @param {number} fileBytes
 * @param {number} minText
 */
async function gzipTextBytes (path, fileBytes, minText) {
  let handle
  try {
    handle = await open(path, 'r')
    const trailer = Buffer.alloc(4)
    const { bytesRead } = await handle.read(trailer, 0, 4, fileBytes - 4)
    if (bytesRead !== 4) return 0
    let length = trailer.readUInt32LE(0)
    while (length < minText) length += 2 ** 32
    return length <= MAX_GZIP_RATIO * fileBytes ? length : 0
  } catch {
    return 0
  } finally {
    await handle?.close()
  }
}
