// Worker threads' heaps, on series the agent captured in a worker that opted in with startAgent():
// a pool worker that keeps a Map entry per task, a logger transport that keeps every record, and
// a pool that does not leak. Each report names the thread; a main thread's snapshot and a worker's
// never compare object by object.
import test from 'ava'
import { readFile } from 'node:fs/promises'

import { renderDiffReport } from 'leakdiff'
import { captureFixture } from '../helpers/fixture-snapshots.js'
import { sharedDiff } from '../helpers/fixture-reports.js'

const pool = captureFixture('threads/worker-pool')
const poolFixed = captureFixture('threads/worker-pool', { args: ['fixed'] })
const logger = captureFixture('threads/logger-transport')

/**
 * The 1-based line of the first line of a fixture program that includes `text`.
 * @param {string} program
 * @param {string} text
 */
async function lineOf (program, text) {
  const source = await readFile(new URL(`../../fixtures/programs/${program}.js`, import.meta.url), 'utf8')
  return source.split('\n').findIndex((line) => line.includes(text)) + 1
}

test('a pool worker that keeps a Map entry per task: the leak is found in its thread, with its line and fix', async (t) => {
  const { files, report: printed } = await pool
  const report = await sharedDiff(files)
  t.is(report.verdict, 'leak', report.reason)
  t.like(report.process?.thread, { id: printed.threadId, main: false, name: 'pool-task' })
  const [finding] = report.findings
  t.is(finding.signature, 'unbounded-collection')
  t.regex(/** @type {any} */ (finding.location).file, /threads\/pool-task\.js$/)
  t.is(finding.location?.line, await lineOf('threads/pool-task', 'results.set('))
  t.regex(finding.fix.summary, /^bound it/)
  t.regex(renderDiffReport(report, { color: false }), new RegExp(`^leakdiff 3 snapshots of pid ${report.process?.pid} thread ${printed.threadId} \\(pool-task\\)`))
})

test('a logger transport in a worker that keeps every record: found in the transport\'s thread', async (t) => {
  const { files } = await logger
  const report = await sharedDiff(files)
  t.is(report.verdict, 'leak', report.reason)
  t.is(report.process?.thread?.name, 'log-transport')
  const [finding] = report.findings
  t.is(finding.signature, 'growing-array')
  t.is(finding.location?.line, await lineOf('threads/log-transport', 'written.push('))
})

test('a pool worker that keeps the last 100 results is clean', async (t) => {
  const { files } = await poolFixed
  const report = await sharedDiff(files)
  t.is(report.verdict, 'clean', report.reason)
  t.is(report.findings.length, 0)
})
