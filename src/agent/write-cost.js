const MIB = 1024 * 1024

// A snapshot file is 1.1-2.4x heapUsed for object heaps and far less for heaps of numbers
// (shared/heapsnapshot-format.md section 9); 3x leaves room for the worst seen.
const FILE_FACTOR = 3
const FILE_FLOOR = 8 * MIB
// Measured costs are multiplied by this before they are trusted again: the same heap can cost a
// little more the next time (more distinct strings, fragmentation).
const MARGIN = 1.25

/**
 * @typedef {object} Measurement
 * @property {number} heapUsed  heapUsed just before the write
 * @property {number} bytes     what the write cost (memory) or produced (file)
 */

/**
 * @param {Measurement | null} measured
 * @param {number} heapUsed
 * @param {number} factor  cost per byte of heap nothing is known about
 * @param {number} floor
 * @returns {number}
 */
function extrapolate (measured, heapUsed, factor, floor) {
  if (measured === null) return Math.round(floor + factor * heapUsed)
  // The heap measured last time costs what it cost (with a margin); heap added since then is
  // unknown, so it is charged at the default factor, or at the measured rate if that was higher.
  const rate = Math.max(factor, measured.bytes / Math.max(1, measured.heapUsed))
  return Math.round(MARGIN * measured.bytes + rate * Math.max(0, heapUsed - measured.heapUsed))
}

/**
 * Predicts what the next snapshot will cost, in extra memory (the peak RSS the write adds) and in
 * disk space, from heapUsed and from what earlier writes of this process really cost.
 *
 * Extra memory grows with object and edge count and with distinct edge names, not with heap bytes
 * (heapsnapshot-format.md section 8: 1e6 small objects in one Array, 42 MB of heap, needed 1.5 GB),
 * so no rule on heapUsed alone is safe for every heap; the default `factor` covers ordinary heaps and
 * each measured write replaces the guess for the heap it saw.
 */
export class WriteCostModel {
  /** @type {Measurement | null} */
  #memory = null
  /** @type {Measurement | null} */
  #file = null
  #factor
  #floor

  /** @param {{headroomFactor: number, headroomFloorBytes: number}} config */
  constructor ({ headroomFactor, headroomFloorBytes }) {
    this.#factor = headroomFactor
    this.#floor = headroomFloorBytes
  }

  /**
   * @param {number} heapUsed
   * @returns {number} bytes of memory the write is expected to add at its peak
   */
  estimateMemory (heapUsed) {
    return Math.max(this.#floor, extrapolate(this.#memory, heapUsed, this.#factor, this.#floor))
  }

  /**
   * @param {number} heapUsed
   * @returns {number} bytes the snapshot file is expected to take
   */
  estimateFile (heapUsed) {
    return extrapolate(this.#file, heapUsed, FILE_FACTOR, FILE_FLOOR)
  }

  /**
   * Learns from a finished write. The memory cost is learned only when the write raised the
   * process's RSS high-water mark (`peakExact`); otherwise only an upper bound is known. Of the
   * exact measurements the costliest per byte of heap is kept: memory freed after a write often
   * stays resident, so a later write can look cheap and then cost the full price once it is returned.
   * @param {{heapUsed: number, peakExtraBytes: number, peakExact: boolean, fileBytes: number}} write
   */
  learn ({ heapUsed, peakExtraBytes, peakExact, fileBytes }) {
    const rate = (/** @type {Measurement} */ m) => m.bytes / Math.max(1, m.heapUsed)
    const measured = { heapUsed, bytes: peakExtraBytes }
    if (peakExact && (this.#memory === null || rate(measured) >= rate(this.#memory))) this.#memory = measured
    this.#file = { heapUsed, bytes: fileBytes }
  }
}
