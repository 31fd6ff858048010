// Node's ES module loader keeps every module it loaded, under its URL, in caches the program cannot
// bound or clear: importing one module under a new URL each time (a query or hash that changes per
// call) adds an entry to them for good. Recognised by the keys of a Node-owned collection, module
// specifiers that differ only in their query or hash; the program's `import(` is found in the text
// of the importing script.

import { fileURLToPath } from 'node:url'
import { mayBeCutBySnapshot } from '../../cut-text.js'
import { reference } from '../../query/references.js'
import { scriptSyntax } from '../../syntax/script-syntax.js'
import { scriptFunctions, scriptText, siteAt } from '../script-functions.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */
/** @import {SourceLocation} from '../finding.js' */
/** @import {NodeOwner} from '../node-owned.js' */

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
