// A CommonJS module required again and again after the program deleted it from require.cache: each
// require() loads a new copy, and the module that requires it keeps every copy in its `children`
// array, which Node only ever adds to. The program's `delete require.cache[...]` (else its
// require() of the module) is found in the text of its scripts.

import { propertyTarget } from '../../query/references.js'
import { scriptSyntax } from '../../syntax/script-syntax.js'
import { packageOf } from '../library-handle.js'
import { scriptFunctions, scriptText, siteAt } from '../script-functions.js'
import { readableScriptName } from '../source-location.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */
/** @import {SourceLocation} from '../finding.js' */

/** New elements looked at for the modules they are. */
const SAMPLE = 200

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
