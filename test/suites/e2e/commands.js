// End-to-end files that only start processes (the CLI, a short script) and check what they print
// and write, in one AVA worker thread: a thread costs about 0.33 s of CPU before its first test
// (ava.config.js), more than most of these files' own work. None of them snapshots its own thread,
// starts the agent in it or has serial tests (test/suites.test.js); the files that do each keep a
// thread of their own.
import '../../agent/heap-limit.e2e.test.js'
import '../../cli/capture-guard.e2e.test.js'
import '../../cli/gates.e2e.test.js'
import '../../cli/inspect.e2e.test.js'
import '../../cli/memory-check.e2e.test.js'
import '../../cli/no-arguments.e2e.test.js'
import '../../cli/usage.e2e.test.js'
import '../../diff/cli.e2e.test.js'
import '../../diff/worker-threads.e2e.test.js'
import '../../load-deadline.e2e.test.js'
import '../../parse/hostile-input.e2e.test.js'
import '../../report/hostile-names.e2e.test.js'
import '../../report/sidecars.e2e.test.js'
