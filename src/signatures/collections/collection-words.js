// The words of an unbounded-collection finding: its title, its notes and its fix, for each
// mechanism the matcher tells apart from what the heap shows (unbounded-collection.js):
//   - entries that are small views of big buffers or strings: copy what is kept (../backing-store-words.js)
//   - entries that hold WeakRefs whose objects are gone: delete the entry when its object goes
//   - entries the program deletes, but on one path only: delete where every path ends
//   - entries that are a package's closures: the collection that keeps one per call is the leak
//   - a collection inside a package's object: the keys the program passes, the package's own
//     release call, written at the program's call into the package once the stacks find it
//   - anything else: a bound, or a WeakMap / WeakSet for object keys

import { storeFix } from '../backing-store-words.js'
import { everyPathSnippet } from '../call-words.js'
import { countText } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
import { variableFor } from '../snippet-names.js'
/** @import {BackingStores} from '../backing-stores.js' */
/** @import {EntryWrite} from './entry-writes.js' */
/** @import {LibraryHandle} from '../library-handle.js' */
/** @import {PackageClosures} from './package-closures.js' */
/** @import {WeakEntries} from './weak-entries.js' */
/** @import {SourceLocation} from '../finding.js' */
/** @import {CallFix} from '../call-words.js' */
/** @import {CollectionKind} from '../../query/collection-entries.js' */

/**
 * The collection as the card names it: `tokens (Map)`, `sessions (object used as a dictionary)`,
 * `_cache of ajv (Ajv, from ajv)` for a package's collection the program reaches through a variable.
 * @param {string} name
 * @param {CollectionKind} kind
 * @param {LibraryHandle | null} handle
 */
export function collectionSubject (name, kind, handle) {
  if (handle !== null) return `${name} of ${librarySubject(handle)}`
  return `${name} (${kind === 'object' ? 'object used as a dictionary' : kind})`
}

/**
 * The library's object as a card names it: `ajv (Ajv, from ajv)`, or when the program holds it
 * through an object of its own or Node's, `MemoryStore (from express-session, reached through server)`.
 * @param {LibraryHandle} handle
 */
export function librarySubject (handle) {
  return handle.through
    ? `${handle.className} (from ${handle.library}, reached through ${handle.name})`
    : `${handle.name} (${handle.className}, from ${handle.library})`
}

/**
 * The card of a collection a package keeps in its own code (library-entries.js reads what it keeps).
 * @param {string} library
 * @param {string} name
 * @param {string[]} sampleKeys
 * @param {string[]} keyClasses  most common first
 * @param {string[]} valueClasses
 * @param {string | null} end  the method the entries' values offer to end them
 * @param {string | null} [ended]  the class `end` belongs to, when it is not the values' own (the
 *   package's object each entry, a function, closes over)
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function libraryOwnedFix (library, name, sampleKeys, keyClasses, valueClasses, end, ended = null) {
  const keys = sampleKeys.length > 0 ? ` New keys look like ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}.` : ''
  const values = valueClasses.length > 0 ? ` New entries hold ${valueClasses.join(', ')}.` : ''
  const valueClass = ended ?? valueClasses[0] ?? 'entry'
  // Object keys are compared by identity: what the program passes, built per call, is a new key.
  const keyClass = keyClasses[0] ?? '('
  // Keys that are the package's own functions, closing over the object `ended` names, are not the program's to reuse.
  const byIdentity = keyClass.startsWith('(') || ended !== null ? '' : ` Its keys are objects, compared by identity: the program passes a new ${keyClass} each time, so build that object once and pass the same one every time.`
  return {
    subject: `${name} (${library}'s own)`,
    summary: `this collection is ${library}'s own, kept by its code: the program cannot bound or clear it, but each call the program makes into ${library} that adds an entry stays there.${keys}${values}${byIdentity} Make that call once, at start-up, and reuse what it returns${end === null ? '' : `, or end each one when its work is done (${valueClass}'s ${end}())`}.`,
    snippet: end === null
      ? `// call into ${library} once, at start-up, and reuse what it returns: not once per request`
      : `// per request only with its end: what ${library} returns stays in its ${name} until then\nconst handle = /* the call into ${library} */\n/* ... */\nhandle.${end}()`
  }
}

/** @param {SourceLocation} location  the program's function each new entry of a package's collection keeps */
export function keptFunctionNote (location) {
  return `each new entry keeps the program's function at ${location.file}:${location.line}`
}

/**
 * @param {string} library
 * @param {{release: string | null, clear: string | null} | null} [offered]  the package's calls that
 *   take entries out (scopeRelease)
 */
export function libraryOwnedNote (library, offered = null) {
  if (offered !== null) return `kept by ${library}'s own code; ${offeredCalls(offered)} of the object ${library} gives the program take entries out`
  return `kept by ${library}'s own code, which no object of the program's reaches: the program cannot bound it, only stop adding to it`
}

/**
 * The card of a package's own collection whose entries the package's object takes out
 * (memory-cache's del(key) and clear(), sharing the scope of its `_cache`).
 * @param {string} library
 * @param {string} name
 * @param {string[]} sampleKeys
 * @param {string[]} valueClasses
 * @param {{release: string | null, clear: string | null}} offered
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function offeredReleaseFix (library, name, sampleKeys, valueClasses, { release, clear }) {
  const keys = sampleKeys.length > 0 ? ` New keys look like ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}.` : ''
  const values = valueClasses.length > 0 ? ` New entries hold ${valueClasses.join(', ')}.` : ''
  // `memory-cache` → memoryCache → cache, as the program would name what it imports.
  const variable = variableFor(library.replace(/^@[^/]+\//, '').replace(/[-.]+([a-z\d])/g, (_, c) => c.toUpperCase()))
  const take = release === null
    ? `Empty it with ${clear}() when its entries are done with, or give it keys from a small, fixed set (a route pattern, not the raw URL or an id).`
    : `Call ${release}(key) when an entry's work is done, on every path (in a finally), or give it keys from a small, fixed set (a route pattern, not the raw URL or an id)${clear === null ? '' : `; ${clear}() empties it`}.`
  return {
    subject: `${name} (${library}'s own)`,
    summary: `this collection is ${library}'s own, kept by its code, and every entry the program adds through ${library} stays until ${offeredCalls({ release, clear })} takes it out.${keys}${values} ${take}`,
    snippet: release === null
      ? `// when the entries are done with\n${variable}.${clear}()`
      : `// ... ${library} gets an entry for key\ntry {\n  // ... the work, as before\n} finally {\n  ${variable}.${release}(key)\n}`
  }
}

/**
 * "del(key) or clear()", "clear()".
 * @param {{release: string | null, clear: string | null}} offered
 */
function offeredCalls ({ release, clear }) {
  return [release === null ? null : `${release}(key)`, clear === null ? null : `${clear}()`].filter((call) => call !== null).join(' or ')
}

/** @param {number} fresh  the share of new entries whose key or value is new */
export function freshNote (fresh) {
  return `${percent(fresh)} of the new entries hold objects allocated since the first snapshot`
}

/**
 * A scope that keeps a collection's entries' objects, named for a note.
 * @param {string | null} module  its module, when it is one's
 */
export function scopeName (module) {
  return module === null ? 'the scope around it' : `the module scope of ${module}`
}

/**
 * A per-importer entry of one of Node's module caches.
 * @param {string} cache
 * @param {string} importer
 */
export function importerEntryName (cache, importer) {
  return `${cache}'s entry for ${importer}`
}

/**
 * @param {string} subject  the collection as the card names it: `tokens (Map)`
 * @param {number[]} counts
 * @param {number} ownerCount
 * @param {boolean} onePath  the program removes entries, on one path only
 */
export function collectionTitle (subject, counts, ownerCount, onePath) {
  const range = `${countText(counts[0])} → ${countText(counts[counts.length - 1])}`
  const removed = onePath ? 'are removed on one path only' : 'are never removed'
  return ownerCount > 1
    ? `${ownerCount} collections like ${subject} gain entries that ${removed}: ${range} in all.`
    : `${subject} gains entries that ${removed}: ${range}.`
}

/**
 * @param {string} subject  what Node's collection is, in words
 * @param {string} name
 * @param {number[]} counts
 * @param {boolean} moduleCache
 */
export function nodeOwnedTitle (subject, name, counts, moduleCache) {
  const range = `${countText(counts[0])} → ${countText(counts[counts.length - 1])}`
  return moduleCache
    ? `The program imports a module under a new URL each time, and Node's module loader keeps every one: ${name} ${range} entries.`
    : `${subject} gains entries that are never removed: ${range}.`
}

/** The note of an entry count summed over several collections of one shape. */
export function summedNote (/** @type {number} */ ownerCount) {
  return `${countText(ownerCount)} collections of one shape, summed`
}

/**
 * The note of a node-owned collection.
 * @param {string} className
 * @param {string} module
 */
export function nodeOwnedNote (className, module) {
  return `held by Node's own ${className} (${module}): the program cannot bound it, only stop adding to it`
}

/** @param {string[]} sampleKeys */
export function newKeysNote (sampleKeys) {
  return sampleKeys.length > 0 && `new keys: ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}`
}

/**
 * The note of a holder whose other fields keep the entries' objects too.
 * @param {{name: string, parts: string}} shared
 * @param {string} kind
 * @param {string} ownBytes  the collection's own retained growth, in words
 */
export function sharedHolderNote (shared, kind, ownBytes) {
  return `retained is that of ${shared.name}: its other ${shared.parts} hold the new entries' objects too, so the ${kind} alone dominates only ${ownBytes} of the growth`
}

/**
 * The note of another collection one finding folds in.
 * @param {'calls' | 'cause'} why  the same calls grow it (a library object's), or the same cause (Node's)
 * @param {string} name
 * @param {string} className
 * @param {number[]} counts
 * @param {string} unit
 */
export function alsoGrowsNote (why, name, className, counts, unit) {
  return `the same ${why} grow${why === 'calls' ? '' : 's'} ${name} (${className}) too: ${countText(counts[0])} → ${countText(counts[counts.length - 1])} ${unit}`
}

export const NO_IMPORTER_NOTE = 'the heap does not show which code imports it: look for an import() whose specifier changes per call'

/**
 * @param {WeakEntries} weak
 */
export function weakEntriesNote ({ sampled, weakRefs, cleared }) {
  return `${countText(weakRefs)} of ${countText(sampled)} new entries sampled hold a WeakRef, ${countText(cleared)} of them pointing at nothing: their objects were collected, their entries stay`
}

/**
 * @param {NonNullable<EntryWrite['removal']>} removal
 */
export function onePathNote (removal) {
  return `the program takes the entry out at ${removal.location.file}:${removal.location.line} (${removal.text}), on the paths that reach that line only: a throw, a rejected await or a return before it leaves the entry in`
}

/**
 * @param {PackageClosures} closures
 * @param {string} name  the collection's
 */
export function packageClosuresNote ({ library, location, holderClass, captured }, name) {
  const fn = location.function === '' ? 'an anonymous function' : location.function
  const what = holderClass === '' ? 'each entry is a closure' : `each entry (${holderClass}) holds a closure`
  const keeps = captured.length === 0 ? '' : ` that keeps ${captured.join(', ')}`
  return `${what} of ${library}'s code (${fn} at ${location.file}:${location.line})${keeps}: what it captures is what the program handed ${library}, and its code is not the program's; ${name} keeping one per call is the leak`
}

/**
 * The remedy when nothing more specific shows: a bound, or weak references for object keys.
 * @param {CollectionKind} kind
 * @param {string} name
 * @param {string[]} keyClasses  most common first
 * @returns {{summary: string, snippet: string}}
 */
export function boundFix (kind, name, keyClasses) {
  const { variable, declare } = declaration(name)
  // Strings, numbers and symbols show as (string), (number), ...; anything else is an object.
  const objectKeys = keyClasses.length > 0 && !keyClasses[0].startsWith('(')
  if (kind === 'Set') {
    return objectKeys
      ? { summary: 'hold the members in a WeakSet, so they go when nothing else uses them, or delete them when done.', snippet: `${declare} new WeakSet()` }
      : { summary: `delete members when they are done (${variable}.delete(value)), or bound the set.`, snippet: `${variable}.add(value)\nres.once('close', () => ${variable}.delete(value))` }
  }
  if (objectKeys) {
    return {
      summary: 'key by the object in a WeakMap, so an entry goes when its key does; or delete entries when they are done.',
      snippet: `${declare} new WeakMap()`
    }
  }
  return {
    summary: 'bound it: an LRU cache with a size limit and a time to live, or delete entries when they are done.',
    snippet: `import { LRUCache } from 'lru-cache'\n${declare} new LRUCache({ max: 1000, ttl: 10 * 60_000 })`
  }
}

/**
 * The variable a collection is written as, and how it is declared: a private field in the class
 * body, `Registry.entries` and `globalThis.cache` by assignment, anything else with const.
 * @param {string} name
 */
function declaration (name) {
  const variable = /^#?[A-Za-z_$][\w$]*$/.test(name) ? (name.startsWith('#') ? `this.${name}` : name) : /^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*$/.test(name) ? name : 'cache'
  const declare = (name.startsWith('#') || name.includes('.')) && variable !== 'cache' ? `${name} =` : `const ${variable} =`
  return { variable, declare }
}

/**
 * The collection's variable as code can use it (`cache` when its name is no identifier).
 * @param {string} name
 */
function variableOf (name) {
  return declaration(name).variable
}

/**
 * How the program takes one entry out, in its own terms when the write is known.
 * @param {CollectionKind} kind
 * @param {string} name
 * @param {EntryWrite | null} write
 */
function removalOf (kind, name, write) {
  const target = write?.parts.target ?? variableOf(name)
  const key = write === null ? (kind === 'Set' ? 'value' : 'key') : (write.parts.key ?? write.parts.value ?? 'key')
  return kind === 'object' ? `delete ${target}[${key}]` : `${target}.delete(${key})`
}

/**
 * The remedy when each entry is a small view keeping a big buffer or string: copy what is kept,
 * written in the program's write when it is known, and bound the collection as well.
 * @param {CollectionKind} kind
 * @param {string} name
 * @param {BackingStores} stores
 * @param {{site: SourceLocation, expression: string} | null} view the write that takes a view, when its text shows one
 * @param {EntryWrite | null} write the program's write at the view's site
 * @returns {{summary: string, snippet: string}}
 */
export function viewFix (kind, name, stores, view, write) {
  const variable = variableOf(name)
  const written = write !== null && view !== null && write.text.includes(view.expression) ? write.text : null
  const store = (/** @type {string} */ copy) => written !== null
    ? written.replace(/** @type {{expression: string}} */ (view).expression, copy)
    : kind === 'Map' ? `${variable}.set(key, ${copy})` : kind === 'Set' ? `${variable}.add(${copy})` : `${variable}[key] = ${copy}`
  return storeFix(stores, view, { unit: 'entry', variable, bound: 'a size limit, or delete entries when done', store })
}

/**
 * The remedy when the entries hold WeakRefs: the WeakRef lets its object go, the entry stays.
 * Delete the entry when its object is collected (a FinalizationRegistry), or prune on read.
 * @param {CollectionKind} kind
 * @param {string} name
 * @param {WeakEntries} weak
 * @param {EntryWrite | null} write
 * @returns {{summary: string, snippet: string}}
 */
export function weakRefFix (kind, name, weak, write) {
  const target = write?.parts.target ?? variableOf(name)
  const held = weakRefTargetText(write) ?? 'value'
  const registry = `forget${/^[A-Za-z_$]/.test(target) ? target.replace(/^#/, '').replace(/^\w/, (c) => c.toUpperCase()).replace(/\W/g, '') : ''}`
  const gone = weak.cleared > 0 ? `${countText(weak.cleared)} of ${countText(weak.weakRefs)} sampled WeakRefs already point at nothing` : 'their objects go, their entries do not'
  const summary = `${name} keeps an entry for every WeakRef after its object is collected (${gone}): a WeakRef lets its object go, never the entry that holds it. Delete the entry when its object is collected, with a FinalizationRegistry, or prune on read (delete an entry whose deref() is undefined when you come across it).`
  if (kind === 'Set') {
    const write = `const ref = new WeakRef(${held})\n${target}.add(ref)`
    return { summary, snippet: `const ${registry} = new FinalizationRegistry((ref) => ${target}.delete(ref))\n${write}\n${registry}.register(${held}, ref)` }
  }
  const key = write?.parts.key ?? 'key'
  const lookup = kind === 'object' ? `${target}[key]` : `${target}.get(key)`
  const remove = kind === 'object' ? `delete ${target}[key]` : `${target}.delete(key)`
  const written = write?.text ?? (kind === 'object' ? `${target}[${key}] = new WeakRef(${held})` : `${target}.set(${key}, new WeakRef(${held}))`)
  return {
    summary,
    snippet: `const ${registry} = new FinalizationRegistry((key) => {\n  if (${lookup}?.deref() === undefined) ${remove}\n})\n${written}\n${registry}.register(${held}, ${key})`
  }
}

/**
 * What the write wraps in a WeakRef, as written (`session` of `new WeakRef(session)`), or null.
 * @param {EntryWrite | null} write
 */
function weakRefTargetText (write) {
  if (write === null || write.parts.valueStart < 0) return null
  const call = write.syntax.callAt(write.parts.valueStart)
  return call !== null && call.constructs && call.name === 'WeakRef' && call.args.length === 1 ? call.args[0] : null
}

/**
 * The remedy when the program deletes entries, but on one path only: delete where every path
 * ends.
 * @param {CollectionKind} kind
 * @param {string} name
 * @param {EntryWrite} write
 * @param {NonNullable<EntryWrite['removal']>} removal
 * @returns {{summary: string, snippet: string}}
 */
export function everyPathFix (kind, name, write, removal) {
  return {
    summary: `${name} loses an entry only where the code reaches ${removal.text} (${removal.location.file}:${removal.location.line}); an entry whose work throws, rejects or returns early before that line stays for good. Take the entry out where every path ends: in a finally, or in the framework's response or error hook (res.once('close'), onError), not on the success path.`,
    snippet: everyPathSnippet(write.text, removal.text)
  }
}

/**
 * The remedy when the entries are (or hold) closures a package made: the program cannot change
 * what the package's closure captures; the collection that keeps one per call is what to change.
 * @param {CollectionKind} kind
 * @param {string} name
 * @param {PackageClosures} closures
 * @param {EntryWrite | null} write
 * @returns {{summary: string, snippet: string}}
 */
export function packageClosuresFix (kind, name, { library, holderClass }, write) {
  const entries = holderClass === '' ? `functions made by ${library}` : `${holderClass} objects from ${library}`
  const removal = removalOf(kind, name, write)
  return {
    summary: `the entries are ${entries}, and each keeps what the program handed ${library} through ${library}'s own closure: capturing less is not the program's to change. ${name} keeps one per call: take each out when its work is done (${removal}, in a finally or the framework's response or error hook), or do not keep them past the call.`,
    snippet: write === null ? `${removal} // when its work is done, on every path` : everyPathSnippet(write.text, removal)
  }
}

/**
 * The remedy when the collection belongs to a package's object the program holds: the program
 * cannot swap the package's map for an LRU, but it chooses the keys it passes in and can call the
 * object's own release method, named as the heap shows it. Returns the fix in the handle's terms
 * (the program's variable), and, for the distinct-key and key-object cases, the CallFix to write
 * it again at the program's call once the stacks find it.
 * @param {LibraryHandle} handle
 * @param {{release: string | null, clear: string | null}} methods  what the holder offers, from the heap
 * @param {string[]} sampleKeys
 * @param {string[]} keyClasses  most common first
 * @param {string[]} valueClasses  most common first
 * @returns {{summary: string, snippet: string, atCall?: CallFix}}
 */
export function libraryFix (handle, { release, clear }, sampleKeys, keyClasses, valueClasses) {
  const variable = /^[A-Za-z_$][\w$.]*$/.test(handle.accessor) ? handle.accessor : 'instance'
  const keys = sampleKeys.length > 0 ? ` New keys look like ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}.` : ''
  const methods = [release, clear].filter((m) => m !== null).map((m) => `${variable}.${m}()`)
  const drop = methods.length > 0 ? ` or drop entries when they are done (${methods.join(', ')})` : ' or drop entries when they are done'
  const { className, library } = handle
  // A function or plain object a package made (a memoized function, a template cache) is named by
  // the name it is reached by: its class says nothing.
  // The class is the first object's on the way: one reached past it (`priceOf.cache`) is named alone.
  const kind = className === 'Function' ? 'function' : className === 'Object' ? 'object' : null
  const who = kind === null
    ? `${className} from ${library}`
    : variable.includes('.') ? `${variable} (from ${library})` : `${variable === 'instance' ? `The ${kind}` : variable} (${kind === 'object' ? 'an' : 'a'} ${kind} from ${library})`
  // Promises as values make it a cache of loads (a batching loader, a memoized async call): those
  // are meant to live for one request, and a shared one keeps every result for good.
  if (valueClasses[0] === 'Promise' && className !== 'Function' && className !== 'Object') {
    return {
      summary: `${className} from ${library} keeps every load it was asked for (its values are promises), and one shared by all requests keeps them for good.${keys} Make a new ${className} per request, so its cache lives as long as the request, or give it a bounded cache of its own,${drop}.`,
      snippet: `// per request, not at start-up\nconst ${variableFor(className)} = new ${className}(/* ... */)`
    }
  }
  // Object keys are compared by identity: an object built per call is a new key every time, however
  // equal its contents (a schema literal, an options object).
  const keyClass = keyClasses[0] ?? '('
  if (!keyClass.startsWith('(')) {
    const literal = /^\{[\w$, ]*\}$/.test(keyClass) ? `${keyClass.replace(/\s*\}$/, ' }').replace(/^\{/, '{ ')} // made once at start-up` : `new ${keyClass}(/* ... */) // made once at start-up`
    return {
      summary: `${who} keeps one entry per key object, and compares keys by identity: the program passes a new ${keyClass} each time, so every call adds an entry. Build that object once and pass the same one every time (or call the step that uses it once, at start-up),${drop}.`,
      snippet: `const key = ${literal}\n// per request: pass this same key to ${variable}, never a fresh copy`,
      atCall: { kind: 'key object', release }
    }
  }
  // Keys that look like random ids are one per client, session or token: an entry for a client that
  // never comes back stays whatever the program releases on its own paths (express-session's
  // MemoryStore), so the fix is an expiry, not a release in a finally.
  if (looksLikeRandomIds(sampleKeys)) {
    return {
      summary: `${who} keeps one entry per id it is given, and the new keys look like random ids, one per client or session:${keys.replace(/^ New keys look like/, '')} A client that never comes back leaves its entry for good unless something expires it: keep the entries where they expire on their own (a store or an option with a time to live), create one only once there is something to keep in it,${drop}.`,
      snippet: '// one entry per client: let entries expire, and make none for a client with nothing to keep\n// (a store with a time to live; no entry until the program writes to it)'
    }
  }
  if (release !== null) {
    return {
      summary: `${who} keeps every entry it is given until its own ${release}(key) takes it out.${keys} One made per call stays for good: call ${release}(key) on it when the entry's work is done, on every path (in a finally), or give it keys from a small, fixed set (a route pattern, not the raw URL or an id).`,
      snippet: everyPathSnippet(`// ... ${variable} gets an entry for key`, `${variable}.${release}(key)`),
      atCall: { kind: 'distinct keys', release }
    }
  }
  return {
    summary: `${who} keeps one entry per distinct key it is given.${keys} Give it keys from a small, fixed set (a route pattern, not the raw URL or an id), use its own size limit or expiry if it has one,${drop}.`,
    snippet: '// key by something bounded, e.g. the route pattern\nconst key = req.route?.path ?? \'other\''
  }
}

/** A random id as services make them: base64url or alphanumeric with both cases, or a UUID. */
const RANDOM_ID = /^(?=[\w-]*[0-9])(?=[\w-]*[a-z])(?=[\w-]*[A-Z])[\w-]{16,}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Whether a collection's new keys are random ids (session ids, tokens): at least two, all
 * different, each one. A hash of content (hex in one case) is not: equal content gives equal keys.
 * @param {string[]} sampleKeys
 */
export function looksLikeRandomIds (sampleKeys) {
  return sampleKeys.length >= 2 && new Set(sampleKeys).size === sampleKeys.length && sampleKeys.every((key) => RANDOM_ID.test(key) || UUID.test(key))
}
