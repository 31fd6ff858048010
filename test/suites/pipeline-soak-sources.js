// The unit tests of test/pipeline/, test/soak/ and test/sources/ in one AVA worker thread (ava.config.js).
import '../pipeline/shared-causes.test.js'
import '../pipeline/user-line.test.js'
import '../soak/analysis-thread.test.js'
import '../soak/assert-no-leak.test.js'
import '../soak/worker-heaps.test.js'
import '../sources/compiled-names.test.js'
import '../sources/source-maps.test.js'
