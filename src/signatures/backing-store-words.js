// The words of a finding whose entries are small views keeping big memory (backing-stores.js):
// what each entry's store is, the write that takes the view, and the copy that lets the store go.

import { bytesText } from './evidence-notes.js'
import { percent } from './growth-evidence.js'
/** @import {BackingStores} from './backing-stores.js' */
/** @import {SourceLocation} from './finding.js' */

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
  const shared = sharedText(stores, unit)
  const notes = [stores.kind === 'string'
    ? `${share} is ${shared === '' ? 'one string' : 'its part of a string'} of ${bytesText(stores.storeBytes)}${shared}, which a ${stores.viewClass} of ${bytesText(stores.viewBytes)} was cut from`
    : `${share} is ${shared === '' ? 'one ArrayBuffer store' : 'its part of an ArrayBuffer store'} of ${bytesText(stores.storeBytes)}${shared}, held by a ${stores.viewClass} of ${bytesText(stores.viewBytes)}`]
  if (stores.kind === 'buffer' && shared !== '' && stores.storeBytes === POOL_SLAB_BYTES) notes.push(POOL_NOTE)
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
    summary: `each ${unit} keeps a ${bytesText(stores.viewBytes)} ${stores.viewClass} whose ArrayBuffer store is ${size}${sharedText(stores, unit)} (${sharedText(stores, unit) === '' ? '' : 'its share is '}${percent(stores.share)} of the ${unit}): ${cause}. Copy the part you keep (${copy}), so the big buffer can go; and bound ${variable} too (${bound}).`,
    snippet: `// a copy of the bytes, not a view of the whole buffer\n${store(copy)}`
  }
}

/** The size of the slabs Node cuts small Buffers from (Buffer.poolSize's default). */
const POOL_SLAB_BYTES = 8192
const POOL_NOTE = 'an 8 KiB store shared by a few views is one of the slabs Node cuts small buffers from (Buffer.from() of a short string, Buffer.allocUnsafe()): a view of a pooled buffer keeps the whole slab'

/**
 * ", shared by 2 entries' views" when a store is shared, else ''.
 * @param {BackingStores} stores
 * @param {string} unit
 */
function sharedText (stores, unit) {
  const by = Math.round(stores.sharedBy)
  return by < 2 ? '' : `, shared by ${by} ${unit === 'entry' ? 'entries' : `${unit}s`}' views`
}
