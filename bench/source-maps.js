// `npm run bench:source-maps [-- --pairs 25]`: what reading sources and source maps adds to a diff
// of the demo's snapshots (fixtures/demo: a service under load with the agent, captured by signal),
// in three builds of the demo's server: as written (plain JS: the layer reads the findings' scripts
// from disk and looks for maps that are not there), bundled and minified by esbuild with a `.map`
// beside the bundle (the layer maps every location and name through it), and bundled with a large
// dependency (the TypeScript compiler, loaded at start), as a real service's bundle is: megabytes
// of code and a map several times that, read and decoded whole for one finding.
//
// Whole diffs run as a user runs them: each in a fresh process (bench/source-maps-diff.js), with the
// layer and without it (`readSources: false`), in pairs whose order alternates; the figure is the
// median over the pairs of the CPU time added, so that both halves of a pair see the same machine.
// The layer's own work is timed too, step by step, cold as in a diff (bench/source-maps-diff.js
// --stages): whole diffs vary by more than it costs. Target: at most 5 % added.
//
// Puts the figures into docs/benchmarks.md as the generated section `source-maps` (doc-sections.js).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { DOC, ROOT, machineName, median, option } from './bench-kit.js'
import { replaceSection } from './doc-sections.js'

const DEMO = fileURLToPath(new URL('../fixtures/demo/run-demo.js', import.meta.url))
const SERVER = fileURLToPath(new URL('../fixtures/demo/leaky-server.js', import.meta.url))
const DIFF = fileURLToPath(new URL('source-maps-diff.js', import.meta.url))
const TARGET = 0.05
const PAIRS = Number(option('pairs', '25'))

/**
 * Runs the demo on `server` and returns the directory of its snapshots.
 * @param {string[]} args
 */
function captureDemo (args) {
  const demo = spawnSync(process.execPath, [DEMO, '--keep', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 })
  const kept = /snapshots kept in (\S+)/.exec(demo.stderr ?? '')
  if (demo.status !== 0 || kept === null) throw new Error(`Expected the demo to keep its snapshots, got exit code ${demo.status}:\n${demo.stderr}`)
  return kept[1]
}

/**
 * One diff in a fresh process.
 * @param {string} dir
 * @param {boolean} readSources
 * @returns {{wallMs: number, cpuMs: number, locations: Array<string | null>}}
 */
function diffOnce (dir, readSources) {
  const run = spawnSync(process.execPath, [DIFF, dir, String(readSources)], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`Expected a diff, got exit code ${run.status}:\n${run.stderr}`)
  return JSON.parse(run.stdout)
}

/**
 * The layer's own work, cold as in a diff: per pair of fresh processes (with and without the
 * layer, bench/source-maps-diff.js --stages), the CPU the steps it takes part in took more with it;
 * medians over the pairs.
 * @param {string} dir
 * @param {number} pairs
 */
function layerCold (dir, pairs) {
  /** @type {{diff: number[], signatures: number[], allocations: number[], mapping: number[], total: number[]}} */
  const added = { diff: [], signatures: [], allocations: [], mapping: [], total: [] }
  for (let i = 0; i < pairs; i++) {
    /** @type {Record<string, {diffMs: number, signaturesMs: number, allocationsMs: number, mappingMs: number}>} */
    const pair = {}
    for (const readSources of i % 2 === 0 ? [true, false] : [false, true]) {
      const run = spawnSync(process.execPath, [DIFF, dir, String(readSources), '--stages'], { encoding: 'utf8' })
      if (run.status !== 0) throw new Error(`Expected the stages timed, got exit code ${run.status}:\n${run.stderr}`)
      pair[String(readSources)] = JSON.parse(run.stdout)
    }
    const diff = pair.true.diffMs - pair.false.diffMs
    const signatures = pair.true.signaturesMs - pair.false.signaturesMs
    const allocations = pair.true.allocationsMs - pair.false.allocationsMs
    const mapping = pair.true.mappingMs
    added.diff.push(diff)
    added.signatures.push(signatures)
    added.allocations.push(allocations)
    added.mapping.push(mapping)
    added.total.push(diff + signatures + allocations + mapping)
  }
  return { diff: median(added.diff), signatures: median(added.signatures), allocations: median(added.allocations), mapping: median(added.mapping), total: median(added.total) }
}

/**
 * @param {string} name
 * @param {string} dir
 */
async function measure (name, dir) {
  const files = readdirSync(dir).filter((file) => file.endsWith('.heapsnapshot')).sort().map((file) => join(dir, file))
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0)
  /** @type {{with: number[], without: number[], added: number[], wallWith: number[], wallWithout: number[]}} */
  const runs = { with: [], without: [], added: [], wallWith: [], wallWithout: [] }
  let locations = /** @type {Array<string | null>} */ ([])
  for (let i = 0; i < PAIRS; i++) {
    /** @type {Record<string, {wallMs: number, cpuMs: number, locations: Array<string | null>}>} */
    const pair = {}
    for (const readSources of i % 2 === 0 ? [true, false] : [false, true]) pair[String(readSources)] = diffOnce(dir, readSources)
    locations = pair.true.locations
    runs.with.push(pair.true.cpuMs)
    runs.without.push(pair.false.cpuMs)
    runs.wallWith.push(pair.true.wallMs)
    runs.wallWithout.push(pair.false.wallMs)
    runs.added.push(pair.true.cpuMs / pair.false.cpuMs - 1)
  }
  const layer = layerCold(dir, PAIRS)
  const added = median(runs.added)
  const sorted = [...runs.added].sort((a, b) => a - b)
  const quartiles = [sorted[Math.floor((sorted.length - 1) / 4)], sorted[Math.ceil((sorted.length - 1) * 3 / 4)]]
  console.log(`${name}: ${files.length} snapshots, ${(bytes / 1e6).toFixed(1)} MB; CPU per diff without ${median(runs.without).toFixed(0)} ms, with ${median(runs.with).toFixed(0)} ms; added ${(added * 100).toFixed(1)} % (median of ${PAIRS} pairs); the layer alone ${layer.total.toFixed(1)} ms; findings at ${locations.join(', ')}`)
  return { name, files, bytes, runs, added, quartiles, layer, locations }
}

const ms = (/** @type {number} */ value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)} ms`
const percent = (/** @type {number} */ share) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)} %`
const work = mkdtempSync(join(tmpdir(), 'leakdiff-bench-maps-'))
/** @type {string[]} */
const dirs = []
try {
  // The demo's server bundled and minified, its map beside it, as a release ships it; and the same
  // with a large dependency in the bundle.
  const bundle = join(work, 'small', 'server.js')
  const large = join(work, 'large', 'server.js')
  const entry = join(work, 'entry.js')
  writeFileSync(entry, `import ts from 'typescript'\nglobalThis.compilerVersion = ts.version\nawait import(${JSON.stringify(SERVER)})\n`)
  const options = /** @type {const} */ ({ bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: 'external', logLevel: 'error' })
  // A CommonJS dependency in an ES module bundle needs require and __filename, as esbuild's docs say.
  const banner = 'import{createRequire as __cr}from"node:module";import{fileURLToPath as __fu}from"node:url";const require=__cr(import.meta.url),__filename=__fu(import.meta.url);'
  await build({ ...options, entryPoints: [SERVER], outfile: bundle })
  await build({ ...options, entryPoints: [entry], outfile: large, nodePaths: [join(ROOT, 'node_modules')], banner: { js: banner } })
  for (const dir of ['small', 'large']) writeFileSync(join(work, dir, 'package.json'), '{"type": "module"}\n')
  const sizes = `${(statSync(large).size / 1e6).toFixed(1)} MB of code, a ${(statSync(`${large}.map`).size / 1e6).toFixed(1)} MB map`
  dirs.push(captureDemo([]), captureDemo(['--server', bundle]), captureDemo(['--server', large]))
  const cases = [await measure('as written', dirs[0]), await measure('bundled', dirs[1]), await measure(`bundled with the TypeScript compiler (${sizes})`, dirs[2])]
  // A bundle whose findings do not reach the original file would measure a layer that did nothing.
  for (const { name, locations } of cases.slice(1)) {
    if (!locations.some((file) => file !== null && file.endsWith('leaky-server.js'))) throw new Error(`Expected the findings of the demo ${name} to be mapped to leaky-server.js, got ${locations.join(', ')}`)
  }
  const demo = cases.slice(0, 2)
  const layerMet = demo.every(({ layer, runs }) => layer.total / median(runs.without) <= TARGET)
  const wholeMet = demo.every(({ added }) => added <= TARGET)
  const big = cases[2]
  const body = [
    '## Sources and source maps: what they add to a diff',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machineName()}, by \`node bench/source-maps.js\`. Load average when the runs ended: ${loadavg()[0].toFixed(1)}.`,
    '',
    'A diff of the demo\'s 3 snapshots (`npm run demo`), its server run as written and bundled and minified by esbuild with a `.map` beside the bundle. Each diff runs in a fresh process, as `leakdiff a b c` does (`parallel: false`), with the sources layer and without it (`readSources: false`: no script read from disk, no map looked for), in pairs whose order alternates. "added" is the median over the pairs of the CPU time the layer added to its pair\'s other half, with the middle half of the pairs in brackets.',
    '',
    '| server | snapshots | findings mapped | CPU without | CPU with | added (middle half) | wall without | wall with |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...cases.map(({ name, bytes, runs, added, quartiles, locations }) => `| ${name} | ${(bytes / 1e6).toFixed(1)} MB | ${locations.map((file) => (file === null ? '-' : file.slice(file.lastIndexOf('/') + 1))).join(', ')} | ${median(runs.without).toFixed(0)} ms | ${median(runs.with).toFixed(0)} ms | ${percent(added)} (${percent(quartiles[0])} to ${percent(quartiles[1])}) | ${median(runs.wallWithout).toFixed(0)} ms | ${median(runs.wallWith).toFixed(0)} ms |`),
    '',
    `The layer's own work, cold as in a diff (its steps' first run in a fresh process, timed one by one; the CPU each took more with the layer than without it, medians of ${PAIRS} pairs): the comparison, whose paths and owners name variables, classes and functions as written; the signatures, which read the findings' scripts from disk; tying the allocation stacks to the findings, which maps the stacks' frames; and mapping the findings.`,
    '',
    '| server | comparison | signatures | allocation stacks | mapping the findings | the layer\'s work | share of a diff |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...cases.map(({ name, layer, runs }) => `| ${name} | ${ms(layer.diff)} | ${ms(layer.signatures)} | ${ms(layer.allocations)} | ${ms(layer.mapping)} | ${ms(layer.total)} | ${(layer.total / median(runs.without) * 100).toFixed(1)} % |`),
    '',
    `Target, on the demo's snapshots: at most ${TARGET * 100} % added. The layer's own work: ${layerMet ? 'met' : 'missed'}. Whole diffs: ${wholeMet ? 'met' : `missed by the median of ${demo.filter(({ added }) => added > TARGET).map(({ name }) => name).join(' and ')} (the table gives the middle half of the pairs)`}. The layer reads only the scripts the report names (findings' locations and frames, the hops of paths), each once, and a map only for those; the rest of the diff does not change.`,
    '',
    `With a large bundle the map is the cost: one finding in it has the whole map read, parsed and decoded (@jridgewell/trace-mapping decodes every segment), and the names resolved over the bundle's scopes. On the demo bundled with the TypeScript compiler that adds ${percent(big.added)} to a diff of a small heap (${median(big.runs.without).toFixed(0)} ms of CPU without the layer); the time is the map's, about the same whatever the heap, so it weighs less against the diffs of larger heaps that real services with such bundles have.`,
    ''
  ].join('\n')
  writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), 'source-maps', body))
} finally {
  for (const dir of [work, ...dirs]) rmSync(dir, { recursive: true, force: true })
}
