// The unit tests of test/pipeline/ in one AVA worker thread (ava.config.js).
import '../pipeline/shared-causes.test.js'
import '../pipeline/user-line.test.js'
