// Where the memory of one analysis goes: `node bench/stage-memory.js <snapshot> [--json out.json]`.
// Runs parseSnapshot + analyzeHeap + classRows as the bench's leakdiff contender does and, at each
// stage boundary, prints the resident set (current, and the peak since the previous boundary), its
// file-backed part (node's own code and libraries) and anonymous part, next to what V8 reports:
// the JS heap (committed) and ArrayBuffers (allocated: parser arrays sized from the file length
// count in full although their untouched tails are not resident), and the resident part of
// malloc's main arena, where freed blocks below the mmap threshold stay. Linux only for the
// peaks: VmHWM is reset at each boundary through /proc/self/clear_refs, which also lowers the
// maximum RSS that /usr/bin/time would report for this process.
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { parseSnapshot } from '../src/parse/parse-snapshot.js'
import { analyzeHeap } from '../src/analysis/analyze-heap.js'
import { classRows } from '../src/analysis/class-summary.js'

const { positionals, values } = parseArgs({ allowPositionals: true, options: { json: { type: 'string' } } })
const [file] = positionals
if (!file) throw new Error('Expected a snapshot path, got none')

const MB = 1e6
const canResetPeak = (() => {
  try {
    writeFileSync('/proc/self/clear_refs', '5')
    return true
  } catch {
    return false
  }
})()

/**
 * Fields of /proc/self/status in bytes: VmHWM (peak RSS since the last reset), RssAnon, RssFile;
 * NaN where they are missing.
 */
function status () {
  let text = ''
  try {
    text = readFileSync('/proc/self/status', 'utf8')
  } catch {}
  const field = (/** @type {string} */ name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? NaN) * 1024
  return { peak: field('VmHWM'), anon: field('RssAnon'), file: field('RssFile') }
}

/**
 * Resident bytes of malloc's main arena (the `[heap]` mapping): freed blocks that stay there count
 * in RSS although nothing uses them. 0 where /proc is missing.
 */
function arenaRss () {
  try {
    const smaps = readFileSync('/proc/self/smaps', 'utf8')
    const at = smaps.indexOf('[heap]')
    if (at === -1) return 0
    const match = /Rss:\s+(\d+) kB/.exec(smaps.slice(at))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** @type {Array<Record<string, number | string>>} */
const rows = []
let stage = 'start'
let started = performance.now()
let cpu = process.cpuUsage()

/** Closes the current stage and opens `next`. @param {string} next */
function mark (next) {
  const { peak, anon, file: fileBacked } = status()
  const usage = process.memoryUsage()
  const cpuNow = process.cpuUsage(cpu)
  rows.push({
    stage,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpuNow.user + cpuNow.system) / 1e6,
    peakRss: Number.isNaN(peak) ? usage.rss : peak,
    rss: usage.rss,
    fileBacked,
    anon,
    heapTotal: usage.heapTotal,
    arrayBuffers: usage.arrayBuffers,
    arena: arenaRss()
  })
  if (canResetPeak) writeFileSync('/proc/self/clear_refs', '5')
  stage = next
  started = performance.now()
  cpu = process.cpuUsage()
}

mark('parse')
const data = await parseSnapshot(file)
const analysis = analyzeHeap(data, { onProgress: ({ stage }) => mark(stage) })
const classes = classRows(analysis.classes).length
mark('end')

const fileBytes = statSync(file).size
const format = (/** @type {number} */ bytes) => (bytes / MB).toFixed(1).padStart(8)
console.log(`${file}: ${(fileBytes / MB).toFixed(1)} MB, ${analysis.graph.nodeCount} nodes, ${analysis.graph.edgeCount} edges, ${classes} classes, total ${analysis.totalSize}`)
console.log('stage (ends)           cpu s  peak RSS       RSS  file-bk.      anon   JS heap  ArrayBuf     arena   (MB)')
for (const row of rows) {
  const cells = ['peakRss', 'rss', 'fileBacked', 'anon', 'heapTotal', 'arrayBuffers', 'arena'].map((key) => format(Number(row[key])))
  console.log(`${String(row.stage).padEnd(20)} ${Number(row.cpuSeconds).toFixed(2).padStart(6)} ${cells.join('  ')}`)
}
const peak = Math.max(...rows.map((row) => Number(row.peakRss)))
console.log(`peak ${(peak / MB).toFixed(1)} MB = ${(peak / fileBytes).toFixed(3)}× the file`)
if (values.json) writeFileSync(values.json, JSON.stringify({ file, fileBytes, rows }, null, 2) + '\n')
