// Arrays of an entry per node that a run over several snapshots (a diff) lends out and takes back,
// so that a later analysis works in memory an earlier one is done with instead of in new memory. On
// a virtual machine the first write to each 4 KiB page of new memory costs a fault, about 8 µs: an
// array of 4 bytes per node of a 2.9-million-node heap takes 20 ms to fault in, and zeroing it once
// faulted a twentieth of that. Buffers are made for the run's largest node count, so that one lent
// to the analysis of a smaller snapshot serves a larger one after it. For arrays written whole (the
// analysis' scratch): an array marked here and there is cheaper new, as zeroing the whole of a lent
// one faults in the pages its last user never touched (tried for the shared causes' marks: 10,000
// page faults against 8,500).

/** Scratch arrays lent and taken back. */
export class NodeScratch {
  /** @type {Array<{buffer: ArrayBuffer, dirty: number}>} given back, with how many of their first bytes may not be zero */
  #free = []
  /** @type {Map<ArrayBuffer, number>} lent, with how many of their first bytes may be written */
  #lent = new Map()
  #capacity

  /**
   * @param {number} capacity  entries for the largest snapshot the run will lend arrays for (a
   *   larger request gets a buffer of its own size)
   */
  constructor (capacity) {
    this.#capacity = capacity
  }

  /**
   * `length` zeros, in memory given back earlier when there is some.
   * @param {number} length
   * @returns {Uint32Array}
   */
  uint32 (length) {
    return new Uint32Array(this.#take(4 * length), 0, length)
  }

  /**
   * Takes an array lent by `uint32` back: its memory is lent again. An array lent elsewhere, or
   * given back already, is left alone.
   * @param {ArrayBufferView} array
   */
  give (array) {
    const buffer = /** @type {ArrayBuffer} */ (array.buffer)
    const dirty = this.#lent.get(buffer)
    if (dirty === undefined) return
    this.#lent.delete(buffer)
    this.#free.push({ buffer, dirty })
  }

  /** @param {number} bytes */
  #take (bytes) {
    let best = -1
    for (let i = 0; i < this.#free.length; i++) {
      const size = this.#free[i].buffer.byteLength
      if (size >= bytes && (best < 0 || size < this.#free[best].buffer.byteLength)) best = i
    }
    if (best < 0) {
      const buffer = new ArrayBuffer(Math.max(bytes, 4 * this.#capacity))
      this.#lent.set(buffer, bytes)
      return buffer
    }
    const [{ buffer, dirty }] = this.#free.splice(best, 1)
    new Uint8Array(buffer, 0, Math.min(dirty, bytes)).fill(0)
    this.#lent.set(buffer, Math.max(dirty, bytes))
    return buffer
  }
}
