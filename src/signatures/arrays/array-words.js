// The words of a growing-array finding, for each of its shapes: an array of the program that only
// grows (its elements plain records, small views of big buffers, or a library's records of work
// never ended), a list Node owns, and a module's children reloaded through require.cache.

import { countText, notesOf } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
import { storeFix, storeNotes } from '../backing-store-words.js'
import { variableFor } from '../snippet-names.js'
import { writeSiteNotes } from '../write-sites.js'
import { joinVerb, neverText } from '../node-owned/node-words.js'
import { weakEntriesNote } from '../collections/collection-words.js'
/** @import {BackingStores} from '../backing-stores.js' */
/** @import {SourceLocation} from '../finding.js' */
/** @import {HolderLocation} from '../holder-location.js' */
/** @import {WriteSites} from '../write-sites.js' */
/** @import {NodeRecords} from '../node-owned/node-records.js' */
/** @import {LibraryRecord} from './library-records.js' */
/** @import {WeakEntries} from '../collections/weak-entries.js' */

/** The signature's id, never renamed. */
export const ID = 'growing-array'

/** How the code at the finding's location relates to a list Node owns, for the card. */
export const CALLBACKS_ROLE = 'its callbacks'
export const MAKES_ROLE = 'makes them'
export const RELOAD_ROLE = 'reloads it'

/**
 * @param {number[]} counts
 */
function countsText (counts) {
  return counts.map(countText).join(' → ')
}

/**
 * An array of the program.
 * @param {string} name  the array's name
 * @param {number} ownerCount  arrays of one shape in the row
 * @param {number[]} counts  elements per snapshot, summed
 */
export function arrayTitle (name, ownerCount, counts) {
  return ownerCount > 1
    ? `${ownerCount} arrays like ${name} only grow: ${countsText(counts)} elements in all, none removed.`
    : `${name} (Array) only grows: ${countsText(counts)} elements, none removed.`
}

/**
 * The card's lines.
 * @param {{fresh: number, ownerCount: number, stores: BackingStores | null,
 *   view: {site: SourceLocation, expression: string} | null, bytesPerElement: number,
 *   sites: WriteSites | null, holder: HolderLocation | null, weak?: WeakEntries | null}} facts  fresh:
 *   the share of the new elements that hold new objects; view: the write that keeps a view, when
 *   its text shows one; sites: where the program adds to the array; weak: its WeakRefs
 */
export function arrayNotes ({ fresh, ownerCount, stores, view, bytesPerElement, sites, holder, weak = null }) {
  return notesOf([
    freshNote(fresh),
    ownerCount > 1 && `${countText(ownerCount)} arrays of one shape, summed`,
    weak !== null && weakEntriesNote(weak),
    ...(stores === null ? [] : storeNotes(stores, view, 'element', bytesPerElement)),
    ...(sites === null || holder === null ? [] : writeSiteNotes(sites, holder))
  ])
}

/**
 * @param {number} fresh  the share of the new elements that hold objects allocated since the first snapshot
 */
function freshNote (fresh) {
  return `${percent(fresh)} of the new elements hold objects allocated since the first snapshot`
}

/**
 * The remedy: copy what each element keeps of a bigger buffer or string, end the work a library's
 * record stands for, or bound the array.
 * @param {string} name  the array's name
 * @param {BackingStores | null} stores  each element is a small view keeping a big store
 * @param {{site: SourceLocation, expression: string} | null} view
 * @param {LibraryRecord | null} record  the array is a library's list of work never ended
 * @param {WeakEntries | null} [weak]  the new elements' WeakRefs, when most of them are
 * @returns {{summary: string, snippet: string}}
 */
export function arrayFix (name, stores, view, record, weak = null) {
  // An expression the program can write: a variable, `Registry.log`, `meta.get(app)`.
  const variable = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\([\w$]*\))*$/.test(name) ? name : 'list'
  if (stores !== null) return storeFix(stores, view, { unit: 'element', variable, bound: 'keep the last N', store: (copy) => `${variable}.push(${copy})` })
  if (record !== null) return libraryRecordFix(name, record)
  if (weak !== null) return weakElementsFix(name, variable, weak)
  return {
    summary: 'bound it (keep the last N, as a ring buffer does) or stop keeping it: aggregate, or write records out instead of holding them.',
    snippet: `${variable}.push(record)\nif (${variable}.length > 1000) ${variable}.shift()`
  }
}

/**
 * An array of WeakRefs nothing prunes: each lets its object go, never its element. An array
 * cannot drop one element cheaply, so the fix keeps them in a Set that a FinalizationRegistry
 * deletes from.
 * @param {string} name
 * @param {string} variable
 * @param {WeakEntries} weak
 * @returns {{summary: string, snippet: string}}
 */
function weakElementsFix (name, variable, { weakRefs, cleared }) {
  const gone = cleared > 0 ? `${countText(cleared)} of ${countText(weakRefs)} sampled WeakRefs already point at nothing` : 'their objects go, their elements do not'
  const registry = `forget${variable.replace(/^\w/, (c) => c.toUpperCase()).replace(/\W/g, '')}`
  return {
    summary: `${name} keeps an element for every WeakRef after its object is collected (${gone}): a WeakRef lets its object go, never the element that holds it. Keep the WeakRefs in a Set and delete each with a FinalizationRegistry when its object is collected, or prune as you read (drop the elements whose deref() is undefined).`,
    snippet: `const ${variable} = new Set()\nconst ${registry} = new FinalizationRegistry((ref) => ${variable}.delete(ref))\nconst ref = new WeakRef(value)\n${variable}.add(ref)\n${registry}.register(value, ref)`
  }
}

/**
 * A library's own list (a scheduler's pending invocations) is not the program's to bound: each new
 * record is work the program started and never ended, and the method that ends it is the fix.
 * @param {string} name
 * @param {LibraryRecord} record
 * @returns {{summary: string, snippet: string}}
 */
function libraryRecordFix (name, { library, elementClass, via, targetClass, method }) {
  const variable = variableFor(targetClass)
  return {
    summary: `${name} is ${library}'s own list: each new ${elementClass}${via === '' ? '' : ` (through its ${via}, a ${targetClass})`} is work the program started and never ended. Keep the ${targetClass} the library hands back and call its ${method}() when it is no longer needed, or start one at start-up instead of one per request.`,
    snippet: `const ${variable} = /* the call that returns the ${targetClass} */\n${variable}.${method}() // when it is no longer needed`
  }
}

/**
 * A list Node owns.
 * @param {string} subject  what the card calls the list (node-words.js)
 * @param {number[]} counts
 * @param {NodeRecords | null} records  what the program makes Node add to it, when its elements say
 */
export function nodeListTitle (subject, counts, records) {
  if (records === null) return `${subject} only grows: ${countsText(counts)} elements, none removed.`
  return `${subject} only grows: ${countsText(counts)}, each ${joinVerb(records.elementClass)} per call and ${neverText(records)}.`
}

/**
 * @param {SourceLocation | null} callbacks  where the records' callbacks start
 */
export function callbacksNote (callbacks) {
  return callbacks && `their callbacks start at ${callbacks.file}:${callbacks.line}:${callbacks.column}${callbacks.function === '' ? '' : ` (${callbacks.function})`}`
}

/**
 * A module's children that grow with copies of one module.
 * @param {string} subject
 * @param {number[]} counts
 * @param {string | null} file  the reloaded module
 */
export function reloadTitle (subject, counts, file) {
  return `${subject} only grows: ${countsText(counts)} copies${file === null ? '' : ` of ${file}`}, one per require() after it is deleted from require.cache.`
}

/**
 * The card's lines for a list Node owns.
 * @param {number} fresh
 * @param {string} module  Node's module that holds the list
 * @param {string | null | false} note  one more, when the shape has one
 * @param {string | null} [release]  the call that takes entries out, when Node offers the program one
 */
export function nodeListNotes (fresh, module, note, release = null) {
  return notesOf([
    freshNote(fresh),
    release === null
      ? `held by Node's own code (${module}): the program cannot shorten it, only stop adding to it`
      : `held by Node's own code (${module}): only ${release} takes entries out`,
    note
  ])
}
