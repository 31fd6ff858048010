// The unit tests of test/fixtures/ in one AVA worker thread (ava.config.js).
import '../fixtures/committed-snapshots.test.js'
