// The names people wrote for the variables a minifier renamed (and the ones a compiler made up for
// an import), found when a report first shows a variable: the Context's script and its map are
// read then, once.

import { moduleScopesOf, moduleScriptOf } from '../analysis/module-scopes.js'
import { scriptSyntax } from '../syntax/script-syntax.js'
import { PROGRAM } from './original-names.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {ModuleScopes} from '../analysis/module-scopes.js' */
/** @import {ScriptNames} from './original-names.js' */
/** @import {ProgramScripts} from './program-scripts.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */

/** Closures of one Context looked at to find the function it belongs to. */
const CONTEXT_CLOSURES = 64
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * A Context's scope found for a ScopeInfo and the variables its Context has.
 * @typedef {{variables: string[], found: {names: ScriptNames, scope: number} | null}} ScopeInfoAnswer
 */

/**
 * What is known of one analysis's variables so far.
 * @typedef {object} AnalysisVariables
 * @property {Map<number, {names: ScriptNames, scope: number} | null>} scopes  per Context ordinal
 * @property {Map<number, ScopeInfoAnswer[]>} byScopeInfo  per ScopeInfo ordinal
 *   and the variables its Context has (the Contexts of every call of a function share one)
 * @property {Map<number, string | null>} named  per edge asked for (a block scope's slots too)
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
    const known = this.#knownOf(analysis)
    let name = known.named.get(edge)
    if (name !== undefined) return name
    name = null
    const { graph } = analysis
    const token = graph.edgeName(edge)
    if (IDENTIFIER.test(token)) {
      const context = graph.edgeSource(edge)
      let scope = known.scopes.get(context)
      if (scope === undefined) {
        known.modules ??= moduleScopesOf(graph, analysis.locations)
        known.scopes.set(context, (scope = this.#contextScope(analysis, context, known.modules, known.byScopeInfo)))
      }
      const original = scope === null ? null : scope.names.bindingName(token, scope.scope)
      if (original !== token) name = original
      if (name === null) {
        known.modules ??= moduleScopesOf(graph, analysis.locations)
        name = this.#importName(analysis, context, token, known.modules)
      }
    }
    known.named.set(edge, name)
    return name
  }

  /**
   * Which of `candidates` a block scope's hidden slot holds (NameResolver#blockVariable): the one
   * variable whose every declaration in the scope's script starts it as the kind of value the
   * slot holds (`const seen = []` for an Array, `new Map()` for a Map); null when none or several.
   * @param {HeapAnalysis} analysis
   * @param {number} edge
   * @param {string[]} candidates
   * @returns {string | null}
   */
  blockSlotName (analysis, edge, candidates) {
    const known = this.#knownOf(analysis)
    let name = known.named.get(edge)
    if (name !== undefined) return name
    name = null
    const { graph, locations, classes, classOf } = analysis
    const context = graph.edgeSource(edge)
    known.modules ??= moduleScopesOf(graph, locations)
    let url = moduleScriptOf(known.modules, context)
    if (url === null) {
      for (const closure of contextClosures(graph, context)) {
        const record = locations.recordOf(closure)
        if (record < 0) continue
        url = locations.scriptName(locations.recordFields(record)[0])
        break
      }
    }
    const text = url === null || url.startsWith('node:') ? null : this.#scripts.read(url, analysis).text
    if (text !== null) {
      const syntax = scriptSyntax(text)
      const target = graph.edgeTargets[edge]
      const kind = valueKind(classes.names[classOf[target]], graph.nodeTypeName(target))
      const fitting = candidates.filter((candidate) => {
        const kinds = syntax.initialKinds(candidate)
        return kinds.length > 0 && kinds.every((k) => k === kind)
      })
      if (fitting.length === 1) name = fitting[0]
    }
    known.named.set(edge, name)
    return name
  }

  /**
   * @param {HeapAnalysis} analysis
   * @returns {AnalysisVariables}
   */
  #knownOf (analysis) {
    let known = this.#known.get(analysis)
    if (known === undefined) this.#known.set(analysis, (known = { scopes: new Map(), byScopeInfo: new Map(), named: new Map(), modules: undefined }))
    return known
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
   * @param {Map<number, ScopeInfoAnswer[]>} byScopeInfo  found before for
   *   the Contexts of a function's other calls: a service's thousands of timers or listeners each
   *   have one, of a few functions
   * @returns {{names: ScriptNames, scope: number} | null}
   */
  #contextScope (analysis, context, modules, byScopeInfo) {
    const { graph } = analysis
    /** @type {string[]} */
    const variables = []
    let scopeInfo = -1
    const scopeInfoName = graph.strings.indexOf('scope_info')
    for (let e = graph.firstEdge[context], end = graph.firstEdge[context + 1]; e < end; e++) {
      if (graph.edgeTypes[e] !== graph.edgeType.context) {
        if (graph.edgeTypes[e] === graph.edgeType.internal && graph.edgeNames[e] === scopeInfoName) scopeInfo = graph.edgeTargets[e]
        continue
      }
      const variable = graph.edgeName(e)
      if (IDENTIFIER.test(variable)) variables.push(variable)
    }
    // Calls of one function make Contexts of one ScopeInfo; a variable holding a small integer
    // has no edge, so the answer is kept with the variables seen.
    if (scopeInfo < 0) return this.#scopeOf(analysis, context, variables, modules)
    let answers = byScopeInfo.get(scopeInfo)
    if (answers === undefined) byScopeInfo.set(scopeInfo, (answers = []))
    const known = answers.find((answer) => sameNames(answer.variables, variables))
    if (known !== undefined) return known.found
    const found = this.#scopeOf(analysis, context, variables, modules)
    answers.push({ variables, found })
    return found
  }

  /**
   * #contextScope, for a Context whose ScopeInfo has not been seen with these variables.
   * @param {HeapAnalysis} analysis
   * @param {number} context
   * @param {string[]} variables  the Context's, with identifier names
   * @param {ModuleScopes} modules
   * @returns {{names: ScriptNames, scope: number} | null}
   */
  #scopeOf (analysis, context, variables, modules) {
    const { graph, locations } = analysis
    // A module's scope is its script's top level, unless the script wraps its code in a function
    // (an IIFE bundle): then the closures tell which function, as for any other Context.
    const moduleUrl = moduleScriptOf(modules, context)
    if (moduleUrl !== null) {
      const names = this.#scripts.namesOf(moduleUrl, analysis)
      if (names === null) return null
      if (names.declaresAll(variables, PROGRAM)) return { names, scope: PROGRAM }
    }
    /** @type {ScriptNames | null} */
    let names = null
    let url = null
    let scope = null
    let looked = 0
    for (const closure of contextClosures(graph, context)) {
      if (looked >= CONTEXT_CLOSURES) break
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

/**
 * The closures made with a Context (an internal `context` edge to it), in retainer order; none
 * without the graph's retainer index.
 * @param {HeapGraph} graph
 * @param {number} context
 * @returns {Generator<number>}
 */
function * contextClosures (graph, context) {
  if (!graph.hasRetainers) return
  const contextEdge = graph.strings.indexOf('context')
  for (let slot = graph.firstRetainer[context], end = graph.firstRetainer[context + 1]; slot < end; slot++) {
    const e = graph.retainerEdges[slot]
    const closure = graph.retainerSource(slot)
    if (graph.nodeTypes[closure] === graph.nodeType.closure && graph.edgeTypes[e] === graph.edgeType.internal && graph.edgeNames[e] === contextEdge) yield closure
  }
}

/**
 * @param {string[]} a
 * @param {string[]} b
 */
function sameNames (a, b) {
  return a.length === b.length && a.every((name, i) => name === b[i])
}

/**
 * What a declaration would start a value of this class as (ScriptSyntax#initialKinds).
 * @param {string} className  the class table's
 * @param {string} nodeType
 */
function valueKind (className, nodeType) {
  if (nodeType === 'closure') return 'Function'
  if (nodeType === 'number') return 'number'
  if (nodeType.endsWith('string')) return 'string'
  // Plain objects are named by their properties ({a, b}) where DevTools would.
  return className.startsWith('{') ? 'Object' : className
}
