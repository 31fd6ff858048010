// Letting the heap settle before a snapshot, in a process started without --expose-gc.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** @type {(() => void) | undefined} */
let collect

/**
 * A function that runs a full garbage collection. V8 installs `gc` on contexts created while
 * --expose-gc is set, so a fresh vm context made under the flag hands one over; the flag is turned
 * off again at once, so contexts the program creates later do not get a `gc` global.
 * @returns {() => void}
 */
export function garbageCollector () {
  if (collect) return collect
  if (typeof globalThis.gc === 'function') {
    const exposed = globalThis.gc
    collect = () => { exposed() }
    return collect
  }
  setFlagsFromString('--expose-gc')
  try {
    collect = /** @type {() => void} */ (runInNewContext('gc'))
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
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
  const gc = garbageCollector()
  await sleep(settleMs)
  for (let round = 0; round < 2; round++) {
    await nextTask()
    gc()
    await nextTask()
  }
}
