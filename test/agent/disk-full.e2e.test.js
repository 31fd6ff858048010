// A disk that fills up in the middle of a write, on a real 1 MiB tmpfs (needs root and mount).
import test from 'ava'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, readdirSync, readlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { captureSnapshot } from '../../src/agent/capture-snapshot.js'
import { resolveConfig } from '../../src/agent/config.js'
import { writeSnapshotFile } from '../../src/agent/write-snapshot.js'

const mountPoint = mkdtempSync(join(tmpdir(), 'leakdiff-tiny-'))
let mounted = false
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', mountPoint], { stdio: 'ignore' })
  mounted = true
} catch {}

test.after.always(() => {
  if (mounted) execFileSync('umount', [mountPoint])
  rmSync(mountPoint, { recursive: true, force: true })
})

/** @returns {string[]} what this process's open descriptors point to on the tiny disk */
function openOnTinyDisk () {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`)
      return target.startsWith(mountPoint) ? [target] : []
    } catch {
      return []
    }
  })
}

const onTinyDisk = mounted ? test.serial : test.serial.skip

onTinyDisk('ENOSPC mid-write: a CaptureError, no file left behind and no descriptor holding the space', (t) => {
  const path = join(mountPoint, '.leakdiff-1-abc.heapsnapshot.partial')
  const error = t.throws(() => writeSnapshotFile(path))
  t.like(error, { code: 'LEAKDIFF_CAPTURE', cause: { code: 'ENOSPC' } })
  t.deepEqual(readdirSync(mountPoint), [])
  t.deepEqual(openOnTinyDisk(), [])
})

onTinyDisk('a series step that runs out of disk removes its partial file and names no final file', async (t) => {
  const config = resolveConfig({ dir: mountPoint, minFreeBytes: 0 })
  // A cost model that promises a tiny file, so the disk check passes and the write itself fails.
  const cost = /** @type {any} */ ({ estimateFile: () => 0, estimateMemory: () => 0, learn: () => {} })
  const owner = { pid: process.pid, inFlight: new Set() }
  const snapshotPath = join(mountPoint, 'leakdiff-1-20261121T101502.123Z-1of1.heapsnapshot')
  const series = { id: '1-20261121T101502.123Z', index: 1, count: 1, intervalMs: 0, startedAt: new Date().toISOString() }
  await t.throwsAsync(captureSnapshot({ config, cost, owner, snapshotPath, series, emit: () => {} }), { code: 'LEAKDIFF_CAPTURE', message: /ENOSPC/ })
  t.deepEqual(readdirSync(mountPoint), [])
  t.deepEqual(openOnTinyDisk(), [])
  t.is(owner.inFlight.size, 0)
})
