import test from 'ava'
import { leakdiff } from '../helpers/run-cli.js'

// Parsing the command line happens only in the CLI's own process.
test('run without snapshots, leakdiff says what it needs (two or three snapshots, or a command), and a command without its argument what that takes, exit 2', async (t) => {
  const [bare, optionOnly, capture] = await Promise.all([leakdiff([]), leakdiff(['--top', '3']), leakdiff(['capture'])])
  // A command without its argument says what it takes.
  t.is(capture.code, 2)
  t.is(capture.stderr.split('\n')[0], 'leakdiff: Expected the pid of a process that runs the agent: leakdiff capture <pid>')
  for (const { stdout, stderr, code } of [bare, optionOnly]) {
    t.is(code, 2)
    t.is(stdout, '')
    t.is(stderr.split('\n')[0], 'leakdiff: Expected two or three snapshots of one process, oldest first: leakdiff a.heapsnapshot b.heapsnapshot [c.heapsnapshot]; or a command: inspect, capture, soak')
    t.false(stderr.includes('need at least 1'))
  }
})
