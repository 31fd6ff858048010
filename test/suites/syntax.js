// The unit tests of test/syntax/ in one AVA worker thread (ava.config.js).
import '../syntax/script-syntax.test.js'
import '../syntax/v8-positions.test.js'
