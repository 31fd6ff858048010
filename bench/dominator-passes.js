// The dominator stage on real heaps, three ways: as analyzeHeap runs it (the iterative passes, then
// Lengauer–Tarjan past seven passes that still move a dominator or past the climbing bound), with
// no bound on the passes (lowMemory, and the code before the bound), and Lengauer–Tarjan alone.
//
//   node bench/dominator-passes.js [<file.heapsnapshot> ...]
//
// Without files: every snapshot the test suite unpacked from fixtures/snapshots/ (run `npm run
// test:unit` once first). Best of three per file and way, warm, in this one process; the files
// where the default switched to Lengauer–Tarjan are listed with their times.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseSnapshot } from '../src/parse/parse-snapshot.js'
import { HeapGraph } from '../src/graph/heap-graph.js'
import { markPageOwnedNodes } from '../src/analysis/page-owned.js'
import { buildEssentialEdges } from '../src/analysis/essential-edges.js'
import { buildDominators } from '../src/analysis/dominators.js'
import { UNPACKED_DIR } from '../test/helpers/fixture-snapshots.js'

const WAYS = {
  default: {},
  'passes unbounded': { passLimit: Infinity },
  'Lengauer–Tarjan': { workLimit: 0 }
}

const files = process.argv.length > 2 ? process.argv.slice(2) : unpacked()
if (files.length === 0) throw new Error(`No snapshots given and none unpacked in ${UNPACKED_DIR}: run npm run test:unit first`)

/** @type {Record<string, number>} */
const totals = Object.fromEntries(Object.keys(WAYS).map((way) => [way, 0]))
const switched = []
for (const file of files) {
  const graph = new HeapGraph(await parseSnapshot(file))
  const essential = buildEssentialEdges(graph, markPageOwnedNodes(graph))
  /** @type {Record<string, number>} */
  const best = {}
  let algorithm = ''
  for (let round = 0; round < 3; round++) {
    for (const [way, options] of Object.entries(WAYS)) {
      const start = performance.now()
      const result = buildDominators(graph, essential, options)
      best[way] = Math.min(best[way] ?? Infinity, performance.now() - start)
      if (way === 'default') algorithm = result.algorithm
    }
  }
  for (const way of Object.keys(WAYS)) totals[way] += best[way]
  if (algorithm !== 'iterative') switched.push({ file, nodes: graph.nodeCount, best })
}

const ms = (/** @type {number} */ value) => `${value.toFixed(0)} ms`
console.log(`${files.length} heaps, ${new Date().toISOString().slice(0, 16)} UTC, Node ${process.version}`)
for (const [way, total] of Object.entries(totals)) console.log(`  ${way.padEnd(18)} ${ms(total)}`)
console.log(`${switched.length} switched to Lengauer–Tarjan (default, passes unbounded, Lengauer–Tarjan alone):`)
for (const { file, nodes, best } of switched.sort((a, b) => b.best['passes unbounded'] - a.best['passes unbounded'])) {
  console.log(`  ${file.split('/').slice(-2).join('/')}  ${nodes} nodes  ${Object.values(best).map(ms).join(', ')}`)
}

/** Every .heapsnapshot under the unpacked fixture cases. */
function unpacked () {
  /** @type {string[]} */
  const found = []
  let cases = []
  try {
    cases = readdirSync(UNPACKED_DIR)
  } catch {
    return found
  }
  for (const name of cases.sort()) {
    const dir = join(UNPACKED_DIR, name)
    if (!statSync(dir).isDirectory()) continue
    for (const file of readdirSync(dir).sort()) if (file.endsWith('.heapsnapshot')) found.push(join(dir, file))
  }
  return found
}
