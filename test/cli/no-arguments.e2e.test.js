import test from 'ava'
import { leakdiff } from '../helpers/run-cli.js'

// Parsing the command line happens only in the CLI's own process.
test('run without snapshots, leakdiff says what it needs (two or three snapshots, or a command), exit 2', async (t) => {
  const [bare, optionOnly] = await Promise.all([leakdiff([]), leakdiff(['--top', '3'])])
  for (const { stdout, stderr, code } of [bare, optionOnly]) {
    t.is(code, 2)
    t.is(stdout, '')
    t.is(stderr.split('\n')[0], 'leakdiff: Expected two or three snapshots of one process, oldest first: leakdiff a.heapsnapshot b.heapsnapshot [c.heapsnapshot]; or a command: inspect, capture, soak')
    t.false(stderr.includes('need at least 1'))
  }
})
