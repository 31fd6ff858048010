import test from 'ava'
import { diffSnapshots } from 'leakdiff'
import { progressBar } from '../../cli/output.js'
import { captureFixture } from '../helpers/fixture-snapshots.js'

/**
 * Runs `fn` with stderr seen as a terminal (or not) and returns what was written to it.
 * @param {boolean} isTTY
 * @param {() => void} fn
 */
function onStderr (isTTY, fn) {
  const stderr = process.stderr
  const saved = { isTTY: stderr.isTTY, write: stderr.write }
  /** @type {string[]} */
  const written = []
  Object.defineProperty(stderr, 'isTTY', { value: isTTY, configurable: true, writable: true })
  stderr.write = (/** @type {string} */ chunk) => { written.push(String(chunk)); return true }
  try {
    fn()
  } finally {
    Object.defineProperty(stderr, 'isTTY', { value: saved.isTTY, configurable: true, writable: true })
    stderr.write = saved.write
  }
  return written
}

test('the progress bar is drawn only on a terminal: bytes with a bar, then the stage that runs, then the line cleared', (t) => {
  const drive = () => {
    const bar = progressBar('reading a.heapsnapshot')
    bar.update({ bytesRead: 50e6, totalBytes: 200e6 })
    bar.update({ bytesRead: 200e6, totalBytes: 200e6 })
    bar.update({ bytesRead: 200e6, totalBytes: 200e6 })
    bar.update({ bytesRead: 200e6, totalBytes: 200e6, stage: 'comparing the snapshots' })
    bar.done()
  }
  t.deepEqual(onStderr(false, drive), [])
  const written = onStderr(true, drive)
  t.regex(written[0], /^\rreading a\.heapsnapshot \[#+-+\] 25% 50\.0 MB$/)
  // Every byte read: the analysis runs, said once however often the last count comes.
  t.deepEqual(written.slice(1), ['\r\x1b[Kanalysing …', '\r\x1b[Kcomparing the snapshots …', '\r\x1b[K'])
})

test('diffSnapshots reports the bytes read, then its stages after the analyses', async (t) => {
  const { files } = await captureFixture('diff/map-cache')
  /** @type {Array<{bytesRead: number, totalBytes: number, stage?: string}>} */
  const seen = []
  await diffSnapshots(files, { parallel: false, onProgress: (progress) => seen.push(progress) })
  const stages = seen.filter((progress) => progress.stage !== undefined)
  t.deepEqual(stages.map((progress) => progress.stage), ['comparing the snapshots', 'matching leak signatures'])
  const firstStage = seen.indexOf(stages[0])
  t.true(firstStage > 0 && seen.slice(0, firstStage).every((progress) => progress.stage === undefined))
  t.is(stages[0].bytesRead, stages[0].totalBytes)
})
