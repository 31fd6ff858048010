// The unit tests of test/sources/ in one AVA worker thread (ava.config.js).
import '../sources/compiled-names.test.js'
import '../sources/source-maps.test.js'
