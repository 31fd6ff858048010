import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { freemem } from 'node:os'

// cgroup v1 writes "no limit" as a huge page-aligned number (9223372036854771712); v2 writes "max".
const UNLIMITED = 2 ** 60

/**
 * The memory a write may use before something kills the process.
 * @typedef {object} Headroom
 * @property {number} availableBytes  the tightest of the limits below
 * @property {string} limitedBy       which limit that was, in words
 * @property {number | null} limitBytes  the memory limit that applies to this process, if any
 * @property {string | null} limitSource  'cgroup v2', 'cgroup v1', 'constrainedMemory' or 'option'
 */

/**
 * @typedef {object} CgroupMemory
 * @property {'cgroup v2' | 'cgroup v1'} source
 * @property {string} path          the cgroup directory whose limit is tightest
 * @property {number} limitBytes
 * @property {number} workingSetBytes  usage less inactive file cache (what the kernel cannot just drop)
 * @property {number | null} usageBytes  the cgroup's memory use as the kernel counts it (page cache included)
 */

/**
 * @param {string} file
 * @returns {Promise<string | undefined>}
 */
async function readText (file) {
  try {
    return await readFile(file, 'utf8')
  } catch {
    return undefined
  }
}

/**
 * @param {string | undefined} text
 * @param {string} key
 * @returns {number}
 */
function statValue (text, key) {
  const match = text === undefined ? null : new RegExp(`^${key} (\\d+)$`, 'm').exec(text)
  return match ? Number(match[1]) : 0
}

/**
 * Directories from `leaf` up to `root`, leaf first.
 * @param {string} root
 * @param {string} cgroupPath
 * @returns {string[]}
 */
function ancestors (root, cgroupPath) {
  const parts = cgroupPath.split('/').filter(Boolean)
  const dirs = []
  for (let n = parts.length; n >= 0; n--) dirs.push(join(root, ...parts.slice(0, n)))
  return dirs
}

/**
 * @param {string[]} dirs
 * @param {'cgroup v2' | 'cgroup v1'} source
 * @returns {Promise<CgroupMemory | null>}
 */
async function tightest (dirs, source) {
  const files = source === 'cgroup v2'
    ? { limit: 'memory.max', usage: 'memory.current', inactive: 'inactive_file' }
    : { limit: 'memory.limit_in_bytes', usage: 'memory.usage_in_bytes', inactive: 'total_inactive_file' }
  /** @type {CgroupMemory | null} */
  let best = null
  for (const dir of dirs) {
    const limit = Number((await readText(join(dir, files.limit)))?.trim())
    if (!Number.isFinite(limit) || limit <= 0 || limit >= UNLIMITED) continue
    const usage = Number((await readText(join(dir, files.usage)))?.trim())
    const inactive = statValue(await readText(join(dir, 'memory.stat')), files.inactive)
    const workingSetBytes = Number.isFinite(usage) ? Math.max(0, usage - inactive) : 0
    if (!best || limit - workingSetBytes < best.limitBytes - best.workingSetBytes) {
      best = { source, path: dir, limitBytes: limit, workingSetBytes, usageBytes: Number.isFinite(usage) ? usage : null }
    }
  }
  return best
}

/**
 * Finds the cgroup memory limit of this process (v2, else v1), walking up the hierarchy because a
 * parent's limit binds too. Null when there is no limit or no cgroup file system.
 * @param {{root?: string, procFile?: string}} [where] for tests: a fake /sys/fs/cgroup and /proc/self/cgroup
 * @returns {Promise<CgroupMemory | null>}
 */
export async function readCgroupMemory ({ root = '/sys/fs/cgroup', procFile = '/proc/self/cgroup' } = {}) {
  const text = await readText(procFile)
  if (text === undefined) return null
  for (const line of text.split('\n')) {
    const [, controllers, path] = line.split(':')
    if (path === undefined) continue
    if (controllers === '') {
      const found = await tightest(ancestors(root, path), 'cgroup v2')
      if (found) return found
    } else if (controllers.split(',').includes('memory')) {
      // Without a cgroup namespace the path names the host's hierarchy; the container sees its
      // own cgroup at the mount point instead.
      const found = await tightest([...ancestors(join(root, 'memory'), path), join(root, 'memory')], 'cgroup v1')
      if (found) return found
    }
  }
  return null
}

/**
 * Measures how much memory this process may still use, as the tightest of: the cgroup limit less
 * the cgroup's working set, the machine's available memory, and `memoryLimitBytes` less RSS.
 * @param {{memoryLimitBytes: number | null, rssBytes: number, cgroup?: CgroupMemory | null}} input
 * @returns {Promise<Headroom>}
 */
export async function measureHeadroom ({ memoryLimitBytes, rssBytes, cgroup }) {
  const found = cgroup === undefined ? await readCgroupMemory() : cgroup
  /** @type {Headroom} */
  const headroom = { availableBytes: freemem(), limitedBy: 'free system memory', limitBytes: null, limitSource: null }
  if (found) {
    headroom.limitBytes = found.limitBytes
    headroom.limitSource = found.source
    const left = found.limitBytes - found.workingSetBytes
    if (left < headroom.availableBytes) {
      headroom.availableBytes = left
      headroom.limitedBy = `${found.source} limit`
    }
  } else {
    const constrained = process.constrainedMemory?.()
    if (constrained && constrained < UNLIMITED) {
      headroom.limitBytes = constrained
      headroom.limitSource = 'constrainedMemory'
      if (constrained - rssBytes < headroom.availableBytes) {
        headroom.availableBytes = constrained - rssBytes
        headroom.limitedBy = 'process.constrainedMemory()'
      }
    }
  }
  if (memoryLimitBytes !== null) {
    if (headroom.limitBytes === null || memoryLimitBytes < headroom.limitBytes) {
      headroom.limitBytes = memoryLimitBytes
      headroom.limitSource = 'option'
    }
    if (memoryLimitBytes - rssBytes < headroom.availableBytes) {
      headroom.availableBytes = memoryLimitBytes - rssBytes
      headroom.limitedBy = 'memoryLimitBytes (LEAKDIFF_MEMORY_LIMIT) less RSS'
    }
  }
  headroom.availableBytes = Math.max(0, headroom.availableBytes)
  return headroom
}
