// The time to the heap limit the report gives from the agent's sidecars (src/diff/growth-rate.js):
// the old generation's limit reached where V8 gives up (src/agent/heap-limit.js) when the sidecar
// records it, heap_size_limit from an older agent's sidecar.
import test from 'ava'
import { computeGrowthRate } from '../../src/diff/growth-rate.js'

const MiB = 2 ** 20

/**
 * @param {string} takenAt
 * @param {Partial<import('../../src/diff/snapshot-meta.js').SnapshotMeta>} fields
 * @returns {import('../../src/diff/snapshot-meta.js').SnapshotMeta}
 */
function meta (takenAt, fields) {
  return { takenAt, pid: 1, hostname: null, nodeVersion: null, script: null, uptimeSeconds: null, heapSizeLimit: 176 * MiB, heapUsed: 60 * MiB, rss: null, memoryLimit: null, trigger: null, ...fields }
}

test('a sidecar with the old generation\'s limit: the time to where V8 gives up, 80 % of 128 MiB', (t) => {
  const first = { meta: meta('2026-11-27T10:00:00.000Z', {}), totalSize: 40 * MiB }
  // 20 MiB a minute.
  const last = { meta: meta('2026-11-27T10:01:00.000Z', { heapUsed: 62.4 * MiB, heapLimit: { bytes: 128 * MiB, giveUpBytes: 102.4 * MiB } }), totalSize: 60 * MiB }
  const rate = computeGrowthRate(first, last)
  t.like(rate?.limit, { kind: 'heap', bytes: 128 * MiB, source: 'old generation' })
  t.true(Math.abs((rate?.limit?.minutesToLimit ?? 0) - 2) < 1e-9, String(rate?.limit?.minutesToLimit))
})

test('an older agent\'s sidecar (heap_size_limit only): the time to heap_size_limit, as it said', (t) => {
  const first = { meta: meta('2026-11-27T10:00:00.000Z', {}), totalSize: 40 * MiB }
  const last = { meta: meta('2026-11-27T10:01:00.000Z', { heapUsed: 56 * MiB }), totalSize: 60 * MiB }
  const rate = computeGrowthRate(first, last)
  t.like(rate?.limit, { kind: 'heap', bytes: 176 * MiB, source: 'heap_size_limit' })
  t.is(rate?.limit?.minutesToLimit, 6)
})
