// What a report of fixtures/sources/service must say, whatever build of it ran: each leak at its
// line in src/handlers.ts. Shared by the source-map tests on the committed builds and the one
// that builds the service now.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SERVICE_DIR } from './compiled-service.js'

/** @typedef {Awaited<ReturnType<typeof import('leakdiff').diffSnapshots>>} DiffReport */

export const HANDLERS = 'fixtures/sources/service/src/handlers.ts'
const HANDLERS_PATH = join(SERVICE_DIR, 'src', 'handlers.ts')

/** Each leak: the signature that names it and the marker on its line. */
export const LEAKS = [
  { signature: 'listener-accumulation', marker: '// leak: listener', code: "prices.on('change'" },
  { signature: 'unbounded-collection', marker: '// leak: map', code: 'quotesByUrl.set(' },
  { signature: 'closure-retention', marker: '// leak: closure', code: 'auditTrail.push(' }
]

/**
 * The 1-based line holding `marker` in a file, by default src/handlers.ts.
 * @param {string} marker
 * @param {string} [path]
 */
export function lineOf (marker, path = HANDLERS_PATH) {
  const index = readFileSync(path, 'utf8').split('\n').findIndex((line) => line.includes(marker))
  if (index < 0) throw new Error(`Expected ${marker} in ${path}`)
  return index + 1
}

/**
 * @param {DiffReport} report
 * @param {string} signature
 */
export function findingOf (report, signature) {
  const finding = report.findings.find((f) => f.signature === signature)
  if (finding === undefined) throw new Error(`Expected a ${signature} finding, got ${report.findings.map((f) => f.signature).join(', ')}`)
  return finding
}

/**
 * Each leak at its .ts line, with the snippet of that line and the generated script it ran as.
 * @param {import('ava').ExecutionContext} t
 * @param {DiffReport} report
 * @param {string} generatedFile how the generated script is named
 */
export function assertMapped (t, report, generatedFile) {
  for (const { signature, marker } of LEAKS) {
    const { location } = findingOf(report, signature)
    t.is(location?.file, HANDLERS, signature)
    t.is(location?.line, lineOf(marker), signature)
    t.is(location?.original?.line, location?.line)
    t.true(location?.original?.snippet !== null && readFileSync(HANDLERS_PATH, 'utf8').includes(String(location?.original?.snippet)), signature)
    t.true(location?.generated?.file.endsWith(generatedFile), `${signature}: ${location?.generated?.file}`)
  }
  // The function around the write as the source names it, also where a minifier renamed it.
  t.is(findingOf(report, 'unbounded-collection').location?.function, 'cachedQuote')
}
