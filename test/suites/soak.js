// The unit tests of test/soak/ in one AVA worker thread (ava.config.js).
import '../soak/analysis-thread.test.js'
import '../soak/assert-no-leak.test.js'
import '../soak/worker-heaps.test.js'
