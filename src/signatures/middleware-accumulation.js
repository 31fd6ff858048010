// middleware-accumulation: code running per request registers a middleware, handler or
// interceptor on a shared app, router or client (`app.use(fn)` inside a route handler, an axios
// interceptor added per call): the object's list of handlers gains an entry per request, and every
// later request runs them all. Recognised by shape, not by library: an array that keeps gaining
// functions, or records holding a function (express's Layer `{handle}`, axios' `{fulfilled,
// rejected}`), most of them from one source location, kept under a handler-list name or as records
// on a long-lived object. It runs before listener-accumulation, which would take an array of
// records under `handlers` for an observer list, so it leaves alone what is that signature's: bare
// functions under listener-like names, records of listener fields (fn, callback, handler) and
// anything under an emitter's `_events`. Closures in a module-level list are closure-retention's.

import { shownEdgeName } from '../analysis/shown-names.js'
import { collectionGrowth } from './collection-growth.js'
import { bytesText, countText, namedBytes, notesOf } from './evidence-notes.js'
import { judgeGrowth, percent, perStepOf } from './growth-evidence.js'
import { isProgramLocation, mostCommonLocation } from './program-location.js'
import { EdgeCursor, propertyTarget, references } from '../query/references.js'
import { unwrapBound } from '../query/heap-values.js'
import { sourceLocation } from './source-location.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {Match, Signature, SignatureInput, SourceLocation} from './finding.js' */

export const ID = 'middleware-accumulation'

/** @type {Signature} */
export const middlewareAccumulation = { id: ID, match: matchMiddlewareAccumulation }

/** Names under which apps, routers and clients keep their handler lists. */
const LIST_NAMES = /(?:stack|middlewares?|interceptors|plugins|layers|pipeline|chain|filters)$/i
/** Listener-like list names: a list of bare functions under them is listener-accumulation's. */
const RECORD_LIST_NAMES = /(?:handlers|hooks)$/i
/** Fields of middleware and interceptor records that hold the function called. The fields of
 * listener records (fn, listener, callback, handler) are listener-accumulation's. */
const RECORD_FIELDS = /^(?:handle|fulfilled|rejected|middleware|hook)$/i
/** Of the new elements, at least this share must be functions or handler records ... */
const MIN_FUNCTION_SHARE = 0.8
/** ... and at least this share of those functions must come from one location. */
const MIN_LOCATION_SHARE = 0.5
const TOP_VARIABLES = 3
/** Property steps at the end of the path named in the title (`client.interceptors.request.handlers`). */
const MAX_NAME_STEPS = 4

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchMiddlewareAccumulation (input) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const growth = collectionGrowth(input, g, ['array'])
    if (growth === null || growth.newValues.length === 0) continue
    const { owner, path, counts, retained, share } = growth

    /** @type {number[]} */
    const functions = []
    /** @type {Map<string, number>} the field each record's function was taken from */
    const fields = new Map()
    /** @type {Map<string, number>} every field of the records that holds a function */
    const functionFields = new Map()
    for (const element of growth.newValues) {
      const found = handlerOf(last, element)
      if (found === null) continue
      functions.push(found.fn)
      if (found.field !== '') fields.set(found.field, (fields.get(found.field) ?? 0) + 1)
      for (const field of found.fields) functionFields.set(field, (functionFields.get(field) ?? 0) + 1)
    }
    const functionShare = functions.length / growth.newValues.length
    if (functionShare < MIN_FUNCTION_SHARE) continue
    const { location, fromLocation } = dominantLocation(last, functions, cwd, names)
    if (location === null || fromLocation / functions.length < MIN_LOCATION_SHARE) continue

    const listName = lastName(path)
    const [main] = [...fields].sort((a, b) => b[1] - a[1])
    const records = main !== undefined && RECORD_FIELDS.test(main[0]) && main[1] === functions.length
    const recordFields = [...functionFields].sort((a, b) => b[1] - a[1]).map(([name]) => name)
    const namedLikeList = listName !== null && (LIST_NAMES.test(listName) || (records && RECORD_LIST_NAMES.test(listName)))
    // An emitter's listener list is listener-accumulation's; the path's part before the program's
    // own (how the runtime reaches its module: a server's request listener) says nothing of it.
    if (path.slice(path.findLastIndex((step) => step.module !== undefined) + 1).some((step) => step.edge === '_events')) continue
    if (!namedLikeList && !(records && onObject(last, path))) continue

    const holderStep = path.length >= 2 ? path[path.length - 2] : null
    const holderClass = holderStep === null ? '' : holderStep.node
    const where = dottedName(path) ?? `${owner.name} @${owner.id}`
    const added = counts[counts.length - 1] - counts[0]
    const variables = capturedVariables(last, functions, names)
    const locationShare = fromLocation / functions.length
    const facts = [
      { weight: 0.1 * share, reason: `its new elements hold ${percent(share)} of the growth row's retained growth` },
      { weight: locationShare >= 0.8 ? 0.1 : 0.05, reason: `${percent(locationShare)} of the new handlers are one function, at ${location.file}:${location.line}` }
    ]
    if (namedLikeList) facts.push({ weight: 0.05, reason: `the array is kept under '${listName}', a handler-list name` })
    if (records) facts.push({ weight: 0.03, reason: `its entries are handler records ({${recordFields.join(', ')}})` })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    const interceptor = recordFields.includes('fulfilled') || recordFields.includes('rejected') || /interceptor/i.test(where)
    const kind = interceptor ? 'An interceptor' : 'A middleware function'
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: `${kind} is registered on ${where}${holderClass === '' ? '' : ` (${holderClass})`} on every request and never removed: ${counts.map((c) => countText(c)).join(' → ')} handlers.`,
        confidence,
        reasons,
        owner,
        path,
        evidence: {
          unit: 'handlers',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: growth.ownerCount,
          newHandlers: functions.length,
          fromLocation,
          recordFields,
          holderClass,
          bytesPerHandler: Math.round((retained[retained.length - 1] - retained[0]) / Math.max(1, added)),
          capturedVariables: variables,
          locationRole: 'registered per request',
          notes: notesOf([
            `${countText(fromLocation)} of ${countText(functions.length)} new handlers are this function${recordFields.length === 0 ? '' : `, each in a {${recordFields.join(', ')}} record`}`,
            `~${bytesText((retained[retained.length - 1] - retained[0]) / Math.max(1, added))} per handler${variables.length === 0 ? '' : `; they capture ${namedBytes(variables)}`}`,
            'every later request runs through all of them'
          ])
        },
        location,
        fix: fixFor(path, interceptor)
      }
    })
  }
  return matches
}

/**
 * The function an array element registers: the element itself when it is a function, or the
 * function a handler record holds (its first field that is a function, preferring known names).
 * @param {HeapAnalysis} analysis
 * @param {number} element
 * @returns {{fn: number, field: string, fields: string[]} | null} field: '' for a bare function;
 *   fields: the record's fields that hold functions
 */
function handlerOf (analysis, element) {
  const { graph } = analysis
  if (graph.nodeTypes[element] === graph.nodeType.closure) return { fn: unwrapBound(graph, element), field: '', fields: [] }
  if (graph.nodeTypes[element] !== graph.nodeType.object) return null
  /** @type {{fn: number, field: string} | null} */
  let chosen = null
  /** @type {string[]} */
  const fields = []
  for (const edge = references(graph, element); edge.next();) {
    const target = edge.target
    if (!edge.is('property') || graph.nodeTypes[target] !== graph.nodeType.closure) continue
    const field = edge.name
    if (field === 'constructor' || field === '__proto__') continue
    fields.push(field)
    if (chosen === null || (RECORD_FIELDS.test(field) && !RECORD_FIELDS.test(chosen.field))) chosen = { fn: unwrapBound(graph, target), field }
  }
  return chosen === null ? null : { ...chosen, fields }
}

/**
 * The program location most functions share, and how many share it.
 * @param {HeapAnalysis} analysis
 * @param {number[]} functions
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{location: SourceLocation | null, fromLocation: number}}
 */
function dominantLocation (analysis, functions, cwd, names) {
  /** @type {Map<number, {fn: number, count: number}>} by SharedFunctionInfo: one function's closures share it */
  const byShared = new Map()
  for (const fn of functions) {
    const shared = propertyTarget(analysis.graph, fn, 'shared')
    const key = shared < 0 ? fn : shared
    const tally = byShared.get(key)
    if (tally) tally.count++
    else byShared.set(key, { fn, count: 1 })
  }
  const best = mostCommonLocation(function * () {
    for (const { fn, count } of byShared.values()) {
      const location = sourceLocation(analysis, fn, cwd, names)
      if (isProgramLocation(location)) yield { location, count }
    }
  }())
  return best === null ? { location: null, fromLocation: 0 } : { location: best.location, fromLocation: best.count }
}

/**
 * The variables the functions' scopes keep alive on their own, summed over the functions.
 * @param {HeapAnalysis} analysis
 * @param {number[]} functions
 * @param {NameResolver} names
 * @returns {Array<{name: string, bytes: number}>}
 */
function capturedVariables (analysis, functions, names) {
  const { graph, dominators, retainedSizes } = analysis
  /** @type {Map<string, number>} */
  const bytes = new Map()
  const seen = new Set()
  const edge = new EdgeCursor(graph)
  for (const fn of functions) {
    const context = propertyTarget(graph, fn, 'context')
    if (context < 0 || seen.has(context)) continue
    seen.add(context)
    for (edge.references(context); edge.next();) {
      const target = edge.target
      if (!edge.is('context') || dominators[target] !== context) continue
      const name = shownEdgeName(analysis, edge.number, names)
      bytes.set(name, (bytes.get(name) ?? 0) + retainedSizes.at(target))
    }
  }
  return [...bytes].filter(([, total]) => total > 0).sort((a, b) => b[1] - a[1]).slice(0, TOP_VARIABLES).map(([name, total]) => ({ name, bytes: total }))
}

/**
 * The name of the array: the property or variable the path ends in.
 * @param {Step[]} path
 */
function lastName (path) {
  const step = path[path.length - 1]
  return step && (step.edgeType === 'property' || step.edgeType === 'context') ? step.edge : null
}

/**
 * `app.stack`, `client.interceptors.request.handlers`: the names of the path's last steps, or null.
 * @param {Step[]} path
 */
function dottedName (path) {
  const names = []
  for (let i = path.length - 1; i >= 0 && names.length < MAX_NAME_STEPS; i--) {
    const step = path[i]
    if (step.edgeType !== 'property' && step.edgeType !== 'context') break
    names.unshift(step.edge)
    if (step.edgeType === 'context') break
  }
  return names.length === 0 ? null : names.join('.')
}

/**
 * Whether the array is a property of an object (an app, router or client), not a variable.
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path
 */
function onObject (analysis, path) {
  if (path.length < 2 || path[path.length - 1].edgeType !== 'property') return false
  const holder = analysis.graph.findOrdinalById(path[path.length - 2].id)
  return holder >= 0 && analysis.graph.nodeTypes[holder] === analysis.graph.nodeType.object && analysis.graph.nodeName(holder) !== 'system / Context'
}

/**
 * @param {Step[]} path
 * @param {boolean} interceptor
 * @returns {{summary: string, snippet: string}}
 */
function fixFor (path, interceptor) {
  const names = (dottedName(path) ?? '').split('.').slice(0, -1)
  const target = names.length > 0 && names.every((name) => /^[A-Za-z_$][\w$]*$/.test(name)) ? names.join('.') : interceptor ? 'client.interceptors.request' : 'app'
  if (interceptor) {
    return {
      summary: 'register the interceptor once at start-up, not per request; one that must be per request is ejected when the request ends.',
      snippet: `// at start-up, once:\n${target}.use(addAuth)\n// per request only with eject:\nconst id = ${target}.use(fn)\nres.once('close', () => ${target}.eject(id))`
    }
  }
  return {
    summary: 'register middleware once at start-up, not inside the request handler; pass per-request values on req or res.locals instead of in a new function.',
    snippet: `// at start-up, once:\n${target}.use(checkAudience)\n// in the handler: no ${target}.use(); hand data to it on the request\nres.locals.audience = audience`
  }
}
