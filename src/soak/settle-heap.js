// Letting the heap settle before a snapshot, in a process started without --expose-gc.
import { CaptureError } from '../errors.js'

/** @type {(() => Promise<void>) | undefined} */
let collect

/**
 * A function that runs a full garbage collection: the process's `gc` when it was started with
 * --expose-gc, else the inspector's HeapProfiler.collectGarbage over a session of this thread.
 * Not a vm context made under a flag set for the moment: V8's flags are the process's, and another
 * thread turning --expose-gc off in between (a test file next to this one) left the context without
 * `gc`. node:inspector is imported when needed (as alloc-sampler.js does): a Node built without it
 * still loads the package.
 * @returns {Promise<() => Promise<void>>}
 */
export async function garbageCollector () {
  if (collect) return collect
  if (typeof globalThis.gc === 'function') {
    const exposed = globalThis.gc
    collect = async () => { exposed() }
    return collect
  }
  /** @type {typeof import('node:inspector')} */
  let inspector
  try {
    inspector = await import('node:inspector')
  } catch (error) {
    throw new CaptureError('Expected node:inspector to run a full garbage collection before each snapshot, but this Node has none: start it with --expose-gc', { cause: error })
  }
  const session = new inspector.Session()
  session.connect()
  collect = () => new Promise((resolve, reject) => {
    session.post('HeapProfiler.collectGarbage', (error) => { if (error) reject(error); else resolve() })
  })
  return collect
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms) })
const nextTask = () => new Promise((resolve) => { setImmediate(resolve) })

/**
 * Brings the heap to a state worth a snapshot. The snapshot runs a full GC by itself, but what a GC
 * makes due only runs afterwards, as tasks: FinalizationRegistry callbacks (Node uses them for its
 * own caches too), and the timers, close and socket callbacks that free per-iteration state. So:
 * let pending tasks and timers run, collect, let the cleanup callbacks run, and repeat once for what
 * they released. The caller snapshots from a fresh task after this, so WeakRef targets kept for the
 * current job (V8's KeepDuringJob set) are free by then.
 * @param {{settleMs?: number}} [options] settleMs: time given to short timers first
 * @returns {Promise<void>}
 */
export async function settleHeap ({ settleMs = 10 } = {}) {
  const gc = await garbageCollector()
  await sleep(settleMs)
  for (let round = 0; round < 2; round++) {
    await nextTask()
    await gc()
    await nextTask()
  }
}
