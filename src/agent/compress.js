import { Worker } from 'node:worker_threads'
import { chmod, rename, stat } from 'node:fs/promises'
import { partialPath } from './file-names.js'
import { removeQuietly } from './fs-safe.js'

/**
 * Compresses `source` into `target` (gzip) in a worker thread that lives only as long as the job,
 * then removes `source`. A worker rather than zlib streams on the main thread: right after a
 * snapshot V8 runs back-to-back full GCs on any allocation, and the stream's buffers paused the
 * event loop ~10 times for 100-150 ms on a 1e6-object heap, against none with the worker
 * (docs/agent.md). `target` appears by rename once complete, 0600 like the snapshot.
 * @param {string} source
 * @param {string} target
 * @param {{pid: number, threadId?: number, inFlight: Set<string>}} owner
 * @param {{keepAlive?: boolean}} [options]  false lets the host exit mid-compression
 * @returns {Promise<number>} the size of `target` in bytes
 */
export async function gzipFile (source, target, { pid, threadId = 0, inFlight }, { keepAlive = true } = {}) {
  const temp = partialPath(target, pid, threadId)
  inFlight.add(temp)
  try {
    await runWorker({ source, target: temp }, keepAlive)
    await chmod(temp, 0o600)
    await rename(temp, target)
  } catch (error) {
    await removeQuietly(temp)
    throw error
  } finally {
    inFlight.delete(temp)
  }
  await removeQuietly(source)
  return (await stat(target)).size
}

/**
 * @param {{source: string, target: string}} job
 * @param {boolean} keepAlive
 * @returns {Promise<void>}
 */
function runWorker (job, keepAlive) {
  return new Promise((resolve, reject) => {
    // Started clean: a Worker runs the host's preloads again (its command line's --import and -r, and
    // NODE_OPTIONS' ones, this agent among them) unless told otherwise, and a gzip stream needs none
    // of them: an APM tracer set up once more, an agent that greets the main thread's.
    const { NODE_OPTIONS, ...env } = process.env
    const worker = new Worker(new URL('./gzip-worker.js', import.meta.url), { workerData: job, stdout: true, stderr: true, execArgv: [], env })
    if (!keepAlive) worker.unref()
    let settled = false
    /** @param {Error | null} error */
    const settle = (error) => {
      if (settled) return
      settled = true
      if (error) reject(error)
      else resolve()
    }
    worker.once('message', (/** @type {{ok: boolean, message?: string, code?: string}} */ result) => {
      settle(result.ok ? null : Object.assign(new Error(result.message), { code: result.code }))
    })
    worker.once('error', settle)
    worker.once('exit', (code) => settle(new Error(`the gzip worker exited (code ${code}) before it finished`)))
  })
}
