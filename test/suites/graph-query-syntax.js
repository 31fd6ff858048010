// The unit tests of test/graph/, test/query/ and test/syntax/ in one AVA worker thread (ava.config.js).
import '../graph/heap-graph.test.js'
import '../graph/locations.test.js'
import '../graph/node-view.test.js'
import '../graph/sorted-index.test.js'
import '../query/heap-methods.test.js'
import '../query/references.test.js'
import '../syntax/script-syntax.test.js'
import '../syntax/v8-positions.test.js'
