// The unit tests of test/graph/ in one AVA worker thread (ava.config.js).
import '../graph/heap-graph.test.js'
import '../graph/locations.test.js'
import '../graph/node-view.test.js'
import '../graph/sorted-index.test.js'
