// The unit tests of test/ and test/fixtures/ in one AVA worker thread (ava.config.js).
import '../cut-text.test.js'
import '../errors.test.js'
import '../oracle.test.js'
import '../package-imports.test.js'
import '../suites.test.js'
import '../units.test.js'
import '../fixtures/committed-snapshots.test.js'
