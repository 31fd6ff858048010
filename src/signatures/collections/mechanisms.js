// Why a collection's entries stay, as the heap and the program's write show it, most specific first
// (views of big buffers, WeakRefs whose objects are gone, a removal on one path only, closures a
// package made), and the fix and notes each calls for; a bound when none shows.

import { boundFix, everyPathFix, onePathNote, packageClosuresFix, packageClosuresNote, viewFix, weakEntriesNote, weakRefFix } from './collection-words.js'
import { packageClosures } from './package-closures.js'
import { weakEntries } from './weak-entries.js'
/** @import {SignatureInput, SourceLocation} from '../finding.js' */
/** @import {CollectionKind} from '../../query/collection-entries.js' */
/** @import {BackingStores} from '../backing-stores.js' */
/** @import {EntryWrite} from './entry-writes.js' */
/** @import {WeakEntries} from './weak-entries.js' */
/** @import {PackageClosures} from './package-closures.js' */

/**
 * What the heap and the program's write show about why entries stay, most specific first: views
 * of big buffers or strings, WeakRefs whose objects are gone, a removal on one path only, closures
 * a package made; null when none shows (a bound is then the fix).
 * @typedef {{kind: 'views', stores: BackingStores} | {kind: 'weak refs', weak: WeakEntries} |
 *   {kind: 'one path', write: EntryWrite, removal: NonNullable<EntryWrite['removal']>} |
 *   {kind: 'package closures', closures: PackageClosures} | null} Mechanism
 */

/**
 * @param {SignatureInput} input
 * @param {import('../collection-growth.js').CollectionGrowth} growth
 * @param {BackingStores | null} stores
 * @param {EntryWrite | null} write
 * @returns {Mechanism}
 */
export function mechanismOf ({ detail, cwd, names }, growth, stores, write) {
  if (stores !== null) return { kind: 'views', stores }
  const last = detail.analyses[detail.analyses.length - 1]
  const weak = weakEntries(last.graph, growth.newValues)
  if (weak !== null) return { kind: 'weak refs', weak }
  if (write !== null && write.removal !== null) return { kind: 'one path', write, removal: write.removal }
  const closures = packageClosures(last, growth.newValues, detail.ages, cwd, names)
  return closures === null ? null : { kind: 'package closures', closures }
}

/**
 * @param {CollectionKind} kind
 * @param {string} name
 * @param {string[]} keyClasses
 * @param {Mechanism} mechanism
 * @param {{site: SourceLocation, expression: string} | null} view
 * @param {EntryWrite | null} write
 * @returns {{summary: string, snippet: string}}
 */
export function fixOf (kind, name, keyClasses, mechanism, view, write) {
  switch (mechanism?.kind) {
    case 'views': return viewFix(kind, name, mechanism.stores, view, write)
    case 'weak refs': return weakRefFix(kind, name, mechanism.weak, write)
    case 'one path': return everyPathFix(kind, name, mechanism.write, mechanism.removal)
    case 'package closures': return packageClosuresFix(kind, name, mechanism.closures, write)
    default: return boundFix(kind, name, keyClasses)
  }
}

/**
 * The notes a mechanism adds (the views' are storeNotes, given with the stores).
 * @param {Mechanism} mechanism
 * @param {string} name
 * @returns {string[]}
 */
export function mechanismNotes (mechanism, name) {
  switch (mechanism?.kind) {
    case 'weak refs': return [weakEntriesNote(mechanism.weak)]
    case 'one path': return [onePathNote(mechanism.removal)]
    case 'package closures': return [packageClosuresNote(mechanism.closures, name)]
    default: return []
  }
}
