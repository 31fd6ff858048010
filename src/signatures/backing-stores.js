// Small views that keep big memory: a Buffer or typed array is an object of a few dozen bytes
// whose bytes live in its ArrayBuffer's backing store (heapsnapshot-format.md: ArrayBuffer
// --backing_store--> native "system / JSArrayBufferData", self size = byteLength). A view made by
// `subarray()` or `slice()` of a Buffer shares its parent's whole store, so keeping 16 bytes of a
// 64 kB body keeps all 64 kB. The snapshot records the store's size but not the view's length, so
// it shows a small object holding a big store, never the slice itself: a write site whose text
// takes a `subarray(`/`slice(` is what shows that.

import { scriptFunctions, scriptText } from './script-functions.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {SourceLocation} from './finding.js' */

/** New values looked at. */
const SAMPLE = 500
/** The stores must be most of what a new entry keeps. */
const MIN_STORE_SHARE = 0.6
/** And far bigger than the view that holds them. */
const MIN_STORE_TO_VIEW = 16
const VIEW_EXPRESSION = /[A-Za-z_$][\w$.]*\.(?:subarray|slice)\s*\([^()]*\)/g
/** Text just before a view that copies it: `Buffer.from(`, `new Uint8Array(`, `.copyBytesFrom(`. */
const COPIED = /(?:\.from|\.copyBytesFrom|new\s+\w*Array)\(\s*$/

/**
 * @typedef {object} BackingStores
 * @property {string} viewClass      the views' class (`Buffer`, `Uint8Array`)
 * @property {number} views          sampled values that are views with a store of their own
 * @property {number} viewBytes      the views' average self size
 * @property {number} storeBytes     their stores' average size
 * @property {number} share          the stores' share of the bytes each new entry keeps (0..1)
 */

/**
 * Whether the new values are small views each keeping a store of its own that makes most of an
 * entry's retained size; null when they are not (plain objects, pooled small Buffers sharing one
 * store, stores about the size of their views).
 * @param {HeapAnalysis} analysis
 * @param {number[]} values  new values (ordinals, last snapshot)
 * @param {number} bytesPerEntry  what each new entry keeps, from the counts and retained sizes
 * @returns {BackingStores | null}
 */
export function backingStores (analysis, values, bytesPerEntry) {
  const { graph } = analysis
  const bufferName = graph.strings.indexOf('buffer')
  const storeName = graph.strings.indexOf('backing_store')
  if (bufferName < 0 || storeName < 0 || bytesPerEntry <= 0) return null
  const seen = new Set()
  let views = 0
  let viewBytes = 0
  let storeBytes = 0
  let sampled = 0
  let viewClass = ''
  for (const o of values) {
    if (graph.nodeTypes[o] !== graph.nodeType.object) continue
    if (++sampled > SAMPLE) break
    const buffer = graph.findEdge(o, graph.edgeType.internal, bufferName)
    if (buffer < 0) continue
    const arrayBuffer = graph.edgeTargets[buffer]
    const store = graph.findEdge(arrayBuffer, graph.edgeType.internal, storeName)
    // A store shared by several views (Buffer's pool) is not one entry's.
    if (store < 0 || seen.has(arrayBuffer)) continue
    seen.add(arrayBuffer)
    views++
    viewBytes += graph.selfSize(o)
    storeBytes += graph.selfSize(graph.edgeTargets[store])
    if (viewClass === '') viewClass = analysis.classes.names[analysis.classOf[o]]
  }
  if (views === 0 || views < sampled / 2) return null
  const store = storeBytes / views
  const view = viewBytes / views
  const share = Math.min(1, store / bytesPerEntry)
  if (share < MIN_STORE_SHARE || store < MIN_STORE_TO_VIEW * view) return null
  return { viewClass, views, viewBytes: Math.round(view), storeBytes: Math.round(store), share }
}

/**
 * The write sites whose line takes a view of a buffer (`body.subarray(0, 16)`), read from the
 * text of the script with V8 id `scriptId`, each with the view expression as written.
 * @param {HeapAnalysis} analysis
 * @param {number} scriptId
 * @param {SourceLocation[]} sites
 * @returns {Array<{site: SourceLocation, expression: string}>}
 */
export function viewWriteSites (analysis, scriptId, sites) {
  const text = scriptText(analysis.graph, scriptFunctions(analysis, (id) => id === scriptId).get(scriptId) ?? [])
  if (text === null) return []
  const lines = text.split('\n')
  const found = []
  for (const site of sites) {
    const line = lines[site.line - 1]?.slice(site.column - 1) ?? ''
    // A view copied at once (`Buffer.from(body.subarray(0, 16))`) keeps nothing of its parent.
    const view = [...line.matchAll(VIEW_EXPRESSION)].find((match) => !COPIED.test(line.slice(0, match.index)))
    if (view !== undefined) found.push({ site, expression: view[0] })
  }
  return found
}
