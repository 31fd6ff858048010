// Small views that keep big memory.
// - Buffers: a Buffer or typed array is an object of a few dozen bytes whose bytes live in its
//   ArrayBuffer's backing store (heapsnapshot-format.md: ArrayBuffer --backing_store--> native
//   "system / JSArrayBufferData", self size = byteLength). A view made by `subarray()` or `slice()`
//   of a Buffer shares its parent's whole store, so keeping 16 bytes of a 64 kB body keeps all 64 kB.
// - Strings: V8 makes a piece of 13 characters or more of a flat string (`slice()`, `substring()`,
//   a regular expression's match) a SlicedString that points at the whole string (its `parent`
//   edge), so keeping a 20-character token of a 50 kB request body keeps all 50 kB.
// The snapshot records the store's (or parent's) size but not what part the view covers, so it
// shows a small object holding a big store, never the slice itself: a write site whose text takes a
// `subarray(`/`slice(`/`substring(` is what shows that.
// A store may be shared by a few views: Node cuts `Buffer.from()` of a short string and small
// `Buffer.alloc*Unsafe()` from 8 KiB pool slabs, so two 3.5 kB bodies share one slab and each view
// of one keeps the whole slab. Each entry is then charged its share of the store; a slab cut into
// hundreds of tiny buffers leaves each a share no bigger than the view, which is no leak of views.
// The words (notes and fixes) are in backing-store-words.js.

import { scriptFunctions, scriptText } from './script-functions.js'
import { scriptSyntax } from '../syntax/script-syntax.js'
import { reference } from '../query/references.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {SourceLocation} from './finding.js' */

/** New values looked at. */
const SAMPLE = 500
/** The stores must be most of what a new entry keeps. */
const MIN_STORE_SHARE = 0.6
/** And far bigger than the view that holds them. */
const MIN_STORE_TO_VIEW = 16
/** Methods that return a view sharing the store of what they are called on. */
const VIEW_METHODS = new Set(['subarray', 'slice', 'substring', 'substr'])
/**
 * Calls a view handed to is copied by: `Buffer.from(`, `new Uint8Array(`, `.copyBytesFrom(`,
 * `structuredClone(`.
 */
const COPIED = /^(?:from|copyBytesFrom|new \w*Array|structuredClone)$/

/**
 * @typedef {object} BackingStores
 * @property {'buffer' | 'string'} kind  views of ArrayBuffer stores, or slices of strings
 * @property {string} viewClass      the views' class (`Buffer`, `Uint8Array`, `(sliced string)`)
 * @property {number} views          sampled values that are views with a store of their own
 * @property {number} viewBytes      the views' average self size
 * @property {number} storeBytes     their stores' (or parent strings') average size
 * @property {number} sharedBy       sampled views per store: 1 when each view has a store of its
 *                                   own, 2 when two bodies cut from one pool slab share it
 * @property {number} share          the stores' share of the bytes each new entry keeps (0..1),
 *                                   a shared store counted once, split among its views
 */

/**
 * Whether the new values are small views each keeping a store (or slices each keeping a string),
 * whole or shared with a few others, that makes most of an entry's retained size; null when they
 * are not (plain objects, tiny pooled Buffers sharing one store, many slices of one string, stores
 * about the size of their views).
 * @param {HeapAnalysis} analysis
 * @param {number[]} values  new values (ordinals, last snapshot)
 * @param {number} bytesPerEntry  what each new entry keeps, from the counts and retained sizes
 * @returns {BackingStores | null}
 */
export function backingStores (analysis, values, bytesPerEntry) {
  if (bytesPerEntry <= 0) return null
  const { graph } = analysis
  const sliced = graph.nodeTypeNames.indexOf('sliced string')
  /**
   * The store (or parent string) a value keeps, or -1.
   * @param {number} o
   */
  const storeOf = (o) => {
    const type = graph.nodeTypes[o]
    if (type === sliced) return reference(graph, o, 'parent', 'internal')
    if (type !== graph.nodeType.object) return -1
    return reference(graph, reference(graph, o, 'buffer', 'internal'), 'backing_store', 'internal')
  }
  /** @type {Map<number, number>} the sampled views of each store */
  const viewsOf = new Map()
  let views = 0
  let viewBytes = 0
  let storeBytes = 0
  let sampled = 0
  let viewClass = ''
  let kind = /** @type {'buffer' | 'string'} */ ('buffer')
  for (const o of values) {
    const type = graph.nodeTypes[o]
    if (type !== graph.nodeType.object && type !== sliced) continue
    if (sampled === SAMPLE) break
    sampled++
    const store = storeOf(o)
    if (store < 0) continue
    views++
    viewBytes += graph.selfSize(o)
    const shared = viewsOf.get(store)
    viewsOf.set(store, (shared ?? 0) + 1)
    if (shared === undefined) storeBytes += graph.selfSize(store)
    if (viewClass === '') {
      viewClass = analysis.classes.names[analysis.classOf[o]]
      kind = type === sliced ? 'string' : 'buffer'
    }
  }
  if (views === 0 || views < sampled / 2) return null
  // What one entry keeps: its store, or its share of a store several new views hold.
  const store = storeBytes / views
  const view = viewBytes / views
  const share = Math.min(1, store / bytesPerEntry)
  if (share < MIN_STORE_SHARE || store < MIN_STORE_TO_VIEW * view) return null
  return { kind, viewClass, views, viewBytes: Math.round(view), storeBytes: Math.round(storeBytes / viewsOf.size), sharedBy: views / viewsOf.size, share }
}

/**
 * The write sites whose line takes a view of a buffer (`body.subarray(0, 16)`), read from the
 * text of the script with V8 id `scriptId`, each with the view expression as written.
 * @param {HeapAnalysis} analysis
 * @param {number} scriptId
 * @param {SourceLocation[]} sites
 * @param {NameResolver} names  for the script's whole text
 * @returns {Array<{site: SourceLocation, expression: string}>}
 */
export function viewWriteSites (analysis, scriptId, sites, names) {
  const text = scriptText(analysis, scriptFunctions(analysis, (id) => id === scriptId).get(scriptId) ?? [], names)
  if (text === null) return []
  const syntax = scriptSyntax(text)
  const found = []
  for (const site of sites) {
    const from = syntax.offsetOf(site.line - 1, site.column - 1)
    if (from < 0) continue
    const lineEnd = text.indexOf('\n', from)
    const calls = syntax.methodCallsIn(from, lineEnd < 0 ? text.length : lineEnd, VIEW_METHODS)
    // A view copied at once (`Buffer.from(body.subarray(0, 16))`) keeps nothing of its parent.
    const view = calls.find((call) => call.argumentOf === null || !COPIED.test(call.argumentOf))
    if (view !== undefined) found.push({ site, expression: text.slice(view.start, view.end) })
  }
  return found
}
