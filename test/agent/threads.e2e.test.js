// Worker threads, end to end once: the preload reaches each worker (NODE_OPTIONS), one signal
// makes every thread write its series, and `leakdiff capture --diff` diffs each thread's heap.
import test from 'ava'
import { execFile } from 'node:child_process'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as workerThreads from 'node:worker_threads'
import { makeInstallDir, startApp, listDir } from '../helpers/agent-child.js'

const CLI = fileURLToPath(new URL('../../cli/leakdiff.js', import.meta.url))

/**
 * Runs the CLI; resolves with its output and exit code whatever the code.
 * @param {string[]} args
 * @returns {Promise<{stdout: string, stderr: string, code: number}>}
 */
function leakdiff (args) {
  const { NO_COLOR, FORCE_COLOR, LEAKDIFF_DIR, ...env } = process.env
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...env, NO_COLOR: '1' }, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      resolve({ stdout, stderr, code: error ? Number(/** @type {{code?: unknown}} */ (error).code) : 0 })
    })
  })
}

test('one signal, every thread: each worker writes its own series, named by its thread, and its leak is found with its thread, line and fix', async (t) => {
  const install = await makeInstallDir()
  t.teardown(install.cleanup)
  const app = await startApp({
    script: 'worker-app.js',
    env: { NODE_OPTIONS: '-r leakdiff/register', LEAKDIFF_DIR: 'snaps', LEAKDIFF_SERIES: '3', LEAKDIFF_INTERVAL: '700ms', LEAKDIFF_ALLOC_SAMPLING: '0' },
    cwd: install.dir
  })
  t.teardown(app.stop)
  const pid = /** @type {number} */ (app.child.pid)
  const threadIds = app.ready.map(Number)
  t.deepEqual(threadIds, [1, 2])
  // A thread is named by its Worker's `name` where Node tells a worker its name (threadName, Node
  // 22), else by its file. With -r the preload runs before Node puts the worker's file in
  // process.argv: the ready line may not name it yet; the files written later do.
  const label = (/** @type {number} */ id) => 'threadName' in workerThreads ? `tasks-${id}` : 'worker-task\\.js'
  for (const id of threadIds) t.regex(app.stderr(), new RegExp(`^leakdiff: ready \\(pid ${pid}, thread ${id}( \\(${label(id)}\\))?\\): writes its snapshots with each series of the main thread's agent`, 'm'))

  const { stdout, stderr, code } = await leakdiff(['capture', String(pid), '--timeout', '20s', '--diff'])
  t.is(code, 1, `${stdout}\n${stderr}`)
  const sections = stdout.split(/^== /m)
  t.regex(sections[1], /^main thread ==$/m)
  for (const [i, id] of threadIds.entries()) {
    const section = sections[i + 2]
    t.regex(section, new RegExp(`^thread ${id} \\(${label(id)}\\) ==\\nleakdiff 3 snapshots of pid ${pid} thread ${id} \\(${label(id)}\\)`))
    t.regex(section, /^LEAK {2}1 finding: unbounded-collection in results \(Map\)/m)
    t.regex(section, /fixtures\/agent\/worker-task\.js:7:3/)
    t.regex(section, /fix {2}bound it/)
  }

  const dir = join(install.dir, 'snaps')
  const names = await listDir(dir)
  for (const id of threadIds) {
    const series = names.filter((name) => name.startsWith(`leakdiff-${pid}-t${id}-`))
    t.is(series.filter((name) => name.endsWith('.heapsnapshot')).length, 3)
    const sidecar = JSON.parse(await readFile(join(dir, series.find((name) => name.endsWith('1of3.meta.json')) ?? ''), 'utf8'))
    t.like(sidecar.thread, { id, main: false })
    t.regex(sidecar.thread.file, /worker-task\.js$/)
    t.regex(sidecar.series.mainSeries, new RegExp(`^${pid}-\\d{8}T`))
    // Each thread's own heap limit: the second worker's resourceLimits.
    t.is(sidecar.heapSizeLimit < 100 * 2 ** 20, id === 2, String(sidecar.heapSizeLimit))
    for (const name of series) t.is((await stat(join(dir, name))).mode & 0o777, 0o600, name)
  }
  const mainSeries = JSON.parse(await readFile(join(dir, names.find((name) => /^leakdiff-\d+-\d{8}T.*\.series\.json$/.test(name)) ?? ''), 'utf8'))
  t.is(mainSeries.status, 'complete')
  // The directory alone: each thread's series of the newest signal, diffed apart.
  const again = await leakdiff([dir])
  t.is(again.code, 1, again.stderr)
  t.regex(again.stdout.match(/^== .* ==$/gm)?.join('\n') ?? '', new RegExp(`^== main thread ==\\n== thread 1 \\(${label(1)}\\) ==\\n== thread 2 \\(${label(2)}\\) ==$`))
  const json = await leakdiff([dir, '--format', 'json'])
  t.is(json.code, 2)
  t.regex(json.stderr, /holds the series of 3 threads \(0, 1, 2\): pick one with --thread for --format json/)
  t.deepEqual(mainSeries.threads.map((/** @type {{threadId: number, status: string}} */ thread) => [thread.threadId, thread.status]), [[1, 'complete'], [2, 'complete']])
})
