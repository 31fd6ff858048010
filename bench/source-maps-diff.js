// One diff of a directory's snapshots in a fresh process, as `leakdiff a b c` runs: with the sources
// layer (`true`) or without it (`false`). Prints one JSON line: the diff's wall and CPU time, and
// where its findings point. Run by bench/source-maps.js.
//
//   node bench/source-maps-diff.js DIR true|false [--stages]
//
// --stages times, instead of the whole diff, the steps the layer takes part in, cold (their first
// run in the process, as in a diff), as diffSnapshots runs them: the comparison (whose paths and
// owners name variables, classes and functions as written, with the layer), the signatures (which
// read the findings' scripts from disk), tying the allocation stacks to the findings (which maps
// the stacks' frames), and mapping the findings.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { HEAP_NAMES } from '../src/analysis/shown-names.js'
import { diffHeapsWithDetail } from '../src/diff/diff-heaps.js'
import { diffSnapshots } from '../src/index.js'
import { allocationsFor } from '../src/pipeline/allocated-at.js'
import { analyzeSnapshots } from '../src/pipeline/analyze-in-parallel.js'
import { readSidecar } from '../src/pipeline/sidecars.js'
import { matchSignatures } from '../src/signatures/match-signatures.js'
import { SourceLocator } from '../src/sources/source-locator.js'

const [dir, flag, mode] = process.argv.slice(2)
const readSources = flag === 'true'
const files = readdirSync(dir).filter((name) => name.endsWith('.heapsnapshot')).sort().map((name) => join(dir, name))
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

if (mode === '--stages') {
  const analyses = await analyzeSnapshots(files, { parallel: false })
  const metas = (await Promise.all(files.map(readSidecar))).map(({ meta }) => meta)
  const last = analyses[analyses.length - 1]
  const locator = readSources ? new SourceLocator() : null
  const names = locator?.names ?? HEAP_NAMES
  let started = cpuMs()
  const { result, detail } = diffHeapsWithDetail(analyses, {}, { names })
  const diffMs = cpuMs() - started
  started = cpuMs()
  const matched = matchSignatures(result, detail, { names })
  const signaturesMs = cpuMs() - started
  started = cpuMs()
  const mapPosition = locator === null ? undefined : (/** @type {string} */ url, /** @type {{line: number, column: number}} */ position) => locator.mapPosition(url, position, last)
  await allocationsFor(files, metas, { result, detail, findings: matched, cwd: process.cwd(), top: 10, mapPosition })
  const allocationsMs = cpuMs() - started
  started = cpuMs()
  if (locator !== null) locator.mapFindings(matched, last)
  const mappingMs = cpuMs() - started
  process.stdout.write(`${JSON.stringify({ diffMs, signaturesMs, allocationsMs, mappingMs })}\n`)
} else {
  const cpu = cpuMs()
  const started = performance.now()
  const report = await diffSnapshots(files, { readSources, parallel: false })
  const wallMs = performance.now() - started
  const locations = report.findings.map(({ location }) => location?.original?.file ?? location?.file ?? null)
  process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: cpuMs() - cpu, locations })}\n`)
}
