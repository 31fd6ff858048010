// The unit tests of test/cli/ in one AVA worker thread (ava.config.js).
import '../cli/gates.test.js'
import '../cli/inspect.test.js'
import '../cli/memory-check.test.js'
import '../cli/progress.test.js'
import '../cli/report-options.test.js'
import '../cli/series-input.test.js'
import '../cli/soak.test.js'
import '../cli/usage.test.js'
