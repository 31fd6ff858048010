// The names people wrote for the variables a minifier renamed (and the ones a compiler made up for
// an import), found when a report first shows a variable: the Context's script and its map are
// read then, once.

import { findModuleScopes, moduleScriptOf } from '../analysis/module-scopes.js'
import { scriptSyntax } from '../syntax/script-syntax.js'
import { PROGRAM } from './original-names.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {ModuleScopes} from '../analysis/module-scopes.js' */
/** @import {ScriptNames} from './original-names.js' */
/** @import {ProgramScripts} from './program-scripts.js' */

/** Closures of one Context looked at to find the function it belongs to. */
const CONTEXT_CLOSURES = 64
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * What is known of one analysis's variables so far.
 * @typedef {object} AnalysisVariables
 * @property {Map<number, {names: ScriptNames, scope: number} | null>} scopes  per Context ordinal
 * @property {Map<number, string | null>} named  per edge asked for
 * @property {ModuleScopes | undefined} modules
 */

export class VariableNames {
  #scripts
  /** @type {WeakMap<HeapAnalysis, AnalysisVariables>} */
  #known = new WeakMap()

  /** @param {ProgramScripts} scripts */
  constructor (scripts) {
    this.#scripts = scripts
  }

  /**
   * The name people wrote for the variable of a context edge, or null to keep the heap's.
   * @param {HeapAnalysis} analysis
   * @param {number} edge
   * @returns {string | null}
   */
  nameOf (analysis, edge) {
    let known = this.#known.get(analysis)
    if (known === undefined) this.#known.set(analysis, (known = { scopes: new Map(), named: new Map(), modules: undefined }))
    let name = known.named.get(edge)
    if (name !== undefined) return name
    name = null
    const { graph } = analysis
    const token = graph.edgeName(edge)
    if (IDENTIFIER.test(token)) {
      const context = graph.edgeSource(edge)
      let scope = known.scopes.get(context)
      if (scope === undefined) {
        known.modules ??= findModuleScopes(graph, analysis.locations)
        known.scopes.set(context, (scope = this.#contextScope(analysis, context, known.modules)))
      }
      const original = scope === null ? null : scope.names.bindingName(token, scope.scope)
      if (original !== token) name = original
      if (name === null) {
        known.modules ??= findModuleScopes(graph, analysis.locations)
        name = this.#importName(analysis, context, token, known.modules)
      }
    }
    known.named.set(edge, name)
    return name
  }

  /**
   * The name a module variable stands for when a compiler made it up for an import: tsc compiles
   * `import { auditTrail } from './audit'` to CommonJS as `const audit_1 = require("./audit")`
   * (the specifier's file name, `_` for what is no identifier character, and a counter), and
   * every use as `audit_1.auditTrail`. The name is taken only when the script's text declares the
   * variable so, from a specifier that makes that very name, and the scope has no variable of
   * the name given (a file name without its extension: `audit`). Null otherwise.
   * @param {HeapAnalysis} analysis
   * @param {number} context
   * @param {string} token
   * @param {ModuleScopes} modules
   * @returns {string | null}
   */
  #importName (analysis, context, token, modules) {
    const made = /^([\w$]+)_\d+$/.exec(token)
    const url = made === null ? null : moduleScriptOf(modules, context)
    if (made === null || url === null || url.startsWith('node:')) return null
    const text = this.#scripts.read(url, analysis).text
    if (text === null) return null
    const specifier = scriptSyntax(text).requiredAs(token)
    if (specifier === null) return null
    const file = specifier.slice(specifier.lastIndexOf('/') + 1)
    // tsc's makeIdentifierFromModuleName.
    if (file.replace(/^(\d)/, '_$1').replace(/\W/g, '_') !== made[1]) return null
    const name = file.replace(/\.(?:[cm]?[jt]sx?|json)$/, '')
    const { graph } = analysis
    for (let e = graph.firstEdge[context], end = graph.firstEdge[context + 1]; e < end; e++) {
      if (graph.edgeTypes[e] === graph.edgeType.context && graph.edgeName(e) === name) return null
    }
    return name === '' ? null : name
  }

  /**
   * The script and the function a Context belongs to: a module scope's script at its top level;
   * else the function around every closure made with the Context, when the map's code has each
   * of them starting where V8 says and the Context's variables all appear in that function's
   * own code (a function that captures nothing has no Context: its closures get the outer one).
   * @param {HeapAnalysis} analysis
   * @param {number} context
   * @param {ModuleScopes} modules
   * @returns {{names: ScriptNames, scope: number} | null}
   */
  #contextScope (analysis, context, modules) {
    const { graph, locations } = analysis
    const variables = []
    for (let e = graph.firstEdge[context], end = graph.firstEdge[context + 1]; e < end; e++) {
      if (graph.edgeTypes[e] !== graph.edgeType.context) continue
      const variable = graph.edgeName(e)
      if (IDENTIFIER.test(variable)) variables.push(variable)
    }
    // A module's scope is its script's top level, unless the script wraps its code in a function
    // (an IIFE bundle): then the closures tell which function, as for any other Context.
    const moduleUrl = moduleScriptOf(modules, context)
    if (moduleUrl !== null) {
      const names = this.#scripts.namesOf(moduleUrl, analysis)
      if (names === null) return null
      if (names.declaresAll(variables, PROGRAM)) return { names, scope: PROGRAM }
    }
    if (!graph.hasRetainers) return null
    const contextEdge = graph.strings.indexOf('context')
    /** @type {ScriptNames | null} */
    let names = null
    let url = null
    let scope = null
    let looked = 0
    for (let slot = graph.firstRetainer[context], end = graph.firstRetainer[context + 1]; slot < end && looked < CONTEXT_CLOSURES; slot++) {
      const e = graph.retainerEdges[slot]
      const closure = graph.retainerSource(slot)
      if (graph.nodeTypes[closure] !== graph.nodeType.closure || graph.edgeTypes[e] !== graph.edgeType.internal || graph.edgeNames[e] !== contextEdge) continue
      const record = locations.recordOf(closure)
      if (record < 0) continue
      looked++
      const [scriptId, line, column] = locations.recordFields(record)
      const script = locations.scriptName(scriptId)
      if (script === null || (url !== null && script !== url)) return null
      if (url === null) {
        url = script
        if ((names = this.#scripts.namesOf(url, analysis)) === null) return null
      }
      const at = /** @type {ScriptNames} */ (names).offsetOf(line, column)
      const own = at < 0 ? -1 : /** @type {ScriptNames} */ (names).functionAt(at)
      if (own < 0) return null
      const parent = /** @type {ScriptNames} */ (names).parentOf(own)
      scope = scope === null ? parent : /** @type {ScriptNames} */ (names).commonScope(scope, parent)
    }
    if (names === null || scope === null) return null
    return names.declaresAll(variables, scope) ? { names, scope } : null
  }
}
