import test from 'ava'
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises'
import { tmpdir, freemem } from 'node:os'
import { join } from 'node:path'
import { readSmapsText } from '../../src/agent/process-memory.js'
import { readCgroupMemory, measureHeadroom } from '../../src/agent/memory-limits.js'

/**
 * A fake /sys/fs/cgroup plus /proc/self/cgroup.
 * @param {import('ava').ExecutionContext} t
 * @param {string} procText
 * @param {Record<string, string>} files  relative path -> content
 */
async function fakeCgroup (t, procText, files) {
  const root = await mkdtemp(join(tmpdir(), 'leakdiff-cgroup-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), text)
  }
  await writeFile(join(root, 'proc-self-cgroup'), procText)
  return { root, procFile: join(root, 'proc-self-cgroup') }
}

const MB = 1024 * 1024

test('cgroup v2: the tightest limit up the hierarchy, less the working set', async (t) => {
  const where = await fakeCgroup(t, '0::/kubepods/pod1/app\n', {
    'memory.max': 'max\n',
    'kubepods/memory.max': `${4096 * MB}\n`,
    'kubepods/memory.current': `${1000 * MB}\n`,
    'kubepods/pod1/memory.max': `${512 * MB}\n`,
    'kubepods/pod1/memory.current': `${400 * MB}\n`,
    'kubepods/pod1/memory.stat': `anon 1\ninactive_file ${100 * MB}\nactive_file 5\n`,
    'kubepods/pod1/app/memory.max': 'max\n'
  })
  t.deepEqual(await readCgroupMemory(where), {
    source: 'cgroup v2', path: join(where.root, 'kubepods/pod1'), limitBytes: 512 * MB, workingSetBytes: 300 * MB, usageBytes: 400 * MB
  })
})

test('cgroup v1: the huge "unlimited" value is no limit; without a namespace the mount point is read', async (t) => {
  const unlimited = await fakeCgroup(t, '4:memory:/docker/abc\n0::/\n', {
    'memory/memory.limit_in_bytes': '9223372036854771712\n'
  })
  t.is(await readCgroupMemory(unlimited), null)
  const limited = await fakeCgroup(t, '5:cpu,cpuacct:/x\n4:memory:/docker/abc\n', {
    'memory/memory.limit_in_bytes': `${256 * MB}\n`,
    'memory/memory.usage_in_bytes': `${200 * MB}\n`,
    'memory/memory.stat': `cache 9\ntotal_inactive_file ${50 * MB}\n`
  })
  t.like(await readCgroupMemory(limited), { source: 'cgroup v1', limitBytes: 256 * MB, workingSetBytes: 150 * MB, usageBytes: 200 * MB })
})

test('headroom is the tightest of cgroup, free memory and the limit option', async (t) => {
  const cgroup = { source: /** @type {const} */ ('cgroup v2'), path: '/x', limitBytes: 512 * MB, workingSetBytes: 300 * MB, usageBytes: 310 * MB }
  t.like(await measureHeadroom({ memoryLimitBytes: null, rssBytes: 100 * MB, cgroup }), {
    availableBytes: Math.min(212 * MB, freemem()), limitBytes: 512 * MB, limitSource: 'cgroup v2'
  })
  t.like(await measureHeadroom({ memoryLimitBytes: 150 * MB, rssBytes: 100 * MB, cgroup }), {
    availableBytes: 50 * MB, limitBytes: 150 * MB, limitSource: 'option', limitedBy: 'memoryLimitBytes (LEAKDIFF_MEMORY_LIMIT) less RSS'
  })
  t.like(await measureHeadroom({ memoryLimitBytes: 50 * MB, rssBytes: 100 * MB, cgroup: null }), { availableBytes: 0 })
})

test('the [heap] mapping and anonymous memory are read from smaps text', (t) => {
  const text = [
    '55d6-55d7 r--p 00000000 fe:00 1   /usr/bin/node', 'Rss: 8 kB', 'Anonymous: 0 kB',
    '5600-5700 rw-p 00000000 00:00 0   [heap]', 'Rss: 2048 kB', 'Anonymous: 2048 kB',
    '7f00-7f10 rw-p 00000000 00:00 0 ', 'Rss: 100 kB', 'Anonymous: 100 kB'
  ].join('\n')
  t.deepEqual(readSmapsText(text), { heapRss: 2048 * 1024, anonymousRss: 2148 * 1024, mappings: 3 })
})
