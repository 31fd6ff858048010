// The heap limit a leak runs into. V8's heap_size_limit is not it:
//   - it adds the young generation's reserve (three semi-spaces: 48 MiB on 64-bit up to V8 12,
//     Node 22; 192 MiB from V8 13, Node 24; 3 × --max-semi-space-size when set), which a leak never
//     fills: what fills is the old generation, whose limit is --max-old-space-size when it is set;
//   - V8 ends the process before the old generation is full: past 80 % of its limit, four
//     mark-compacts in a row that leave the program under 40 % of the time are fatal
//     ("Ineffective mark-compacts near heap limit", Heap::CheckIneffectiveMarkCompact), and a
//     leaking service collects ever more often as it nears the limit.
// With --max-old-space-size=128 a leaking service dies with about 104 MiB in use, where
// heap_size_limit says 176 MiB. The time to the limit is the time to the point where V8 may give up.
import { getHeapStatistics } from 'node:v8'
import { isMainThread, resourceLimits } from 'node:worker_threads'

const MiB = 2 ** 20
/** Past this share of the old generation's limit, V8 gives up on a heap its collections barely shrink. */
export const GIVE_UP_SHARE = 0.8
/** V8's default largest semi-space on 64-bit (measured: Node 20 and 22 16 MiB, Node 24 64 MiB); the young generation reserves three. */
const defaultSemiSpaceBytes = (/** @type {number} */ v8Major) => (v8Major >= 13 ? 64 : 16) * MiB

/**
 * @typedef {object} HeapLimit
 * @property {number} bytes        the old generation's limit
 * @property {number} giveUpBytes  where V8 may end the process (GIVE_UP_SHARE of `bytes`)
 */

/**
 * This thread's heap limit.
 * @param {{heapSizeLimit?: number, flags?: string[], youngGenerationMb?: number | null, v8Major?: number}} [from]
 *   what it is read from (the tests' own): V8's heap_size_limit, the node flags (NODE_OPTIONS, then
 *   the command line's), a worker's young generation limit (resourceLimits), V8's major version
 * @returns {HeapLimit}
 */
export function heapLimit ({ heapSizeLimit = getHeapStatistics().heap_size_limit, flags = nodeFlags(), youngGenerationMb = workerYoungGenerationMb(), v8Major = Number(process.versions.v8.split('.')[0]) } = {}) {
  const oldSpaceMb = flagValue(flags, 'max-old-space-size')
  const semiSpaceMb = flagValue(flags, 'max-semi-space-size')
  const young = semiSpaceMb !== null ? 3 * semiSpaceMb * MiB : youngGenerationMb !== null ? youngGenerationMb * MiB : 3 * defaultSemiSpaceBytes(v8Major)
  // The flag is exact (it wins over a worker's resourceLimits too). Without it, a heap configured by
  // --max-heap-size or from a small machine's memory may reserve less for the young generation: the
  // limit found is then lower than V8's, and the warning comes early.
  const bytes = oldSpaceMb !== null ? Math.min(oldSpaceMb * MiB, heapSizeLimit) : Math.max(heapSizeLimit / 2, heapSizeLimit - young)
  return { bytes, giveUpBytes: GIVE_UP_SHARE * bytes }
}

/**
 * The last value of a numeric V8 flag (`--name=N`, `--name N`, dashes or underscores), or null.
 * @param {string[]} flags
 * @param {string} name with dashes
 * @returns {number | null}
 */
export function flagValue (flags, name) {
  /** @type {number | null} */
  let value = null
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i].replaceAll('_', '-')
    const text = flag.startsWith(`--${name}=`) ? flag.slice(name.length + 3) : flag === `--${name}` ? flags[i + 1] : undefined
    const number = Number(text)
    if (text !== undefined && text !== '' && Number.isFinite(number) && number > 0) value = number
  }
  return value
}

/** NODE_OPTIONS' flags, then the command line's (which Node reads after them). */
function nodeFlags () {
  return [...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean), ...process.execArgv]
}

/** A worker thread's young generation limit, as it was started with; null on the main thread. */
function workerYoungGenerationMb () {
  const mb = isMainThread ? undefined : resourceLimits.maxYoungGenerationSizeMb
  return typeof mb === 'number' && mb > 0 ? mb : null
}
