// The unit tests of test/parse/ in one AVA worker thread (ava.config.js).
import '../parse/hostile-input.test.js'
import '../parse/parse-snapshot.test.js'
