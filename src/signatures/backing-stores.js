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

import { bytesText } from './evidence-notes.js'
import { percent } from './growth-evidence.js'
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
 * @property {number} share          the stores' share of the bytes each new entry keeps (0..1)
 */

/**
 * Whether the new values are small views each keeping a store of its own (or slices each keeping a
 * string of its own) that makes most of an entry's retained size; null when they are not (plain
 * objects, pooled small Buffers sharing one store, slices of one shared string, stores about the
 * size of their views).
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
  const seen = new Set()
  let views = 0
  let viewBytes = 0
  let storeBytes = 0
  let sampled = 0
  let viewClass = ''
  let kind = /** @type {'buffer' | 'string'} */ ('buffer')
  for (const o of values) {
    const type = graph.nodeTypes[o]
    if (type !== graph.nodeType.object && type !== sliced) continue
    if (++sampled > SAMPLE) break
    const store = storeOf(o)
    // A store shared by several views (Buffer's pool, one string cut in many pieces) is not one entry's.
    if (store < 0 || seen.has(store)) continue
    seen.add(store)
    views++
    viewBytes += graph.selfSize(o)
    storeBytes += graph.selfSize(store)
    if (viewClass === '') {
      viewClass = analysis.classes.names[analysis.classOf[o]]
      kind = type === sliced ? 'string' : 'buffer'
    }
  }
  if (views === 0 || views < sampled / 2) return null
  const store = storeBytes / views
  const view = viewBytes / views
  const share = Math.min(1, store / bytesPerEntry)
  if (share < MIN_STORE_SHARE || store < MIN_STORE_TO_VIEW * view) return null
  return { kind, viewClass, views, viewBytes: Math.round(view), storeBytes: Math.round(store), share }
}

/**
 * The evidence notes: what each entry's store is, and the write that keeps a view, when its text shows one.
 * @param {BackingStores} stores
 * @param {{site: SourceLocation, expression: string} | null} view
 * @param {string} unit  'entry', 'element'
 * @param {number} bytesPerUnit
 * @returns {string[]}
 */
export function storeNotes (stores, view, unit, bytesPerUnit) {
  const share = `${percent(stores.share)} of each ${unit}'s ${bytesText(bytesPerUnit)}`
  const notes = [stores.kind === 'string'
    ? `${share} is one string of ${bytesText(stores.storeBytes)}, which a ${stores.viewClass} of ${bytesText(stores.viewBytes)} was cut from`
    : `${share} is one ArrayBuffer store of ${bytesText(stores.storeBytes)}, held by a ${stores.viewClass} of ${bytesText(stores.viewBytes)}`]
  if (view !== null) {
    notes.push(stores.kind === 'string'
      ? `${view.site.file}:${view.site.line} stores ${view.expression}: a slice that keeps the whole string it was cut from`
      : `${view.site.file}:${view.site.line} stores ${view.expression}: a view that shares the whole buffer it was cut from`)
  }
  return notes
}

/**
 * The remedy when each entry is a small view keeping a big store: copy what is kept, and bound the
 * collection as well.
 * @param {BackingStores} stores
 * @param {{site: SourceLocation, expression: string} | null} view the write that takes a view, when its text shows one
 * @param {{unit: string, variable: string, bound: string, store: (copy: string) => string}} how
 *   unit: 'entry', 'element'; bound: how to bound the collection, in words; store: the line that
 *   keeps a copy
 * @returns {{summary: string, snippet: string}}
 */
export function storeFix (stores, view, { unit, variable, bound, store }) {
  const size = bytesText(stores.storeBytes)
  if (stores.kind === 'string') {
    const cause = view !== null
      ? `the write at ${view.site.file}:${view.site.line} keeps ${view.expression}, and V8 keeps the whole ${size} string a slice was cut from`
      : 'a slice of a string (slice(), substring(), a regular expression\'s match) keeps the whole string it was cut from in V8'
    const copy = `structuredClone(${view === null ? 'piece' : view.expression})`
    return {
      summary: `each ${unit} keeps a ${stores.viewClass} whose parent string is ${size} (${percent(stores.share)} of the ${unit}): ${cause}. Copy the characters you keep (${copy}), so the big string can go; and bound ${variable} too (${bound}).`,
      snippet: `// a copy of the characters, not a slice of the whole string\n${store(copy)}`
    }
  }
  const cause = view !== null
    ? `the write at ${view.site.file}:${view.site.line} keeps ${view.expression}, a view that shares the whole ${size} buffer it was cut from`
    : `if that ${stores.viewClass} is a subarray() or slice() of a bigger buffer, it keeps all ${size} of it (the heap shows the store, not how much of it the view covers)`
  const copy = `Buffer.from(${view === null ? 'view' : view.expression})`
  return {
    summary: `each ${unit} keeps a ${bytesText(stores.viewBytes)} ${stores.viewClass} whose ArrayBuffer store is ${size} (${percent(stores.share)} of the ${unit}): ${cause}. Copy the part you keep (${copy}), so the big buffer can go; and bound ${variable} too (${bound}).`,
    snippet: `// a copy of the bytes, not a view of the whole buffer\n${store(copy)}`
  }
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
