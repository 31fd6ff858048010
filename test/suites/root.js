// The unit tests of test/ in one AVA worker thread (ava.config.js).
import '../cut-text.test.js'
import '../errors.test.js'
import '../oracle.test.js'
import '../package-imports.test.js'
import '../suites.test.js'
import '../units.test.js'
