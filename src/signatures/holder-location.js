// Where the code that owns a collection lives, from the heap alone. A snapshot does not record
// where an object was allocated, but it knows who holds it: a variable of a closure scope (then
// the function that closes over that scope, the one the retainer path went through when it did),
// a property of a class instance (then the constructor), or a property of a function (a class's
// static field, a memoized function's cache: then that function).

import { distancesOf } from '../analysis/distances.js'
import { findRetainer, reference, references, retainers } from '../query/references.js'
import { scriptSourceOf } from './script-source.js'
import { sourceLocation } from './source-location.js'
import { scriptSyntax } from '../syntax/script-syntax.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {HeapGraph} from '../graph/heap-graph.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {SourceLocation} from './finding.js' */
/** @import {NodeLocation} from '../graph/locations.js' */
/** @import {ScriptSyntax} from '../syntax/script-syntax.js' */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * @typedef {object} HolderLocation
 * @property {SourceLocation} location
 * @property {'closure' | 'module' | 'constructor' | 'function'} how  a function closing over the
 *   variable, the module body (a module-level variable), the holder's constructor, or the function
 *   (or class) that has it as a property
 * @property {number} [scriptId]  the V8 script id of that code, when known
 */

/** How the code at a holder location relates to the collection, for the card. */
export const HOLDER_ROLES = Object.freeze({ closure: 'closes over it', module: 'module scope', constructor: 'constructor of its holder', function: 'has it as a property' })

/**
 * The location of the code holding the last node of `path`, or null when the heap does not say.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path ends at the collection
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {HolderLocation | null}
 */
export function holderLocation (analysis, path, cwd, names) {
  if (path.length < 2) return null
  const { graph } = analysis
  const holder = graph.findOrdinalById(path[path.length - 2].id)
  if (holder < 0) return null
  if (graph.nodeName(holder) === 'system / Context') {
    const last = path[path.length - 1]
    const mentions = last.edgeType === 'context' ? mentionsOf(analysis, last.generatedEdge ?? last.edge, names) : null
    const closure = closureOverContext(analysis, holder, path.length >= 3 ? path[path.length - 3].id : 0, mentions)
    const location = closure < 0 ? null : sourceLocation(analysis, closure, cwd, names)
    if (location === null) return null
    const scriptId = /** @type {NodeLocation} */ (analysis.locations.locationOf(closure)).scriptId
    // A module's own body starts at its first character; functions in it start later.
    const body = closure === moduleBodyOf(graph, holder) || (location.line === 1 && location.column === 1)
    return { location, how: body ? 'module' : 'closure', scriptId }
  }
  const type = graph.nodeTypes[holder]
  if (type !== graph.nodeType.object && type !== graph.nodeType.closure) return null
  const location = sourceLocation(analysis, holder, cwd, names)
  if (location === null) return null
  return { location, how: type === graph.nodeType.closure ? 'function' : 'constructor', scriptId: /** @type {NodeLocation} */ (analysis.locations.locationOf(holder)).scriptId }
}

/**
 * A closure whose scope is `context`: the one with V8 id `preferredId` if it is one (the function
 * the retainer path went through), else the one that keeps the scope alive from outside it (held
 * by something other than the scope's own variables) nearest the roots, else the located one that
 * starts first in its file. An ES module's own body is one of its scope's closures too: it is
 * chosen only when no other function closes over the scope. Every function of a module closes
 * over the module's scope, whatever variables it uses: with `mentions` (the script's text is
 * known), the functions whose code names the variable come before the others, the preferred one
 * included.
 * @param {HeapAnalysis} analysis
 * @param {number} context
 * @param {number} preferredId
 * @param {((closure: number) => boolean) | null} [mentions]  whether a closure's code names the variable
 */
export function closureOverContext (analysis, context, preferredId, mentions = null) {
  const { graph, locations } = analysis
  const distances = distancesOf(analysis)
  const body = moduleBodyOf(graph, context)
  let best = -1
  /** @type {number[]} */
  let bestKey = []
  for (const edge = retainers(graph, context); edge.next();) {
    if (!edge.is('internal', 'context')) continue
    const source = edge.source
    if (graph.nodeTypes[source] !== graph.nodeType.closure) continue
    const named = source !== body && mentions !== null && mentions(source)
    if (graph.nodeIds[source] === preferredId && source !== body && (mentions === null || named)) return source
    const location = locations.locationOf(source)
    if (location === null) continue
    // A closure held only by its own scope (a module-level function declaration) does not keep
    // the scope alive; one held from outside (a listener, a handler) is how the scope is reached.
    const held = source !== body && heldFromOutside(graph, source, context)
    const key = [source === body ? 2 : named ? 0 : 1, held ? 0 : 1, held ? distances[source] : 0, location.line, location.column]
    if (best < 0 || compareKeys(key, bestKey) < 0) {
      best = source
      bestKey = key
    }
  }
  return best
}

/**
 * Whether a closure's code names `variable`, read from its script's syntax tree; null when the
 * name is none a program could write or no script text is known (then the heap alone decides).
 * @param {HeapAnalysis} analysis
 * @param {string} variable  as the code that ran names it
 * @param {NameResolver} names
 * @returns {((closure: number) => boolean) | null}
 */
function mentionsOf (analysis, variable, names) {
  if (!IDENTIFIER.test(variable)) return null
  /** @type {Map<number, ScriptSyntax | null>} by script id */
  const syntaxes = new Map()
  /** @type {Map<string, boolean>} by function (script id, line, column): a scope held by a closure per request has thousands of one function */
  const answers = new Map()
  return (closure) => {
    const location = analysis.locations.locationOf(closure)
    if (location === null) return false
    const key = `${location.scriptId}:${location.line}:${location.column}`
    let answer = answers.get(key)
    if (answer === undefined) {
      answer = functionMentions(closure, location)
      answers.set(key, answer)
    }
    return answer
  }

  /**
   * @param {number} closure
   * @param {NodeLocation} location  the closure's
   */
  function functionMentions (closure, location) {
    let syntax = syntaxes.get(location.scriptId)
    if (syntax === undefined) {
      const copy = scriptSourceOf(analysis.graph, closure)
      const text = (location.scriptName === null || location.scriptName === '' ? null : names.scriptText(location.scriptName, copy)) ?? copy
      syntax = text === null ? null : scriptSyntax(text)
      syntaxes.set(location.scriptId, syntax)
    }
    if (syntax === null) return false
    const start = syntax.offsetOf(location.line, location.column)
    return start > 0 && syntax.mentions(variable, start)
  }
}

/**
 * The closure of an ES module's own body when `context` is that module's scope, else -1. The
 * scope's `extension` is the SourceTextModule; the module holds its body as a function before it
 * runs and as the body's Generator (`function` -> the closure) once it has run (observed alike
 * in V8 11.3, 12.4 and 13.6 snapshots).
 * @param {HeapGraph} graph
 * @param {number} context
 */
function moduleBodyOf (graph, context) {
  const module = reference(graph, context, 'extension', 'internal')
  if (module < 0 || graph.nodeName(module) !== 'system / SourceTextModule') return -1
  /** @param {number} o */
  const closesOver = (o) => graph.nodeTypes[o] === graph.nodeType.closure && reference(graph, o, 'context', 'internal') === context
  for (const edge = references(graph, module); edge.next();) {
    const target = edge.target
    if (closesOver(target)) return target
    const fn = graph.nodeTypes[target] === graph.nodeType.object ? reference(graph, target, 'function', 'internal') : -1
    if (fn >= 0 && closesOver(fn)) return fn
  }
  return -1
}

/**
 * Whether a non-weak edge from something other than `context` holds `closure`.
 * @param {HeapGraph} graph
 * @param {number} closure
 * @param {number} context
 */
function heldFromOutside (graph, closure, context) {
  return findRetainer(graph, closure, (edge) => !edge.is('weak') && edge.source !== context) >= 0
}

/**
 * @param {number[]} a
 * @param {number[]} b
 */
function compareKeys (a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}
