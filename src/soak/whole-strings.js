import { setFlagsFromString } from 'node:v8'

// V8 cuts every string in a snapshot at --heap-snapshot-string-limit characters (1,024 by default),
// script sources included, and the line that adds to a leaking collection is found in its script's
// source: in a test process, where secrets are no concern and the heap is small, snapshots keep
// strings whole.
//
// The flag is the process's, read as each snapshot is taken (in the thread whose heap it is), and
// test runners run test files in threads of one process (AVA's default). A thread that set it back
// after its snapshots would cut the strings of another thread's snapshot being taken at that moment,
// so it is lifted once and stays lifted for the rest of the process.
const WHOLE_STRING_LIMIT = 1 << 26

let lifted = false

/**
 * Makes the snapshots of this process keep strings whole from now on, unless the process was started
 * with a limit of its own (V8 flags cannot come through NODE_OPTIONS: only the command line can have
 * set it).
 * @returns {boolean} whether they do
 */
export function keepStringsWhole () {
  if (process.execArgv.some((arg) => arg.replaceAll('_', '-').startsWith('--heap-snapshot-string-limit'))) return false
  if (!lifted) {
    setFlagsFromString(`--heap-snapshot-string-limit=${WHOLE_STRING_LIMIT}`)
    lifted = true
  }
  return true
}
