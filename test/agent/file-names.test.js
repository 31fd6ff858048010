import test from 'ava'
import { seriesFileNames, parseFileName, sidecarPath, partialPath, partialOwner } from '../../src/agent/file-names.js'

test('a series names its files up front, and the names sort in time order', (t) => {
  const startedAt = new Date('2026-11-21T10:15:02.123Z')
  const plan = seriesFileNames({ dir: '/snaps', pid: 4121, startedAt, count: 12, gzip: true })
  t.is(plan.id, '4121-20261121T101502.123Z')
  t.is(plan.seriesFile, '/snaps/leakdiff-4121-20261121T101502.123Z.series.json')
  t.is(plan.snapshots[0], '/snaps/leakdiff-4121-20261121T101502.123Z-01of12.heapsnapshot.gz')
  t.is(plan.sidecars[11], '/snaps/leakdiff-4121-20261121T101502.123Z-12of12.meta.json')
  t.deepEqual([...plan.snapshots].sort(), plan.snapshots)
  const later = seriesFileNames({ dir: '/snaps', pid: 4121, startedAt: new Date('2026-11-21T10:16:00.000Z'), count: 12 })
  t.true(plan.snapshots[11] < later.snapshots[0])
})

test('agent file names parse back; other names do not', (t) => {
  t.deepEqual(parseFileName('/x/leakdiff-7-20261121T101502.123Z-2of3.heapsnapshot.gz'), {
    kind: 'snapshot', pid: 7, threadId: 0, stamp: '20261121T101502.123Z', seriesId: '7-20261121T101502.123Z', index: 2, count: 3, gzip: true
  })
  t.is(parseFileName('leakdiff-7-20261121T101502.123Z-2of3.meta.json')?.kind, 'sidecar')
  t.is(parseFileName('leakdiff-7-20261121T101502.123Z.series.json')?.kind, 'series')
  t.is(parseFileName('Heap.20261121.144831.19314.0.001.heapsnapshot'), undefined)
  t.is(sidecarPath('/x/a-1of3.heapsnapshot.gz'), '/x/a-1of3.meta.json')
  t.is(sidecarPath('/x/a-1of3.heapsnapshot'), '/x/a-1of3.meta.json')
})

test('temporary names are hidden, unique, and name their writer', (t) => {
  const final = '/snaps/leakdiff-7-20261121T101502.123Z-2of3.heapsnapshot'
  const a = partialPath(final, 7)
  t.regex(a, /^\/snaps\/\.leakdiff-7-[0-9a-f]{12}\.heapsnapshot\.partial$/)
  t.not(a, partialPath(final, 7))
  t.is(partialOwner(a), 7)
  t.is(partialOwner(final), undefined)
  t.is(parseFileName(a), undefined)
})

test('a worker thread names its files with its thread id; the main thread\'s names are unchanged', (t) => {
  const startedAt = new Date('2026-11-21T10:15:02.123Z')
  const plan = seriesFileNames({ dir: '/snaps', pid: 4121, startedAt, count: 3, threadId: 2 })
  t.is(plan.id, '4121-t2-20261121T101502.123Z')
  t.is(plan.seriesFile, '/snaps/leakdiff-4121-t2-20261121T101502.123Z.series.json')
  t.is(plan.snapshots[0], '/snaps/leakdiff-4121-t2-20261121T101502.123Z-1of3.heapsnapshot')
  t.like(parseFileName(plan.snapshots[2]), { kind: 'snapshot', pid: 4121, threadId: 2, seriesId: plan.id, index: 3, count: 3 })
  t.like(parseFileName(plan.seriesFile), { kind: 'series', threadId: 2, seriesId: plan.id })
  t.is(parseFileName(seriesFileNames({ dir: '/snaps', pid: 4121, startedAt, count: 3 }).seriesFile)?.threadId, 0)
  const temp = partialPath(plan.snapshots[0], 4121, 2)
  t.regex(temp, /^\/snaps\/\.leakdiff-4121t2-[0-9a-f]{12}\.heapsnapshot\.partial$/)
  t.is(partialOwner(temp), 4121)
})
