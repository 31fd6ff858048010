import test from 'ava'
import { mkdtemp, writeFile, rm, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pruneSnapshots, removeStalePartials } from '../../src/agent/retention.js'

/**
 * A pid that belongs to no process, found without starting one: Linux gives pids below its
 * pid_max, which is at most 2^22 (PID_MAX_LIMIT), macOS below 99,999. So do 2^22 and 2^22 + 1.
 */
const DEAD_PID = 2 ** 22

/**
 * @param {import('ava').ExecutionContext} t
 * @param {Record<string, string>} files
 */
async function dirWith (t, files) {
  const dir = await mkdtemp(join(tmpdir(), 'leakdiff-retention-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
  return dir
}

/**
 * Files of one series as the agent leaves them.
 * @param {number} pid
 * @param {string} stamp
 * @param {number} count
 * @param {string} status
 */
function series (pid, stamp, count, status = 'complete') {
  /** @type {Record<string, string>} */
  const files = { [`leakdiff-${pid}-${stamp}.series.json`]: JSON.stringify({ pid, status }) }
  for (let k = 1; k <= count; k++) {
    files[`leakdiff-${pid}-${stamp}-${k}of${count}.heapsnapshot`] = '{}'
    files[`leakdiff-${pid}-${stamp}-${k}of${count}.meta.json`] = '{}'
  }
  return files
}

test('keeps the newest snapshots of all pids, with their sidecars, and drops emptied series files', async (t) => {
  const dir = await dirWith(t, {
    ...series(DEAD_PID, '20261121T100000.000Z', 2),
    ...series(DEAD_PID + 1, '20261121T100500.000Z', 2),
    ...series(DEAD_PID, '20261121T101000.000Z', 1),
    'notes.txt': 'not ours'
  })
  const removed = await pruneSnapshots(dir, 2, new Set())
  t.is(removed.length, 7)
  t.deepEqual((await readdir(dir)).sort(), [
    `leakdiff-${DEAD_PID + 1}-20261121T100500.000Z-2of2.heapsnapshot`,
    `leakdiff-${DEAD_PID + 1}-20261121T100500.000Z-2of2.meta.json`,
    `leakdiff-${DEAD_PID + 1}-20261121T100500.000Z.series.json`,
    `leakdiff-${DEAD_PID}-20261121T101000.000Z-1of1.heapsnapshot`,
    `leakdiff-${DEAD_PID}-20261121T101000.000Z-1of1.meta.json`,
    `leakdiff-${DEAD_PID}-20261121T101000.000Z.series.json`,
    'notes.txt'
  ].sort())
})

test('never removes a series a live process is writing, nor a protected one; keep 0 keeps all', async (t) => {
  const dir = await dirWith(t, {
    ...series(process.pid, '20261121T090000.000Z', 2, 'running'),
    ...series(DEAD_PID, '20261121T091000.000Z', 2, 'running'),
    ...series(DEAD_PID + 1, '20261121T092000.000Z', 1)
  })
  t.deepEqual(await pruneSnapshots(dir, 0, new Set()), [])
  await pruneSnapshots(dir, 1, new Set([`${DEAD_PID + 1}-20261121T092000.000Z`]))
  const left = (await readdir(dir)).filter((name) => name.endsWith('.heapsnapshot'))
  t.deepEqual(left.sort(), [
    `leakdiff-${DEAD_PID + 1}-20261121T092000.000Z-1of1.heapsnapshot`,
    `leakdiff-${process.pid}-20261121T090000.000Z-1of2.heapsnapshot`,
    `leakdiff-${process.pid}-20261121T090000.000Z-2of2.heapsnapshot`
  ].sort())
})

test('partial files of dead processes, and this process\'s own stale ones, are removed', async (t) => {
  const mine = `.leakdiff-${process.pid}-aaaa.heapsnapshot.partial`
  const writing = `.leakdiff-${process.pid}-bbbb.meta.json.partial`
  const dead = `.leakdiff-${DEAD_PID}-cccc.heapsnapshot.gz.partial`
  const alive = `.leakdiff-${process.ppid}-dddd.heapsnapshot.partial`
  const dir = await dirWith(t, { [mine]: '', [writing]: '', [dead]: '', [alive]: '' })
  const removed = await removeStalePartials(dir, { pid: process.pid, inFlight: new Set([join(dir, writing)]) })
  t.deepEqual(removed.sort(), [join(dir, mine), join(dir, dead)].sort())
  t.deepEqual((await readdir(dir)).sort(), [alive, writing].sort())
})
