// `leakdiff <dir>`: a directory the agent wrote to is diffed as its newest complete series, and
// when it holds several, the run says which one it took.
import test from 'ava'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { seriesGroups } from '../../cli/series-input.js'
import { tempDir } from '../helpers/temp-dir.js'

/**
 * A series file as the agent writes it (src/agent/series-writer.js), for a series of `pid`.
 * @param {string} dir
 * @param {{pid: number, stamp: string, status?: string, thread?: number}} series
 */
async function writeSeries (dir, { pid, stamp, status = 'complete', thread = 0 }) {
  const stem = `leakdiff-${pid}${thread === 0 ? '' : `-t${thread}`}-${stamp}`
  const snapshots = [1, 2, 3].map((k) => `${stem}-${k}of3.heapsnapshot`)
  const record = {
    schemaVersion: 1,
    kind: 'leakdiff-series',
    id: `${pid}${thread === 0 ? '' : `-t${thread}`}-${stamp}`,
    pid,
    thread: { id: thread, main: thread === 0, file: '/srv/app/server.js', name: null },
    status,
    count: 3,
    planned: snapshots,
    snapshots: status === 'complete' ? snapshots : snapshots.slice(0, 1),
    error: status === 'complete' ? null : 'stopped'
  }
  await writeFile(join(dir, `${stem}.series.json`), JSON.stringify(record))
  return snapshots.map((name) => join(dir, name))
}

test('a directory of two complete series (and a failed newer one): the newest complete one, named on the side; one series alone says nothing', async (t) => {
  const dir = await tempDir('leakdiff-series-input-')
  const older = await writeSeries(dir, { pid: 3882, stamp: '20261129T060614.814Z' })
  const newer = await writeSeries(dir, { pid: 3882, stamp: '20261129T060638.727Z' })
  await writeSeries(dir, { pid: 3882, stamp: '20261129T060702.001Z', status: 'failed' })
  /** @type {string[]} */
  const notes = []
  const groups = await seriesGroups([dir], undefined, (line) => notes.push(line))
  t.deepEqual(groups?.map((group) => group.files), [newer])
  t.deepEqual(notes, [`${dir} holds 2 complete series: diffing the newest, leakdiff-3882-20261129T060638.727Z.series.json (give another's .series.json to diff that one)`])
  // The older one, by its series file.
  const picked = await seriesGroups([join(dir, 'leakdiff-3882-20261129T060614.814Z.series.json')], undefined, (line) => notes.push(line))
  t.deepEqual(picked?.map((group) => group.files), [older])
  t.is(notes.length, 1)

  const single = join(dir, 'single')
  await mkdir(single)
  await writeSeries(single, { pid: 41, stamp: '20261129T070000.000Z' })
  // A worker thread's series of the same signal is not another series to choose from.
  await writeSeries(single, { pid: 41, stamp: '20261129T070000.000Z', thread: 1 })
  /** @type {string[]} */
  const quiet = []
  t.is((await seriesGroups([single], undefined, (line) => quiet.push(line)))?.length, 1)
  t.deepEqual(quiet, [])
})
