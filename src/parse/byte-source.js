import { open, stat } from 'node:fs/promises'
import { createGunzip } from 'node:zlib'
import { Readable } from 'node:stream'
import { SnapshotFormatError, SnapshotReadError, InvalidArgumentError, describeValue } from '../errors.js'

// 1 MiB reads: large enough that per-chunk overhead vanishes, small enough to stay in cache.
const CHUNK_BYTES = 1 << 20
const GZIP_MAGIC_0 = 0x1f
const GZIP_MAGIC_1 = 0x8b

/**
 * Where snapshot bytes come from: a file (plain or gzip, told apart by magic bytes, not by name), a
 * Readable (e.g. `v8.getHeapSnapshot()`), or any async iterable of byte chunks.
 * @typedef {string | NodeJS.ReadableStream | AsyncIterable<Uint8Array>} SnapshotSource
 */

/**
 * @typedef {object} ByteSource
 * @property {string} label           the path, or a label for a stream
 * @property {number} totalBytes      size on disk (compressed size for .gz); 0 when unknown
 * @property {boolean} gzip
 * @property {() => number} bytesRead  raw bytes consumed so far (compressed for .gz)
 * @property {AsyncIterable<Buffer>} chunks  decompressed bytes
 */

/**
 * Opens a snapshot source for streaming.
 * @param {SnapshotSource} source
 * @param {{label?: string}} [options]
 * @returns {Promise<ByteSource>}
 */
export async function openByteSource (source, { label } = {}) {
  if (typeof source === 'string') return openFile(source)
  if (source && typeof (/** @type {any} */ (source))[Symbol.asyncIterator] === 'function') {
    return fromStream(/** @type {AsyncIterable<Uint8Array>} */ (source), label ?? (source === process.stdin ? '<stdin>' : '<stream>'))
  }
  throw new InvalidArgumentError(`Expected a snapshot file path or a readable stream, got ${describeValue(source)}`)
}

/** @param {string} path */
async function openFile (path) {
  let info
  try {
    info = await stat(path)
  } catch (error) {
    throw new SnapshotReadError(fsReason(error), { file: path, cause: error })
  }
  if (info.isDirectory()) throw new SnapshotReadError('is a directory, not a heap snapshot file', { file: path })
  /** @type {import('node:fs/promises').FileHandle} */
  let handle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    throw new SnapshotReadError(fsReason(error), { file: path, cause: error })
  }
  // Reads go on from the file's current position, never to an offset: a named pipe, a terminal or
  // /dev/fd/N from a shell's process substitution (`leakdiff inspect <(zcat x.gz)`) cannot seek.
  // Their size is unknown (stat says 0), as a stream's is.
  const regular = info.isFile()
  let consumed = 0
  /** @type {Buffer} */
  let head
  try {
    head = await readChunk(handle, Buffer.allocUnsafe(CHUNK_BYTES))
  } catch (error) {
    await handle.close()
    throw new SnapshotReadError(fsReason(error), { file: path, cause: error })
  }
  const gzip = head.length >= 2 && head[0] === GZIP_MAGIC_0 && head[1] === GZIP_MAGIC_1

  /**
   * @param {boolean} reuse read into two buffers in turn instead of a fresh one per read: the parser
   *   keeps a reference to a chunk only until the next one, and a fresh 1 MiB buffer per read left
   *   about 40 MB of freed but still resident malloc memory behind (measured on the 201 MB bench
   *   file). Not for gzip input: zlib may still hold a chunk when the next is read.
   * @returns {AsyncGenerator<Buffer>}
   */
  async function * readRaw (reuse) {
    try {
      if (head.length === 0) return
      consumed = head.length
      yield head
      const buffers = reuse ? [Buffer.allocUnsafeSlow(CHUNK_BYTES), Buffer.allocUnsafeSlow(CHUNK_BYTES)] : []
      for (let turn = 0; ; turn ^= 1) {
        const chunk = await readChunk(handle, reuse ? buffers[turn] : Buffer.allocUnsafe(CHUNK_BYTES))
        if (chunk.length === 0) return
        consumed += chunk.length
        yield chunk
      }
    } catch (error) {
      throw new SnapshotReadError(fsReason(error), { file: path, cause: error })
    } finally {
      await handle.close()
    }
  }

  return {
    label: path,
    totalBytes: regular ? info.size : 0,
    gzip,
    bytesRead: () => consumed,
    chunks: gzip ? gunzip(readRaw(false), path) : readRaw(true)
  }
}

/**
 * Fills `buffer` from the file's position on, or up to its end: a pipe returns whatever has been
 * written so far, and a short read must not look like the end of the data.
 * @param {import('node:fs/promises').FileHandle} handle
 * @param {Buffer} buffer
 * @returns {Promise<Buffer>} `buffer`, cut to the bytes read (empty at the end)
 */
async function readChunk (handle, buffer) {
  let filled = 0
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  return filled === buffer.length ? buffer : buffer.subarray(0, filled)
}

/**
 * @param {AsyncIterable<Uint8Array>} stream
 * @param {string} label
 * @returns {Promise<ByteSource>}
 */
async function fromStream (stream, label) {
  let consumed = 0
  const iterator = stream[Symbol.asyncIterator]()
  const first = await iterator.next()
  /** @type {Buffer | undefined} */
  const head = first.done ? undefined : toBuffer(first.value)
  const gzip = head !== undefined && head.length >= 2 && head[0] === GZIP_MAGIC_0 && head[1] === GZIP_MAGIC_1

  /** @returns {AsyncGenerator<Buffer>} */
  async function * readRaw () {
    if (head === undefined) return
    consumed += head.length
    yield head
    while (true) {
      const { done, value } = await iterator.next()
      if (done) return
      const buffer = toBuffer(value)
      consumed += buffer.length
      yield buffer
    }
  }

  return { label, totalBytes: 0, gzip, bytesRead: () => consumed, chunks: gzip ? gunzip(readRaw(), label) : readRaw() }
}

/**
 * @param {AsyncIterable<Buffer>} raw
 * @param {string} label
 * @returns {AsyncGenerator<Buffer>}
 */
async function * gunzip (raw, label) {
  const inflate = createGunzip({ chunkSize: CHUNK_BYTES })
  const input = Readable.from(raw)
  input.on('error', (error) => inflate.destroy(error))
  input.pipe(inflate)
  try {
    for await (const chunk of inflate) yield /** @type {Buffer} */ (chunk)
  } catch (error) {
    if (error instanceof SnapshotReadError) throw error
    const code = /** @type {{code?: string}} */ (error).code
    const reason = code === 'Z_BUF_ERROR' || /unexpected end/i.test(String(error))
      ? 'gzip data ends early (the file is cut: was it copied or written completely?)'
      : `corrupt gzip data (${/** @type {Error} */ (error).message})`
    throw new SnapshotFormatError(reason, { file: label, cause: error })
  } finally {
    input.destroy()
  }
}

/** @param {Uint8Array | string} value */
function toBuffer (value) {
  if (Buffer.isBuffer(value)) return value
  if (typeof value === 'string') return Buffer.from(value, 'latin1')
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
}

/** @param {unknown} error */
function fsReason (error) {
  const code = /** @type {{code?: string}} */ (error).code
  if (code === 'ENOENT') return 'no such file'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'is a directory, not a heap snapshot file'
  return `cannot read (${code ?? /** @type {Error} */ (error).message})`
}
