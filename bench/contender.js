// One contender on one file, in a process of its own so that its peak RSS is its own:
// `node bench/contender.js <floor|leakdiff|memlab> <snapshot> <result.json>`.
// Writes what it computed and its own resource usage to <result.json>, apart from the progress
// lines memlab prints.
import { open, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { parseSnapshot } from '../src/parse/parse-snapshot.js'
import { analyzeHeap } from '../src/analysis/analyze-heap.js'
import { classRows } from '../src/analysis/class-summary.js'
import { tuneV8 } from '../cli/tune-v8.js'

const CHUNK_BYTES = 1 << 20
const COMMA = 0x2c

/** @type {Record<string, (file: string) => Promise<Record<string, number>>>} */
const CONTENDERS = {
  // The floor: read every byte once, as any parser must, and touch each (count commas) so that
  // nothing can skip the work. No contender can be faster than this.
  async floor (file) {
    const handle = await open(file, 'r')
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
    let commas = 0
    try {
      while (true) {
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES)
        if (bytesRead === 0) break
        for (let i = 0; i < bytesRead; i++) {
          if (buffer[i] === COMMA) commas++
        }
      }
    } finally {
      await handle.close()
    }
    return { commas }
  },

  // leakdiff: parse, then the whole per-snapshot analysis (dominators, retained sizes, class names,
  // distances, the Summary view), then the sorted Summary rows.
  // CPU seconds (user + system, all of the process's threads) per stage go into the facts, to show
  // where the time goes; unlike wall time they hardly change when other work shares the machine.
  // The process is set up as the CLI sets up its own (cli/tune-v8.js).
  async leakdiff (file) {
    tuneV8()
    /** @type {Record<string, number>} */
    const seconds = {}
    let stage = 'parse'
    let stageStart = process.cpuUsage()
    const endStage = (/** @type {string} */ next) => {
      const used = process.cpuUsage(stageStart)
      seconds[`cpu:${stage}`] = (used.user + used.system) / 1e6
      stage = next
      stageStart = process.cpuUsage()
    }
    const data = await parseSnapshot(file)
    const analysis = analyzeHeap(data, { onProgress: (progress) => endStage(progress.stage) })
    const rows = classRows(analysis.classes)
    endStage('')
    return { nodeCount: analysis.graph.nodeCount, totalSize: analysis.totalSize, classes: rows.length, ...seconds }
  },

  // memlab: getFullHeapFromFile parses the file, indexes node ids, annotates shortest paths from
  // the GC roots, and computes dominators and retained sizes for every node (preparePathFinder).
  // It comes from bench/node_modules (`npm run bench:setup`), never from the package's own.
  async memlab (file) {
    const require = createRequire(import.meta.url)
    const { getFullHeapFromFile } = require('@memlab/heap-analysis')
    const heap = await getFullHeapFromFile(file)
    return { nodeCount: heap.nodes.length, edgeCount: heap.edges.length }
  }
}

const [name, file, resultFile] = process.argv.slice(2)
const contender = CONTENDERS[name]
if (!contender || !file || !resultFile) {
  throw new Error(`Expected <${Object.keys(CONTENDERS).join('|')}> <snapshot> <result.json>, got ${JSON.stringify(process.argv.slice(2))}`)
}
const facts = await contender(file)
const usage = process.resourceUsage()
await writeFile(resultFile, JSON.stringify({
  facts,
  // Reported by the process itself, for machines without /usr/bin/time: µs and KiB.
  userSeconds: usage.userCPUTime / 1e6,
  systemSeconds: usage.systemCPUTime / 1e6,
  maxRssBytes: usage.maxRSS * 1024
}))
