// growing-queue on a real library's queue (fastq: a singly linked list of Task objects started from
// `queueHead` in its push function's scope) and on a doubly linked list object of the program's own
// (async.queue's shape), both with a worker that never finishes a job; and the twin whose jobs each
// get a deadline.
import test from 'ava'
import { markedLocation, perRoundOf, reportOf, stepsOf } from '../helpers/fixture-reports.js'

const ID = 'growing-queue'
const PROGRAM = 'signatures/stalled-queue'

test('fastq with a worker that never finishes: the queue is counted from queueHead in every snapshot, located at the push\'s callback, from fastq', async (t) => {
  const report = await reportOf(PROGRAM)
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.is(finding.path.at(-1)?.edge, 'queueHead')
  t.is(finding.path.at(-1)?.node, 'Task')
  t.is(finding.evidence.library, 'fastq')
  t.is(finding.evidence.nodeClass, 'Task')
  t.regex(finding.title, /^A queue keeps growing: queueHead of jobs \(.*from fastq.*\), a linked list of Task holds /)
  const perRound = await perRoundOf(PROGRAM)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.deepEqual(finding.evidence.valueClasses, ['{record}'])
  t.deepEqual(finding.location, markedLocation(PROGRAM, '// leak: job', '(error) =>'))
  t.true(finding.evidence.notes.some((note) => note.startsWith('pushed with the callback at fixtures/programs/signatures/stalled-queue.js:')), finding.evidence.notes.join('\n'))
  t.regex(finding.fix.summary, /deadline/)
  t.regex(finding.fix.summary, /push only while jobs has room/)
  t.true(finding.confidence >= 0.8, String(finding.confidence))
})

test('a doubly linked list object of the program\'s own ({head, tail}, nodes {data, callback, prev, next}): counted from its head, not its tail', async (t) => {
  const report = await reportOf(PROGRAM, { args: ['list'] })
  t.deepEqual(report.findings.map((f) => f.signature), [ID])
  const [finding] = report.findings
  t.deepEqual(finding.path.slice(-2).map((step) => step.edge), ['jobs', 'tasks'])
  t.is(finding.evidence.nodeClass, '{data, callback, prev, next}')
  t.is(finding.evidence.library, null)
  const perRound = await perRoundOf(PROGRAM)
  t.deepEqual(stepsOf(finding.evidence.counts), [perRound, perRound])
  t.true(finding.evidence.counts[0] > 1, 'the whole list from its head, not the one node after its tail')
  t.deepEqual(finding.location, markedLocation(PROGRAM, '// leak: job', '(error) =>'))
})

test('every job with a deadline: the queue drains, no finding', async (t) => {
  const report = await reportOf(PROGRAM, { args: ['fixed'] })
  t.deepEqual(report.findings, [])
})
