// Bounds how many real processes a test file keeps running at once. AVA starts every test of a
// file together; on a machine of two cores, nine apps, each writing heap snapshots, slow each other
// down until their waits run out. A test takes a slot for the span of its processes; the others
// queue. Waits on the processes' events start once a test holds its slot, so queueing costs no
// deadline.
import { availableParallelism } from 'node:os'

/**
 * A pool of `size` slots: by default two per core, as an app spends most of a test waiting on a
 * signal, a timer or a request and a core runs another's snapshot meanwhile.
 * @param {number} [size]
 * @returns {<T>(run: () => Promise<T>) => Promise<T>} runs `run` once a slot is free, frees it when `run` settles
 */
export function processPool (size = 2 * availableParallelism()) {
  let running = 0
  /** @type {(() => void)[]} */
  const waiting = []
  // A freed slot passes straight to the first in the queue, so that no newcomer takes it between.
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }
  return async (run) => {
    if (running < size) running++
    else await new Promise((resolve) => waiting.push(() => resolve(undefined)))
    try {
      return await run()
    } finally {
      release()
    }
  }
}

/**
 * AVA's `test` whose tests run their bodies in a pool of `size` slots (processPool).
 * @param {import('ava').TestFn} test
 * @param {number} [size]
 * @returns {(title: string, implementation: (t: import('ava').ExecutionContext) => Promise<void>) => void}
 */
export function pooledTest (test, size) {
  const slot = processPool(size)
  return (title, implementation) => test(title, (t) => slot(() => implementation(t)))
}
