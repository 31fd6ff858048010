// Collections that Node itself owns: its ES module loader's caches, its list of enabled async
// hooks. The program cannot bound, clear or swap them, so "use an LRU" or "shift()" is no remedy:
// the card has to say what the program does that makes Node add an entry, from what the heap shows
// (the new entries' keys and classes, and the program's functions they hold).
//
// A collection is Node's when the nearest code-located object above it on its retainer path is
// Node's (a `node:` constructor or closure) and reaches it through Node's own links (a closure's
// scope, a private or internal field, a Map entry), or when the collection's own constructor is
// Node's. A property the program sets on a Node object (`server.sessions = new Map()`) is the
// program's, and stays with the ordinary remedies.

import { dirname, isAbsolute, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { functionSpans, innermostSpan, scriptFunctions, scriptText } from './script-functions.js'
import { mostCommonLocation } from './program-location.js'
import { EdgeCursor, propertyTarget, reference } from '../query/references.js'
import { offeredMethod } from '../query/heap-methods.js'
import { END_METHODS } from './unclosed-makers.js'
import { packageOf } from './library-handle.js'
import { readableScriptName, sourceLocation } from './source-location.js'
import { scriptSyntax } from '../syntax/script-syntax.js'
import { MAX_KEY_CHARS } from './collection-growth.js'
import { cutMiddle, mayBeCutBySnapshot } from '../cut-text.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {SourceLocation} from './finding.js' */
/** @import {ScriptSyntax} from '../syntax/script-syntax.js' */

/** Path steps looked back from the collection for the code that owns it. */
const MAX_STEPS = 6
/** New elements looked at for the program's functions they hold. */
const SAMPLE = 200

/**
 * @typedef {object} NodeOwner
 * @property {string} module      Node's module the owning code is in (`node:internal/async_hooks`)
 * @property {string} className   the class (or function) of that object
 * @property {number[]} ids       ids of Node objects on the path near the collection, for telling
 *                                collections of one Node object apart from others
 */

/**
 * Who owns the collection at the end of `path`, when it is Node: null for the program's and a
 * library's collections.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path ends at the collection
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {NodeOwner | null}
 */
export function nodeOwner (analysis, path, cwd, names) {
  const { graph } = analysis
  /** @type {NodeOwner | null} */
  let owner = null
  for (let i = path.length - 1; i >= Math.max(1, path.length - MAX_STEPS); i--) {
    const o = graph.findOrdinalById(path[i].id)
    if (o < 0) return null
    const type = graph.nodeTypes[o]
    if (type !== graph.nodeType.object && type !== graph.nodeType.closure) continue
    const location = sourceLocation(analysis, o, cwd, names)
    if (location === null) continue
    if (!location.file.startsWith('node:')) return null
    // The collection itself, or a Node object holding it through a link only Node's code makes:
    // a scope variable, a private field, a Map entry. Node keeps what a program hands it under
    // plain and symbol keys (an AsyncLocalStorage store, a property set on a request).
    const link = i + 1 < path.length ? path[i + 1] : null
    if (link !== null && (link.edgeType === 'property' || link.edgeType === 'element') && !link.edge.startsWith('#')) return null
    owner = { module: location.file, className: location.function === '' ? path[i].node : location.function, ids: [] }
    break
  }
  if (owner === null) return null
  for (let i = path.length - 2; i >= Math.max(1, path.length - MAX_STEPS); i--) {
    const o = graph.findOrdinalById(path[i].id)
    const location = o < 0 ? null : sourceLocation(analysis, o, cwd, names)
    if (location !== null && location.file.startsWith('node:') && graph.nodeTypes[o] === graph.nodeType.object) owner.ids.push(path[i].id)
  }
  return owner
}

/**
 * The specifier a module key stands for, without the query or hash that made it new and without
 * the resolve cache's attribute suffix (`./a.mjs?v=3::` → `./a.mjs`), or null when the key does not
 * look like a module specifier or the snapshot may have cut it (a long path loses its end, and with
 * it which module the key names).
 * @param {string} key whole, as the snapshot holds it
 */
export function moduleSpecifier (key) {
  if (!isModuleKey(key) || mayBeCutBySnapshot(key)) return null
  return key.replace(/::.*$/, '').replace(/[?#].*$/, '')
}

/**
 * Whether a key starts the way a module loader's keys do (a URL or a relative or absolute path).
 * @param {string} key
 */
function isModuleKey (key) {
  return /^(?:file:|data:|https?:|\.{1,2}\/|\/)/.test(key)
}

/**
 * Whether a Node-owned collection is the module loader's: its keys are module specifiers that
 * differ only in a query or hash, so one module was imported under many URLs.
 * @param {NodeOwner} owner
 * @param {string[]} keys  whole keys of new entries, as the snapshot holds them
 */
export function isModuleCache (owner, keys) {
  if (!owner.module.startsWith('node:internal/modules/') || keys.length === 0) return false
  return keys.every(isModuleKey)
}

/**
 * The card of a module loader cache that grows: each new URL is a new module, and ES modules are
 * never unloaded.
 * @param {string[]} sampleKeys  whole keys: the specifier is read from them, and they are cut for showing here
 * @param {string} cwd
 * @param {string | null} [importer] the importing file as the card shows it, to spell the specifier from
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function moduleCacheFix (sampleKeys, cwd, importer = null) {
  // The program's own spelling (the resolve cache's `./a.mjs`) before the resolved URL.
  const specifiers = [...new Set(sampleKeys.map((key) => moduleSpecifier(key)).filter((s) => s !== null))]
    .sort((a, b) => Number(a.startsWith('file:')) - Number(b.startsWith('file:')))
  const target = specifiers.length === 0 ? './module.mjs' : readableSpecifier(specifiers[0], cwd, importer)
  const shown = [...sampleKeys].sort((a, b) => Number(a.startsWith('file:')) - Number(b.startsWith('file:'))).slice(0, 2).map((key) => JSON.stringify(cutMiddle(key.replace(/::.*$/, ''), MAX_KEY_CHARS))).join(', ')
  return {
    subject: 'Node\'s ES module loader keeps a new module per import',
    summary: `the program imports ${new Set(specifiers.map((s) => s.replace(/^.*[\\/]/, ''))).size === 1 ? target : 'a module'} under a new specifier each time (${shown}, ...): every distinct URL is a new module, and ES modules are never unloaded, so Node's loader keeps each one (its code, its scope and everything that scope holds) for the life of the process. Import it once and reuse it; for code that must really be reloaded, run it in a Worker and terminate the old one, or in a vm context the program can drop.`,
    snippet: `// once, at start-up (or one cached import() promise)\nconst mod = await import('${target}')\n// to reload for real: new Worker(...) per version, then worker.terminate() the old one`
  }
}

/**
 * @param {string} specifier
 * @param {string} cwd
 * @param {string | null} importer
 */
function readableSpecifier (specifier, cwd, importer) {
  if (!specifier.startsWith('file:')) return specifier
  const file = readableScriptName(specifier, cwd)
  const name = importer === null || isAbsolute(file) !== isAbsolute(importer) ? file : relative(dirname(importer), file)
  return name.startsWith('/') || name.startsWith('.') ? name : `./${name}`
}

/**
 * Where a script imports one of `specifiers` with `import(`: found in the importer's text as the
 * snapshot holds it (any script's when `importers` is empty), or null when no closure of that
 * script or no such call is in the heap.
 * @param {HeapAnalysis} analysis
 * @param {string[]} importers script URLs or paths
 * @param {string[]} specifiers
 * @param {string} cwd
 * @param {NameResolver} names  for the scripts' whole texts
 * @returns {SourceLocation | null}
 */
export function importSite (analysis, importers, specifiers, cwd, names) {
  const { locations } = analysis
  const urls = new Set(importers.flatMap((url) => url.startsWith('file:') ? [url, fileURLToPath(url)] : [url]))
  // Without a named importer (its resolve cache grew too little to be a row of its own), every
  // script of the program and its packages is searched, Node's own excepted.
  const wanted = (/** @type {number} */ scriptId) => {
    const name = locations.scriptName(scriptId)
    return name !== null && !name.startsWith('node:') && (urls.size > 0 ? urls.has(name) : name !== '')
  }
  const bases = specifiers.map((s) => s.replace(/^.*[\\/]/, '')).filter((s) => s !== '')
  for (const [scriptId, functions] of scriptFunctions(analysis, wanted)) {
    const text = scriptText(analysis, functions, names)
    if (text === null) continue
    const syntax = scriptSyntax(text)
    // An import of one constant specifier loads one module: the one that grows builds its
    // specifier per call.
    const dynamic = syntax.dynamicImports().filter((i) => !i.constant)
    const named = dynamic.filter((i) => bases.some((base) => i.specifier.includes(base)))
    const at = named.length > 0 ? named[0].offset : urls.size > 0 && dynamic.length === 1 ? dynamic[0].offset : -1
    if (at >= 0) return siteAt(analysis, scriptId, syntax, functions, at, cwd)
  }
  return null
}

/**
 * The string key of the Map entry the collection at the end of `path` is the value of (a cache of
 * caches keyed by the importer's URL), or null.
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path
 */
export function enclosingMapKey (analysis, path) {
  if (path.length < 2) return null
  const { graph } = analysis
  const table = graph.findOrdinalById(path[path.length - 2].id)
  const slot = Number(path[path.length - 1].edge)
  if (table < 0 || path[path.length - 1].edgeType !== 'internal' || !Number.isInteger(slot)) return null
  const key = reference(graph, table, String(slot - 1), 'internal')
  return key >= 0 && graph.nodeTypes[key] === graph.nodeType.string ? graph.nodeName(key) : null
}

/**
 * Facts of a Node-owned list whose new elements are Node objects made for the program (an
 * AsyncHook holding the program's init/before/after callbacks): where the callbacks come from,
 * and the method that ends one.
 * @param {HeapAnalysis} analysis
 * @param {number[]} values new elements (ordinals, last snapshot)
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{elementClass: string, callbacks: SourceLocation | null, library: string | null, end: string | null} | null}
 */
export function nodeRecords (analysis, values, cwd, names) {
  const { graph } = analysis
  const objects = values.filter((o) => graph.nodeTypes[o] === graph.nodeType.object).slice(0, SAMPLE)
  if (objects.length === 0) return null
  const elementClass = analysis.classes.names[analysis.classOf[objects[0]]]
  /** @type {Array<{location: SourceLocation, count: number}>} */
  const located = []
  const edge = new EdgeCursor(graph)
  for (const o of objects) {
    for (edge.references(o); edge.next();) {
      const f = edge.target
      if (!edge.is('property') || graph.nodeTypes[f] !== graph.nodeType.closure) continue
      const location = sourceLocation(analysis, f, cwd, names)
      if (location !== null && !location.file.startsWith('node:')) located.push({ location, count: 1 })
    }
  }
  const callbacks = mostCommonLocation(located)?.location ?? null
  return {
    elementClass,
    callbacks,
    library: callbacks === null ? null : packageOf(callbacks.file),
    end: offeredMethod(graph, objects[0], ['disable', ...END_METHODS])
  }
}

/** What Node's own records are, by the class Node names them: how one joins the list, and what a
 * pile of them costs beyond memory. */
const NODE_RECORDS = /** @type {Record<string, {joins: string, cost: string}>} */ ({
  AsyncHook: { joins: 'enabled', cost: 'every async operation in the process calls each enabled hook, so the process also gets slower with every one' }
})

/**
 * How one record joined Node's list ("enabled" for an async hook, else "made").
 * @param {string} elementClass
 */
export function joinVerb (elementClass) {
  return NODE_RECORDS[elementClass]?.joins ?? 'made'
}

/**
 * The card of a Node-owned list of records the program makes per call and never ends.
 * @param {NodeOwner} owner
 * @param {{elementClass: string, callbacks: SourceLocation | null, library: string | null, end: string | null}} records
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function nodeRecordsFix (owner, records) {
  const { elementClass, callbacks, library, end } = records
  const ended = end === null ? 'never ended' : `never ${end}d`
  const known = NODE_RECORDS[elementClass]
  const joins = joinVerb(elementClass)
  const from = callbacks === null
    ? ''
    : ` Their callbacks come from ${library === null ? 'the program' : library} (${callbacks.file}:${callbacks.line}${callbacks.function === '' ? '' : `, ${callbacks.function}`}): ${library === null ? 'that code runs' : `the program calls into ${library}`} in a way that ${joins === 'made' ? 'makes' : joins.replace(/d$/, 's')} a new one each time (a per-request setup call).`
  const variable = elementClass.charAt(0).toLowerCase() + elementClass.slice(1)
  return {
    subject: `Node's own list of ${known === undefined ? '' : `${joins} `}${elementClass} objects (${owner.module})`,
    summary: `each new ${elementClass} is ${joins} per call and ${ended}, and Node keeps every one${known === undefined ? '' : `: ${known.cost}`}.${from} Make it once at start-up and reuse it${end === null ? '' : `, or call its ${end}() when done`}.`,
    snippet: `// once, at start-up, not per request\nconst ${variable} = /* the call that makes the ${elementClass} */${end === null ? '' : `\n// or, when it is no longer needed:\n${variable}.${end}()`}`
  }
}

/**
 * The card of a Node-owned collection nothing more specific explains.
 * @param {NodeOwner} owner
 * @param {string} name
 * @param {string[]} sampleKeys
 * @param {string[]} valueClasses
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function nodeCollectionFix (owner, name, sampleKeys, valueClasses) {
  const keys = sampleKeys.length > 0 ? ` New keys look like ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}.` : ''
  const values = valueClasses.length > 0 ? ` New entries hold ${valueClasses.join(', ')}.` : ''
  return {
    subject: `${name} (Node's own, in ${owner.className} of ${owner.module})`,
    summary: `this collection is Node's own: the program cannot bound or clear it, but it is what the program asks of Node that adds an entry each time.${keys}${values} Find the call that passes something new each time (the keys above) and make it once, or with values from a small fixed set.`,
    snippet: '// make this call once at start-up and reuse its result, not once per request'
  }
}

/**
 * A CommonJS module required again and again after the program deleted it from require.cache: each
 * require() loads a new copy, and the module that requires it keeps every copy in its `children`
 * array, which Node only ever adds to. Null unless the array at the end of `path` is a Module's
 * `children` and its new elements are Modules.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path ends at the array
 * @param {number[]} values new elements (ordinals)
 * @param {string} cwd
 * @returns {{file: string | null, parent: string | null} | null}
 */
export function reloadedModules (analysis, path, values, cwd) {
  if (path.length < 2 || path[path.length - 1].edge !== 'children' || path[path.length - 2].node !== 'Module') return null
  const { graph } = analysis
  const moduleClass = (/** @type {number} */ o) => graph.nodeTypes[o] === graph.nodeType.object && analysis.classes.names[analysis.classOf[o]] === 'Module'
  const sample = values.slice(0, SAMPLE)
  if (sample.length === 0 || sample.filter(moduleClass).length < 0.8 * sample.length) return null
  const fileOf = (/** @type {number} */ o) => {
    const name = propertyTarget(graph, o, 'filename')
    return name >= 0 && graph.nodeTypes[name] === graph.nodeType.string ? readableScriptName(graph.nodeName(name), cwd) : null
  }
  /** @type {Map<string, number>} */
  const files = new Map()
  for (const o of sample) {
    const file = moduleClass(o) ? fileOf(o) : null
    if (file !== null) files.set(file, (files.get(file) ?? 0) + 1)
  }
  const file = [...files].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
  const parent = graph.findOrdinalById(path[path.length - 2].id)
  return { file, parent: parent < 0 ? null : fileOf(parent) }
}

/**
 * Where the program deletes a module from require.cache (else where it requires `file`), found in
 * the text of the program's scripts the snapshot holds; null when no such line is in the heap.
 * @param {HeapAnalysis} analysis
 * @param {string | null} file the reloaded module
 * @param {string} cwd
 * @param {NameResolver} names  for the scripts' whole texts
 * @returns {SourceLocation | null}
 */
export function reloadSite (analysis, file, cwd, names) {
  const { locations } = analysis
  const wanted = (/** @type {number} */ scriptId) => {
    const name = locations.scriptName(scriptId)
    return name !== null && name !== '' && !name.startsWith('node:') && packageOf(name) === null
  }
  const base = file === null ? null : file.replace(/^.*[\\/]/, '').replace(/\.[cm]?js$/, '')
  /** @type {SourceLocation | null} */
  let requireSite = null
  for (const [scriptId, functions] of scriptFunctions(analysis, wanted)) {
    const text = scriptText(analysis, functions, names)
    if (text === null) continue
    const syntax = scriptSyntax(text)
    const deletes = syntax.requireCacheDeletes()
    if (deletes.length > 0) return siteAt(analysis, scriptId, syntax, functions, deletes[0], cwd)
    if (requireSite !== null || base === null) continue
    const call = syntax.requireCalls().find(({ specifier }) => specifier.includes(base))
    if (call !== undefined) requireSite = siteAt(analysis, scriptId, syntax, functions, call.offset, cwd)
  }
  return requireSite
}

/**
 * The location of offset `at` in a script's text, with the innermost function around it.
 * @param {HeapAnalysis} analysis
 * @param {number} scriptId
 * @param {ScriptSyntax} syntax of the script's text
 * @param {import('./script-functions.js').ScriptFunction[]} functions
 * @param {number} at
 * @param {string} cwd
 * @returns {SourceLocation}
 */
function siteAt (analysis, scriptId, syntax, functions, at, cwd) {
  const { line, column } = syntax.positionOf(at)
  const inner = innermostSpan(functionSpans(syntax, functions), at)
  return {
    file: readableScriptName(/** @type {string} */ (analysis.locations.scriptName(scriptId)), cwd),
    line: line + 1,
    column: column + 1,
    function: inner === null ? '' : inner.name
  }
}

/**
 * The card of a module reloaded through require.cache.
 * @param {{file: string | null, parent: string | null}} reload
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function reloadFix ({ file, parent }) {
  const what = file ?? 'a CommonJS module'
  const target = file === null ? './module.js' : `./${file.replace(/^.*[\\/]/, '')}`
  return {
    subject: `${parent === null ? 'A module' : parent}'s module.children (Node's own list of the modules it required)`,
    summary: `the program deletes ${what} from require.cache and requires it again, so each require() loads a new copy, and the module that requires it keeps every copy in its module.children, which Node never takes one out of: each copy's exports, code and scope stay for the life of the process. Require it once and reuse it. To pick up edits, reload only when the file changes and take the old copy out of the parent's children too, or run the reloaded code in a Worker and terminate the old one.`,
    snippet: `// once, at start-up\nconst mod = require('${target}')\n// to reload: drop the old copy from its parent's children as well\nconst old = require.cache[file]\ndelete require.cache[file]\nparent.children.splice(parent.children.indexOf(old), 1)`
  }
}
