// The unit tests of test/query/ in one AVA worker thread (ava.config.js).
import '../query/heap-methods.test.js'
import '../query/references.test.js'
